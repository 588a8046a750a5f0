import GRDB

/// What tally remembers of the reports it published, so that a rerun on the
/// same inputs can keep them (see `ReportReuse` in TallyPipeline).
enum PublicationSchema {
    /// v7: the published reports and the counters their digest reads.
    static func createTables(_ db: Database) throws {
        try db.execute(sql: """
            -- The last reports published into each out folder: the digest of what
            -- they depend on, of the files left there, and what run.json and the
            -- terminal summary said.
            CREATE TABLE report_publication (
                out_path TEXT PRIMARY KEY, key TEXT NOT NULL, files TEXT NOT NULL,
                manifest BLOB NOT NULL, rejects INTEGER NOT NULL, summary TEXT NOT NULL
            ) WITHOUT ROWID;
            -- Counters of writes that reports depend on beyond the inputs.
            CREATE TABLE warehouse_counter (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
            INSERT INTO warehouse_counter VALUES ('leaderboard_snapshot', 0);
            CREATE TRIGGER leaderboard_snapshot_inserted AFTER INSERT ON leaderboard_snapshot BEGIN
                UPDATE warehouse_counter SET value = value + 1 WHERE name = 'leaderboard_snapshot';
            END;
            CREATE TRIGGER leaderboard_snapshot_deleted AFTER DELETE ON leaderboard_snapshot BEGIN
                UPDATE warehouse_counter SET value = value + 1 WHERE name = 'leaderboard_snapshot';
            END;
            """)
    }

    /// v9: the snapshot counter moves once per stored board, from
    /// the snapshot store (then in `Warehouse+Leaderboards.swift`), instead of from a trigger per row.
    ///
    /// A statement that fires a trigger needs a statement journal in a
    /// transaction, and once that journal outgrows 64 KiB SQLite keeps it in
    /// a temporary file for the rest of the transaction, so every snapshot
    /// row copies pages there, on the report stage's writer thread. The digest only
    /// needs the counter to move whenever a snapshot is written.
    static func counterWithoutTriggers(_ db: Database) throws {
        try db.execute(sql: """
            DROP TRIGGER leaderboard_snapshot_inserted;
            DROP TRIGGER leaderboard_snapshot_deleted;
            """)
    }

    /// v17: the leaderboard snapshots and their counter are gone (see
    /// ``FitnessSchema/dropLeaderboardSnapshots(_:)``): no report read them,
    /// so the digest of what reports depend on no longer counts their writes.
    static func dropCounter(_ db: Database) throws {
        try db.execute(sql: "DROP TABLE warehouse_counter")
    }

    /// v23: every run that published reports, in order, with its headline
    /// figures, so the next run can say what moved and what was restated.
    static func createRunHistory(_ db: Database) throws {
        try db.execute(sql: """
            -- Every run that computed and published reports: its period, out
            -- folder and headline figures (run.json's figures, as JSON).
            CREATE TABLE run_history (
                seq INTEGER PRIMARY KEY, period TEXT NOT NULL, out_path TEXT NOT NULL, figures BLOB NOT NULL
            );
            """)
    }

    /// v24: each couple's closing balances as its statement of a month was
    /// published, so the next month's statement can say when its opening
    /// balances differ from what the couple was sent.
    static func createCoupleClosings(_ db: Database) throws {
        try db.execute(sql: """
            -- Per month, couple and member: the closing balance as published,
            -- and the highest load_seq of the input files at publication.
            CREATE TABLE couple_closing (
                month TEXT NOT NULL, couple_id TEXT NOT NULL, member_id TEXT NOT NULL,
                closing INTEGER NOT NULL, load_seq INTEGER NOT NULL,
                PRIMARY KEY (month, couple_id, member_id)
            ) WITHOUT ROWID;
            """)
    }
}
