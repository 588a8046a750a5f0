import GRDB

import TallyCore

/// The rows of an append-only log that lose to another row of the same key
/// (superseded versions), and how many each input file lost.
///
/// Found among the groups of rows whose key hashes collide
/// (``KeyHashes/collisions()``): only those rows are fetched, split by key
/// (bytes), and each key's rows are judged by the table's version rule
/// (``TallyCore/WhichRowsCount``), so the log is never sorted by key. Shared by the
/// derivations that keep one row per id (expenses, check-ins).
///
/// After an ingest that only appended rows (`since`, the log's last rowid
/// at the previous derivation), the groups given are those an appended row
/// joined (``KeyHashRuns/collisions(_:since:perPass:)``): each key's rows are judged
/// twice, all of them and those up to `since` (the verdicts the previous
/// derivation stored), and the files' counts move by the difference. A
/// group with no appended row is left as it was judged.
struct SupersededRows {
    /// The losing rowids (of the groups judged).
    private(set) var rows: Set<Int64> = []
    /// How many rows each input file (by id) lost; after an append-only
    /// ingest, how many more (or fewer) than before it.
    private(set) var perFile: [Int64: Int] = [:]
    /// The log's last rowid at the previous derivation, when only rows after it are new.
    let since: Int64?

    /// Judges the rows of each group in `candidates`. `sql` selects, for
    /// `WHERE rowid = ?`, the row's key (text), its file id, then what
    /// `read` turns into `rule`'s description of the row (given the
    /// cursor and the rowid). A rule used here supersedes and never rejects.
    init<Rule: RowRule>(_ db: Database, candidates: [[Int64]], since: Int64? = nil, sql: String, rule: Rule,
                        read: (RawCursor, _ rowid: Int64) -> Rule.Row) throws {
        self.since = since
        guard !candidates.isEmpty else { return }
        let fetch = try RawCursor(db, sql: sql)
        for group in candidates {
            var fetched: [(key: [UInt8], rowid: Int64, file: Int64, version: Rule.Row)] = []
            for rowid in group {
                try fetch.forEach(rowid) { c in
                    fetched.append((key: Array(c.bytes(0) ?? UnsafeRawBufferPointer(start: nil, count: 0)),
                                    rowid: rowid, file: c.int64(1), version: read(c, rowid)))
                }
            }
            for versions in KeyGroups.split(fetched, key: { $0.key }) where versions.count > 1 {
                let outcomes = WhichRowsCount.sort(versions, by: rule) { _, v in v.version }
                precondition(outcomes.rejected.isEmpty, "a version rule that rejects rows needs its rejects stored")
                for v in outcomes.superseded {
                    rows.insert(v.rowid)
                    perFile[v.file, default: 0] += 1
                }
                // What the previous derivation counted of this key: its rows up to `since`, judged alone.
                guard let since else { continue }
                let before = versions.filter { $0.rowid <= since }
                guard before.count > 1 else { continue }
                let earlier = WhichRowsCount.sort(before, by: rule) { _, v in v.version }
                for v in earlier.superseded { perFile[v.file, default: 0] -= 1 }
            }
        }
    }

    /// Sets `input_file.rows_superseded` of the files of `table` (an
    /// `InputFile.tableName`) to their counts, 0 for files that lost none;
    /// after an append-only ingest, moves each file's count by its change.
    func storeCounts(_ db: Database, table: String) throws {
        guard since == nil else {
            let update = try BulkStatement(db, sql: "UPDATE input_file SET rows_superseded = rows_superseded + ? WHERE id = ?")
            for (file, change) in perFile where change != 0 {
                update.bind(1, change); update.bind(2, file)
                try update.step()
            }
            return
        }
        try db.execute(sql: "UPDATE input_file SET rows_superseded = 0 WHERE table_name = ?", arguments: [table])
        let update = try BulkStatement(db, sql: "UPDATE input_file SET rows_superseded = ? WHERE id = ?")
        for (file, count) in perFile {
            update.bind(1, count); update.bind(2, file)
            try update.step()
        }
    }

    /// Runs `body` with an SQL condition on a log row's `rowid` that holds
    /// for the winning rows only. The losing rowids are listed in a
    /// temporary table meanwhile (none when nothing lost).
    func selectingWinners(_ db: Database, _ body: (_ condition: String) throws -> Void) throws {
        guard !rows.isEmpty else { return try body("1") }
        try db.execute(sql: "CREATE TEMP TABLE superseded_row (log_row INTEGER PRIMARY KEY)")
        let insert = try BulkStatement(db, sql: "INSERT INTO temp.superseded_row (log_row) VALUES (?)")
        for rowid in rows.sorted() {
            insert.bind(1, rowid)
            try insert.step()
        }
        try body("rowid NOT IN (SELECT log_row FROM temp.superseded_row)")
        try db.execute(sql: "DROP TABLE temp.superseded_row")
    }
}
