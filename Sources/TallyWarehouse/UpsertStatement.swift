import GRDB

/// A keyed row stored so that a row from another file replaces it and a
/// repeat within the same file is refused, without a statement journal.
///
/// `INSERT … ON CONFLICT DO UPDATE` (and `OR REPLACE`) needs a statement
/// journal inside the ingest's transaction, and SQLite keeps that journal in
/// a temporary file for the rest of the transaction once one statement's
/// outgrows 64 KiB, each upsert then copying the pages it touches there
/// (gigabytes at medium: docs/performance.md). Here the row is
/// inserted with `ON CONFLICT DO NOTHING`; only when its key is taken does
/// an `UPDATE OR FAIL … WHERE file_id <> ?` replace a row of another file
/// (the rare case: a key in two files). Neither needs the journal while the
/// table's file key is checked at commit (`DeferredForeignKeys`).
///
/// The row replaced is superseded (``TallyCore/ReferenceRowRule``): before
/// the replacement, its file's `rows_superseded` goes up by one.
///
/// The statements number their parameters alike (`?1` … in column order),
/// so every value is bound to each (a statement that uses fewer ignores the rest).
struct UpsertStatement {
    private let insert: BulkStatement
    private let replace: BulkStatement
    private let supersede: BulkStatement

    /// `columns` end with `file_id` and `line`; `key` names the conflict target.
    init(_ db: Database, table: String, columns: [String], key: [String]) throws {
        precondition(columns.suffix(2) == ["file_id", "line"], "\(table): an upsert's last columns are file_id and line")
        let number = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, "?\($0 + 1)") })
        insert = try BulkStatement(db, sql: """
            INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { number[$0]! }.joined(separator: ", ")))
            ON CONFLICT(\(key.joined(separator: ", "))) DO NOTHING
            """)
        replace = try BulkStatement(db, sql: """
            UPDATE OR FAIL \(table) SET \(columns.filter { !key.contains($0) }.map { "\($0) = \(number[$0]!)" }.joined(separator: ", "))
            WHERE \(key.map { "\($0) = \(number[$0]!)" }.joined(separator: " AND ")) AND file_id <> \(number["file_id"]!)
            """)
        supersede = try BulkStatement(db, sql: """
            UPDATE input_file SET rows_superseded = rows_superseded + 1
            WHERE id = (SELECT file_id FROM \(table) WHERE \(key.map { "\($0) = \(number[$0]!)" }.joined(separator: " AND ")))
              AND id <> \(number["file_id"]!)
            """)
    }

    func bind(_ index: Int32, _ value: String?) { for s in [insert, replace, supersede] { s.bind(index, value) } }
    func bind(_ index: Int32, _ value: Int64?) { for s in [insert, replace, supersede] { s.bind(index, value) } }
    func bind(_ index: Int32, _ value: Int?) { for s in [insert, replace, supersede] { s.bind(index, value) } }
    func bind(_ index: Int32, _ value: Double?) { for s in [insert, replace, supersede] { s.bind(index, value) } }

    /// Stores the bound row; false when a row of the same file holds its key.
    func step() throws -> Bool {
        if try insert.step() > 0 {
            replace.clearBindings()
            supersede.clearBindings()
            return true
        }
        let superseded = try supersede.step()
        let replaced = try replace.step()
        precondition(superseded == replaced, "a replaced row's file was not counted")
        return replaced > 0
    }
}
