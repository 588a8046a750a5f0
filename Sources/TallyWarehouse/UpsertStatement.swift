import GRDB

import TallyCore

/// A keyed row stored as ``TallyCore/ReferenceRowRule`` decides, without a
/// statement journal.
///
/// The table holds one row per key: the row that counts so far; its
/// ``KeyedTable/supersededTable`` holds the rows set aside. A row whose key
/// is new is inserted (`ON CONFLICT DO NOTHING`). A row whose key is taken
/// is judged with the held row by the rule, a group of two
/// (``TallyCore/WhichRowsCount``; rows arrive in load order, so judging
/// each arrival against the held row gives the rule's verdicts over the
/// whole group: `WhichRowsCountTests`): when the new row counts, the
/// held row is copied to the rows set aside, its file gains a superseded
/// row, and the new row replaces it (`UPDATE OR FAIL`); when it is
/// rejected, nothing is stored (the caller words the reject with the
/// table's key).
///
/// A taken key costs a failed insert, a look-up of the held row's file and
/// line, its copy and the replacement: the files' load order comes from a cache, and
/// the superseded rows are counted in memory, per file, until
/// ``flushSuperseded()`` adds them to `input_file` (once per loaded file,
/// not once per row: a month's copy of a reference table replaces every row
/// the previous month's copy holds).
///
/// `INSERT … ON CONFLICT DO UPDATE` (and `OR REPLACE`, and a plain
/// `INSERT … SELECT`, which may abort after writing) needs a statement
/// journal inside the ingest's transaction, and SQLite keeps that journal in
/// a temporary file for the rest of the transaction once one statement's
/// outgrows 64 KiB, each upsert then copying the pages it touches there
/// (docs/performance.md). No statement here needs the journal while
/// the table's file key is checked at commit (`DeferredForeignKeys`).
///
/// The statements number their parameters alike (`?1` … in column order),
/// so a row's values bind to each the same way (a statement that uses fewer
/// ignores the rest); the insert takes them at once, the others only when
/// the key is taken.
final class UpsertStatement {
    private let insert: BulkStatement
    private let held: BulkStatement
    private let replace: BulkStatement
    /// Copies the held row of the bound key to the rows set aside.
    private let setAsideHeld: BulkStatement
    /// Stores the bound row with the rows set aside.
    private let setAsideArriving: BulkStatement
    private let supersede: BulkStatement
    private let loadSeq: BulkStatement
    /// The table's rule, which words its repeats' rejects.
    private let rule: ReferenceRowRule
    /// Each file's `load_seq`, as looked up (it never changes once a file is registered).
    private var loadSeqs: [Int64: Int64] = [:]
    /// Rows superseded per file since the last ``flushSuperseded()``.
    private var superseded: [Int64: Int64] = [:]

    /// Binds, in order, `keyed`'s columns, then `file_id` and `line`.
    init(_ db: Database, _ keyed: KeyedTable) throws {
        let table = keyed.name
        let columns = keyed.columns + ["file_id", "line"]
        let key = keyed.key
        let number = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, "?\($0 + 1)") })
        let matches = key.map { "\($0) = \(number[$0]!)" }.joined(separator: " AND ")
        insert = try BulkStatement(db, sql: """
            INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { number[$0]! }.joined(separator: ", ")))
            ON CONFLICT(\(key.joined(separator: ", "))) DO NOTHING
            """)
        held = try BulkStatement(db, sql: """
            SELECT file_id, line FROM \(table)
            WHERE \(key.map { "\($0) = ?\(columns.firstIndex(of: $0)! + 1)" }.joined(separator: " AND "))
            """)
        replace = try BulkStatement(db, sql: """
            UPDATE OR FAIL \(table) SET \(columns.filter { !key.contains($0) }.map { "\($0) = \(number[$0]!)" }.joined(separator: ", "))
            WHERE \(matches)
            """)
        setAsideHeld = try BulkStatement(db, sql: """
            INSERT OR FAIL INTO \(keyed.supersededTable) (\(columns.joined(separator: ", ")))
            SELECT \(columns.joined(separator: ", ")) FROM \(table) WHERE \(matches)
            """)
        setAsideArriving = try BulkStatement(db, sql: """
            INSERT OR FAIL INTO \(keyed.supersededTable) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { number[$0]! }.joined(separator: ", ")))
            """)
        supersede = try BulkStatement(db, sql: "UPDATE input_file SET rows_superseded = rows_superseded + ? WHERE id = ?")
        loadSeq = try BulkStatement(db, sql: "SELECT load_seq FROM input_file WHERE id = ?")
        rule = ReferenceRowRule(key: keyed.keyDescription)
    }

    /// A bound value, kept until the row is stored: only the insert takes the
    /// row's values at once; a taken key (the rarer case) binds them to the
    /// statements that settle it.
    private enum Value {
        case text(String?)
        case integer(Int64?)
        case real(Double?)
    }

    /// The row's values as bound, by parameter index.
    private var values: [(Int32, Value)] = []

    func bind(_ index: Int32, _ value: String?) { insert.bind(index, value); values.append((index, .text(value))) }
    func bind(_ index: Int32, _ value: Int64?) { insert.bind(index, value); values.append((index, .integer(value))) }
    func bind(_ index: Int32, _ value: Int?) { bind(index, value.map(Int64.init)) }
    func bind(_ index: Int32, _ value: Double?) { insert.bind(index, value); values.append((index, .real(value))) }

    /// Binds the row's values to `statement`.
    private func rebind(_ statement: BulkStatement) {
        for (index, value) in values {
            switch value {
            case .text(let text): statement.bind(index, text)
            case .integer(let integer): statement.bind(index, integer)
            case .real(let real): statement.bind(index, real)
            }
        }
    }

    /// Stores the bound row of `file` at `line` (bound too) as the rule
    /// decides; false when the rule rejects it (a repeat within its file).
    func step(file: Int64, line: Int) throws -> Bool {
        defer { values.removeAll(keepingCapacity: true) }
        if try insert.step() > 0 { return true }
        rebind(held)
        guard let h = try held.firstIntegers(2) else { preconditionFailure("a key taken on insert has no row") }
        let holder = ReferenceRowRule.Row(file: h[0], loadSeq: try loadSeq(of: h[0]), line: h[1], row: 0)
        let arriving = ReferenceRowRule.Row(file: file, loadSeq: try loadSeq(of: file), line: Int64(line), row: 1)
        let outcomes = WhichRowsCount.sort([holder, arriving], by: rule) { _, row in row }
        if outcomes.counted.first == arriving {
            // The held row is set aside (copied) before it is replaced.
            superseded[holder.file, default: 0] += 1
            rebind(setAsideHeld)
            let copied = try setAsideHeld.step()
            precondition(copied == 1, "the held row was not set aside")
            rebind(replace)
            let replaced = try replace.step()
            precondition(replaced == 1, "the held row was not replaced")
            return true
        }
        if outcomes.superseded.first == arriving {
            // The held row's file was loaded later (not a case the ingest's
            // load order makes, but the rule's answer is kept all the same).
            superseded[file, default: 0] += 1
            rebind(setAsideArriving)
            try setAsideArriving.step()
            return true
        }
        // Rejected: a repeat within its file.
        return false
    }

    /// Adds the rows counted superseded since the last flush to their
    /// files' `rows_superseded`. Called when a file's load finishes, after
    /// its own counts are set (``IngestSession/finishFile(_:read:rejected:superseded:unknownFields:fingerprint:)``).
    func flushSuperseded() throws {
        for (file, count) in superseded {
            supersede.bind(1, count)
            supersede.bind(2, file)
            try supersede.step()
        }
        superseded.removeAll(keepingCapacity: true)
    }

    private func loadSeq(of file: Int64) throws -> Int64 {
        if let seq = loadSeqs[file] { return seq }
        loadSeq.bind(1, file)
        guard let seq = try loadSeq.firstIntegers(1)?.first else { preconditionFailure("file \(file) is not an input file") }
        loadSeqs[file] = seq
        return seq
    }
}
