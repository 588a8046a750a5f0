import GRDB

/// A table listing the winning row of each key of an append-only log
/// (`expense_winner`, `checkin_winner`), kept up to date after an ingest.
///
/// From scratch, every row that did not lose is listed again, sorted once.
/// After an ingest that only appended rows (a ``DerivationMarks`` mark
/// says up to which rowid the table is true), only two sets of rows can
/// change it:
/// - the groups of rows whose key hashes collide (`candidates`, from
///   ``KeyHashes/collisions()``) that hold an appended row: every row of a
///   repeated key is in its key's group, so those groups' keys lose their
///   entries and get their winners listed again;
/// - the appended rows of no group: each is the only row of its key, so it
///   wins and is added.
/// A group of earlier rows only was judged the same way last time (a
/// version rule sees only the group's rows), and any other row is the only
/// one of its key now, so it was before: both are listed already. A
/// monthly ingest thus touches the month's rows and the keys they repeat,
/// not the history.
///
/// ```swift
/// try WinnerTable(table: "expense_winner", log: "expense_version",
///                 key: ("couple_id, id", from: "coalesce(couple_id, ''), id"), rest: ("version_row", from: "rowid"))
///     .refresh(db, superseded: superseded, candidates: groups, since: mark)
/// ```
struct WinnerTable {
    /// The winner table.
    var table: String
    /// The log.
    var log: String
    /// The table's key columns, and what a log row puts in them.
    var key: (columns: String, from: String)
    /// The table's other columns, and what a log row puts in them.
    var rest: (columns: String, from: String)

    private var columns: String { key.columns + ", " + rest.columns }
    private var selecting: String { key.from + ", " + rest.from }

    /// Makes the table list the winners of the log as it is: from scratch
    /// when `since` is nil, else (every row up to `since` unchanged, see
    /// ``DerivationMarks``) for the `candidates`' keys and the rows after
    /// `since`. `superseded` holds the losers among the candidates.
    func refresh(_ db: Database, superseded: SupersededRows, candidates: [[Int64]], since: Int64?) throws {
        let keyCount = key.columns.split(separator: ",").count
        let order = "ORDER BY " + (1...keyCount).map(String.init).joined(separator: ", ")
        guard let since else {
            try db.execute(sql: "DELETE FROM \(table)")
            try superseded.selectingWinners(db) { winning in
                try db.execute(sql: "INSERT INTO \(table) (\(columns)) SELECT \(selecting) FROM \(log) WHERE \(winning) \(order)")
            }
            return
        }
        try db.execute(sql: "CREATE TEMP TABLE winner_candidate (log_row INTEGER PRIMARY KEY)")
        let insert = try BulkStatement(db, sql: "INSERT OR IGNORE INTO temp.winner_candidate (log_row) VALUES (?)")
        for rowid in candidates.filter({ ($0.max() ?? 0) > since }).joined().sorted() {
            insert.bind(1, rowid)
            try insert.step()
        }
        let candidateRows = "rowid IN (SELECT log_row FROM temp.winner_candidate)"
        try db.execute(sql: """
            DELETE FROM \(table) WHERE (\(key.columns)) IN (SELECT \(key.from) FROM \(log) WHERE \(candidateRows))
            """)
        try superseded.selectingWinners(db) { winning in
            try db.execute(sql: """
                INSERT INTO \(table) (\(columns)) SELECT \(selecting) FROM \(log)
                WHERE \(candidateRows) AND \(winning) \(order)
                """)
        }
        try db.execute(sql: """
            INSERT INTO \(table) (\(columns)) SELECT \(selecting) FROM \(log)
            WHERE rowid > ? AND rowid NOT IN (SELECT log_row FROM temp.winner_candidate) \(order)
            """, arguments: [since])
        try db.execute(sql: "DROP TABLE temp.winner_candidate")
    }
}
