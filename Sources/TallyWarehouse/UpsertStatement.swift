import GRDB

import TallyCore
import TallyIngest

/// A keyed row stored as ``TallyCore/ReferenceRowRule`` decides, without a
/// statement journal.
///
/// The table holds one row per key: the row that counts so far; its
/// ``KeyedTable/supersededTable`` holds the rows set aside. Into an empty
/// table (a first load), a row whose key is new is inserted at once
/// (`ON CONFLICT DO NOTHING`), and one whose key an earlier file holds is
/// staged (`temp.staged_<table>`, keyed by the table's key); into a table that holds rows as the
/// file's load starts (most likely a month's copy of it), every row is
/// staged. A row whose key this file already gave is judged with that row by
/// the rule, a group of two of one file (``TallyCore/WhichRowsCount``): the
/// later line is rejected (the caller words the reject with the table's
/// key). The file's staged rows are settled together when its load ends
/// (``flushSuperseded(finishing:)``): staged rows of keys no file holds join the
/// table, and for each file holding some of their keys, the rule judges
/// that file's rows against this file's twice, the identical rows (every
/// column but the key's, file and line, equal: `IS`) and the others (rows
/// arrive in load order, so judging each arrival against the held row
/// gives the rule's verdicts over the whole group: `ReferenceRowRuleTests`),
/// and one statement per outcome applies the verdict to every such key:
/// when the arriving rows count (changed rows), the held rows are copied to
/// the rows set aside, their file gains that many superseded rows, and the
/// arriving rows replace them (`UPDATE … FROM`); when the held rows count
/// (identical rows, or the held file loaded later, not a case the ingest's
/// load order makes), the arriving rows are set aside and their file gains
/// that many.
///
/// A month's copy of a reference table, whose every key is held, thus costs
/// a staged row per row, then a few set-based statements per file, not a
/// look-up, a copy and a replacement per row; its rows that repeat the held
/// ones unchanged cost one insert each into the rows set aside, the table's
/// rows left as they are (docs/performance.md). The superseded rows are
/// counted per file and added to `input_file` once per loaded file.
///
/// `INSERT … ON CONFLICT DO UPDATE` (and `OR REPLACE`, and a plain
/// `INSERT … SELECT`, which may abort after writing) needs a statement
/// journal inside the ingest's transaction, and SQLite keeps that journal in
/// a temporary file for the rest of the transaction once one statement's
/// outgrows 64 KiB, each upsert then copying the pages it touches there
/// (docs/performance.md). The statements here resolve conflicts with
/// `DO NOTHING` or `OR FAIL`, which undo nothing, so none needs the journal
/// (the table's file key is checked at commit: `DeferredForeignKeys`).
///
/// The statements number their parameters alike (`?1` … in column order),
/// so a row's values bind to each the same way: on a first load the
/// insert takes them at once, the staging only when the key is taken; on a
/// month's copy the staging alone.
final class UpsertStatement {
    private let db: Database
    private let keyed: KeyedTable
    private let insert: BulkStatement
    /// Stores the bound row in `temp.staged_<table>`, unless its key is staged already.
    private let stage: BulkStatement
    /// The file and line of the bound key's row in the table, and in the staging.
    private let held: BulkStatement
    private let stagedLine: BulkStatement
    private let loadSeq: BulkStatement
    /// The table's rule, which words its repeats' rejects.
    private let rule: ReferenceRowRule
    /// Each file's `load_seq`, as looked up (it never changes once a file is registered).
    private var loadSeqs: [Int64: Int64] = [:]
    /// Rows superseded per file since the last ``flushSuperseded(finishing:)``.
    private var superseded: [Int64: Int64] = [:]
    /// The file whose rows are staged, if any.
    private var stagedFile: Int64?
    /// How many rows (keys) are staged.
    private var stagedRows: Int64 = 0
    /// The file being loaded, and whether its rows are all staged: when the
    /// table holds rows as its load starts, most of them are a copy of held
    /// rows (a month's copy of the table), and a row staged at once costs one
    /// insert into the staging instead of a failed insert, a look-up and one.
    private var currentFile: Int64?
    private var stagingFirst = false
    private let anyRow: BulkStatement

    /// Binds, in order, `keyed`'s columns, then `file_id` and `line`.
    init(_ db: Database, _ keyed: KeyedTable) throws {
        self.db = db
        self.keyed = keyed
        let table = keyed.name
        let columns = keyed.columns + ["file_id", "line"]
        let list = columns.joined(separator: ", ")
        let values = columns.indices.map { "?\($0 + 1)" }.joined(separator: ", ")
        insert = try BulkStatement(db, sql: """
            INSERT INTO \(table) (\(list)) VALUES (\(values)) ON CONFLICT(\(keyed.key.joined(separator: ", "))) DO NOTHING
            """)
        let key = keyed.key.joined(separator: ", ")
        // Keyed by the table's key, without a rowid: a staged row is one insert into one tree, and
        // the statements that settle the staged rows read them in key order.
        let types = Dictionary(try Row.fetchAll(db, sql: "PRAGMA main.table_info(\(table))").map { ($0["name"] as String, $0["type"] as String) },
                               uniquingKeysWith: { a, _ in a })
        try db.execute(sql: """
            CREATE TEMP TABLE IF NOT EXISTS staged_\(table) (
                \(columns.map { "\($0) \(types[$0] ?? "")" }.joined(separator: ", ")), PRIMARY KEY (\(key))
            ) WITHOUT ROWID
            """)
        stage = try BulkStatement(db, sql: """
            INSERT INTO temp.staged_\(table) (\(list)) VALUES (\(values)) ON CONFLICT(\(key)) DO NOTHING
            """)
        let matches = keyed.key.map { "\($0) = ?\(columns.firstIndex(of: $0)! + 1)" }.joined(separator: " AND ")
        held = try BulkStatement(db, sql: "SELECT file_id, line FROM main.\(table) WHERE \(matches)")
        stagedLine = try BulkStatement(db, sql: "SELECT file_id, line FROM temp.staged_\(table) WHERE \(matches)")
        loadSeq = try BulkStatement(db, sql: "SELECT load_seq FROM input_file WHERE id = ?")
        anyRow = try BulkStatement(db, sql: "SELECT count(*) FROM (SELECT 1 FROM main.\(table) LIMIT 1)")
        rule = ReferenceRowRule(key: keyed.keyDescription)
    }

    /// The row being stored, kept until it is: bound to the insert on a
    /// first load, to the staging when its key is taken (the rarer case on a
    /// first load) or the table held rows as the file began (a month's copy).
    private var values: [StoredValue] = []
    private var file: Int64 = 0
    private var line = 0

    /// Stores `row` (the keyed table's columns in order, as
    /// ``TallyIngest/ReferenceColumns`` gives them) of `file` at `line` as
    /// the rule decides; false when the rule rejects it (a repeat within its file).
    func step(_ row: [StoredValue], file: Int64, line: Int) throws -> Bool {
        precondition(row.count == keyed.columns.count, "\(keyed.name) stores \(keyed.columns.count) columns, not \(row.count)")
        values = row
        self.file = file
        self.line = line
        if currentFile != file {
            try settle()
            currentFile = file
            stagingFirst = (try anyRow.firstIntegers(1)?.first ?? 0) > 0
        }
        if stagingFirst { return try staged(file: file, line: line) }
        rebind(insert)
        if try insert.step() > 0 { return true }
        // The key is taken: by an earlier line of this file (a repeat), or by an earlier file.
        rebind(held)
        guard let h = try held.firstIntegers(2) else { preconditionFailure("a key taken on insert has no row") }
        if h[0] == file { return try keeps(line: h[1], over: line, of: file) }
        return try staged(file: file, line: line)
    }

    /// Stages the bound row of `file` at `line`; false when an earlier line of the file staged its key.
    private func staged(file: Int64, line: Int) throws -> Bool {
        rebind(stage)
        if try stage.step() == 0 {
            rebind(stagedLine)
            guard let s = try stagedLine.firstIntegers(2) else { preconditionFailure("a staged key has no row") }
            return try keeps(line: s[1], over: line, of: file)
        }
        stagedFile = file
        stagedRows += 1
        return true
    }

    /// Judges a row of `file` at `line` whose key the row at `kept` of the same file holds: the rule rejects
    /// the later line; returns false.
    private func keeps(line kept: Int64, over line: Int, of file: Int64) throws -> Bool {
        let first = ReferenceRowRule.Row(file: file, loadSeq: 0, line: kept, row: 0)
        let again = ReferenceRowRule.Row(file: file, loadSeq: 0, line: Int64(line), row: 1)
        let outcomes = WhichRowsCount.sort([first, again], by: rule) { _, row in row }
        // Rows of one file arrive in line order: the rule keeps the first.
        precondition(outcomes.counted.first == first, "a later line of one file counted over an earlier one")
        return false
    }

    /// Binds the row's values, file and line to `statement`.
    private func rebind(_ statement: BulkStatement) {
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            switch value {
            case .text(let text): statement.bind(index, text)
            case .integer(let integer): statement.bind(index, integer)
            case .real(let real): statement.bind(index, real)
            }
        }
        statement.bind(Int32(values.count + 1), file)
        statement.bind(Int32(values.count + 2), line)
    }

    /// Settles the staged rows of `file` when they are this statement's (the
    /// rule judges each holding file's rows against them; nil: whatever is
    /// staged), then adds the rows counted superseded since the last flush
    /// to their files' `rows_superseded`. Called when a file's load
    /// finishes, after its own counts are set
    /// (``IngestSession/finishFile(_:read:rejected:superseded:unknownFields:fingerprint:)``),
    /// for every table's statement: a file of another table finishing (the
    /// loads run in two lanes) leaves this table's file staged whole, so
    /// its repeats are all found in the staging and its rows settled once,
    /// after its own counts are set.
    func flushSuperseded(finishing file: Int64?) throws {
        if file == nil || file == currentFile || file == stagedFile { try settle() }
        for (file, count) in superseded {
            try db.execute(sql: "UPDATE input_file SET rows_superseded = rows_superseded + ? WHERE id = ?", arguments: [count, file])
        }
        superseded.removeAll(keepingCapacity: true)
    }

    /// Applies the rule's verdicts to the rows staged for `file`, one holding file at a time.
    private func settle() throws {
        currentFile = nil
        guard let file = stagedFile else { return }
        stagedFile = nil
        let table = keyed.name
        let all = keyed.columns + ["file_id", "line"]
        let matches = keyed.key.map { "t.\($0) = s.\($0)" }.joined(separator: " AND ")
        // Rows set aside go in key order: the table of rows set aside is keyed by file then key, and
        // a file's rows inserted in its order append to its end.
        let order = keyed.key.map { "s.\($0)" }.joined(separator: ", ")
        // Each holding file, with how many of the staged keys it holds.
        let holders = try Row.fetchAll(db, sql: """
            SELECT t.file_id, count(*) FROM temp.staged_\(table) s JOIN main.\(table) t ON \(matches) GROUP BY t.file_id
            """).map { (file: $0[0] as Int64, keys: $0[1] as Int64) }
        // Rows of a key are identical when every column but the key's, file and line aside, is.
        let same = keyed.columns.filter { !keyed.key.contains($0) }.map { "t.\($0) IS s.\($0)" }
        let identical = same.isEmpty ? "1" : "(" + same.joined(separator: " AND ") + ")"
        // Sets aside the rows of `side` (`t` the held ones, `s` the staged ones) of the keys `holder`
        // holds whose rows are identical (`alike`) or not.
        func setAside(_ side: String, keysOf holder: Int64, alike: Bool) throws -> Int64 {
            try db.execute(sql: """
                INSERT OR FAIL INTO \(keyed.supersededTable) (\(all.joined(separator: ", ")))
                SELECT \(all.map { "\(side).\($0)" }.joined(separator: ", "))
                FROM temp.staged_\(table) s JOIN main.\(table) t ON \(matches)
                WHERE t.file_id = ? AND \(alike ? "" : "NOT ")\(identical) ORDER BY \(order)
                """, arguments: [holder])
            return Int64(db.changesCount)
        }
        for (holder, keys) in holders {
            let held = ReferenceRowRule.Row(file: holder, loadSeq: try loadSeq(of: holder), line: 0, row: 0, content: 0)
            // The rule judges the holder's rows against the file's twice: the identical ones, and the others
            // (none left once the identical ones are all of them: a month's copy that changed nothing).
            var judged: Int64 = 0
            for alike in [true, false] where judged < keys {
                let arriving = ReferenceRowRule.Row(file: file, loadSeq: try loadSeq(of: file), line: 0, row: 1, content: alike ? 0 : 1)
                let outcomes = WhichRowsCount.sort([held, arriving], by: rule) { _, row in row }
                if outcomes.counted.first == arriving {
                    // The held rows are set aside (copied) before they are replaced.
                    let moved = try setAside("t", keysOf: holder, alike: alike)
                    superseded[holder, default: 0] += moved
                    judged += moved
                    guard moved > 0 else { continue }
                    let replaced = all.filter { !keyed.key.contains($0) }
                    try db.execute(sql: """
                        UPDATE OR FAIL main.\(table) AS t SET \(replaced.map { "\($0) = s.\($0)" }.joined(separator: ", "))
                        FROM temp.staged_\(table) AS s WHERE \(matches) AND t.file_id = ? AND \(alike ? "" : "NOT ")\(identical)
                        """, arguments: [holder])
                } else if outcomes.superseded.first == arriving {
                    let moved = try setAside("s", keysOf: holder, alike: alike)
                    superseded[file, default: 0] += moved
                    judged += moved
                } else {
                    preconditionFailure("rows of two files judged a repeat within one file")
                }
            }
        }
        // The staged rows of keys no file holds (a file staged whole) join the table: none when
        // every staged key is held (a month's copy that adds no key).
        if stagedRows > holders.map(\.keys).reduce(0, +) {
            try db.execute(sql: """
                INSERT OR FAIL INTO main.\(table) (\(all.joined(separator: ", ")))
                SELECT \(all.map { "s.\($0)" }.joined(separator: ", ")) FROM temp.staged_\(table) s
                WHERE NOT EXISTS (SELECT 1 FROM main.\(table) t WHERE \(matches)) ORDER BY \(order)
                """)
        }
        try db.execute(sql: "DELETE FROM temp.staged_\(table)")
        stagedRows = 0
    }

    private func loadSeq(of file: Int64) throws -> Int64 {
        if let seq = loadSeqs[file] { return seq }
        loadSeq.bind(1, file)
        guard let seq = try loadSeq.firstIntegers(1)?.first else { preconditionFailure("file \(file) is not an input file") }
        loadSeqs[file] = seq
        return seq
    }
}
