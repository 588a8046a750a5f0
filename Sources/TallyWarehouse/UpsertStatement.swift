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
/// Both statements number their parameters alike (`?1` … in column order),
/// so every value is bound to both.
struct UpsertStatement {
    private let insert: BulkStatement
    private let replace: BulkStatement

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
    }

    func bind(_ index: Int32, _ value: String?) { insert.bind(index, value); replace.bind(index, value) }
    func bind(_ index: Int32, _ value: Int64?) { insert.bind(index, value); replace.bind(index, value) }
    func bind(_ index: Int32, _ value: Int?) { insert.bind(index, value); replace.bind(index, value) }
    func bind(_ index: Int32, _ value: Double?) { insert.bind(index, value); replace.bind(index, value) }

    /// Stores the bound row; false when a row of the same file holds its key.
    func step() throws -> Bool {
        if try insert.step() > 0 {
            replace.clearBindings()
            return true
        }
        return try replace.step() > 0
    }
}
