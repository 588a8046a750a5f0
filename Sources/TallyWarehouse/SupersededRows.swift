import GRDB

/// The rows of an append-only log that lose to another row of the same key
/// (superseded versions), and how many each input file lost.
///
/// Found among the groups of rows whose key hashes collide
/// (``KeyHashes/collisions()``): only those rows are fetched and compared,
/// so the log is never sorted by key. Shared by the derivations that keep
/// one row per id (expenses, check-ins); their rules differ only in the
/// ranking columns.
struct SupersededRows {
    /// The losing rows' rowids.
    private(set) var rows: Set<Int64> = []
    /// How many rows each input file (by id) lost.
    private(set) var perFile: [Int64: Int] = [:]

    /// Compares the rows of each group in `candidates`. `sql` selects, for
    /// `WHERE rowid = ?`, the row's key (text), its file id, then one or
    /// more integer ranking columns: of the rows sharing a key, the one
    /// whose ranking columns are greatest (compared in order) wins, ties
    /// going to the lowest rowid.
    init(_ db: Database, candidates: [[Int64]], sql: String) throws {
        guard !candidates.isEmpty else { return }
        let fetch = try RawCursor(db, sql: sql)
        struct Version { var rowid: Int64; var file: Int64; var rank: [Int64] }
        for group in candidates {
            var byKey: [[UInt8]: [Version]] = [:]
            for rowid in group {
                try fetch.forEach(rowid) { c in
                    let rank = (2..<c.columnCount).map { c.int64($0) }
                    byKey[Array(c.bytes(0) ?? UnsafeRawBufferPointer(start: nil, count: 0)), default: []]
                        .append(Version(rowid: rowid, file: c.int64(1), rank: rank))
                }
            }
            for versions in byKey.values where versions.count > 1 {
                let winner = versions.max { a, b in
                    a.rank != b.rank ? a.rank.lexicographicallyPrecedes(b.rank) : a.rowid > b.rowid
                }!
                for v in versions where v.rowid != winner.rowid {
                    rows.insert(v.rowid)
                    perFile[v.file, default: 0] += 1
                }
            }
        }
    }

    /// Sets `input_file.rows_superseded` of the files of `table` (an
    /// `InputFile.tableName`) to their counts, 0 for files that lost none.
    func storeCounts(_ db: Database, table: String) throws {
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
