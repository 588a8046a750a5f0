import GRDB

/// How far a derived table has read its append-only log: the log's last
/// rowid when the table was last derived, kept so that the next derivation
/// after an ingest that only appended rows touches only what they change
/// (``WinnerTable``).
///
/// The contract: a mark `(table, lastRow)` says that every log row up to
/// `lastRow` is still there, unchanged, as the derivation saw it, and that
/// every later row is new. Appends keep that true (SQLite gives an appended
/// row a rowid above every other). Removing rows does not (a removed row's
/// verdicts change, and SQLite may hand its rowid out again), so whatever
/// removes a loaded file forgets every mark (``forgetAll(_:)``): the next
/// derivation of each table starts from scratch. A migration that rebuilds
/// a log, or removes input files, forgets them too.
///
/// ```swift
/// let since = try DerivationMarks.lastRow(db, .checkinWinners)   // nil: derive from scratch
/// …
/// try DerivationMarks.record(db, .checkinWinners, log: "checkin_row")
/// ```
enum DerivationMarks {
    /// v18: the marks, none at first (every table's next derivation is a full one).
    static func createTable(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE derivation_mark (name TEXT PRIMARY KEY, last_row INTEGER NOT NULL) WITHOUT ROWID
            """)
    }

    /// The last log rowid `table` reflects, or nil when it must be derived from scratch.
    static func lastRow(_ db: Database, _ table: DerivedTable) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT last_row FROM derivation_mark WHERE name = ?", arguments: [table.rawValue])
    }

    /// Records that `table` now reflects every row of `log`; called in the
    /// transaction that derives it.
    static func record(_ db: Database, _ table: DerivedTable, log: String) throws {
        try db.execute(sql: """
            INSERT OR REPLACE INTO derivation_mark (name, last_row) SELECT ?, coalesce(max(rowid), 0) FROM \(log)
            """, arguments: [table.rawValue])
    }

    /// Forgets every mark, and the key hashes kept with them (``KeyHashRuns``): log rows were removed.
    static func forgetAll(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM derivation_mark")
        try KeyHashRuns.forgetAll(db)
    }
}
