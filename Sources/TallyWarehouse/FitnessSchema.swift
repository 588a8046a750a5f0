import GRDB

/// The tables of the `checkins/` (FitToday) and `health/` (FypMatch) datasets,
/// and (until v17) the leaderboard snapshots.
enum FitnessSchema {
    /// v2: the check-ins' and health datasets' tables and the leaderboard
    /// snapshots (v4 replaces `checkin` with a log, v12 `activity_day` with a
    /// view, v16 its ranking with ``ActivityDayRule``'s verdicts).
    static func createTables(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE challenge (
                id TEXT PRIMARY KEY, group_id TEXT NOT NULL, name TEXT NOT NULL,
                start_date TEXT NOT NULL, end_date TEXT NOT NULL,
                file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE, line INTEGER NOT NULL
            ) WITHOUT ROWID;
            -- One row per membership span; a user may leave and join again.
            CREATE TABLE group_member (
                group_id TEXT NOT NULL, user_id TEXT NOT NULL, joined_at INTEGER NOT NULL, left_at INTEGER,
                file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE, line INTEGER NOT NULL,
                PRIMARY KEY (group_id, user_id, joined_at)
            ) WITHOUT ROWID;
            CREATE TABLE checkin (
                id TEXT PRIMARY KEY, group_id TEXT NOT NULL, challenge_id TEXT NOT NULL, user_id TEXT NOT NULL,
                display_name TEXT NOT NULL, user_photo_url TEXT, photo_url TEXT, workout_entry_id TEXT,
                minutes INTEGER NOT NULL, created_at INTEGER NOT NULL,
                file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE, line INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX checkin_challenge ON checkin(challenge_id, created_at);
            CREATE INDEX checkin_workout ON checkin(workout_entry_id, created_at);

            -- Every valid row of health/activity, as read; the winner per user and day is in activity_day.
            CREATE TABLE activity_row (
                user_id TEXT NOT NULL, date TEXT NOT NULL, steps REAL NOT NULL, active_calories REAL NOT NULL,
                walking_km REAL NOT NULL,
                file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE, line INTEGER NOT NULL
            );
            CREATE INDEX activity_row_file ON activity_row(file_id);
            -- Daily values derived from an Apple Health export (one per user and day), and the time
            -- zone whose local days they are (a run in another zone reloads the export).
            CREATE TABLE health_export_day (
                user_id TEXT NOT NULL, date TEXT NOT NULL, steps REAL NOT NULL, active_calories REAL NOT NULL,
                walking_km REAL NOT NULL, timezone TEXT NOT NULL,
                file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE,
                PRIMARY KEY (user_id, date, file_id)
            );
            -- The winning row per user and day: an export's day, else the last valid table row.
            CREATE TABLE activity_day (
                user_id TEXT NOT NULL, date TEXT NOT NULL, steps REAL NOT NULL, active_calories REAL NOT NULL,
                walking_km REAL NOT NULL, file_id INTEGER NOT NULL, line INTEGER NOT NULL,
                PRIMARY KEY (user_id, date)
            ) WITHOUT ROWID;

            -- Leaderboard snapshots written by reports: history of every challenge's board.
            CREATE TABLE leaderboard_snapshot (
                challenge_id TEXT NOT NULL, as_of TEXT NOT NULL, user_id TEXT NOT NULL,
                rank INTEGER NOT NULL, display_name TEXT NOT NULL, checkins INTEGER NOT NULL,
                minutes INTEGER NOT NULL, rank_change INTEGER, current_streak INTEGER NOT NULL,
                best_streak INTEGER NOT NULL,
                PRIMARY KEY (challenge_id, as_of, user_id)
            ) WITHOUT ROWID;
            """)
    }

    /// v12: the winning activity of each user and day as a view ranking
    /// the rows in SQL (`from_export << 62 | load_seq << 40 | line`, the
    /// row with each group's `max()`), replacing the table rebuilt by every
    /// ingest. v16 replaces the ranking with ``ActivityDayRule``'s verdicts.
    static func activityView(_ db: Database) throws {
        try db.execute(sql: """
            DROP TABLE activity_day;
            CREATE VIEW activity_day AS
            SELECT user_id, date, steps, active_calories, walking_km, file_id, line FROM (
                SELECT user_id, date, steps, active_calories, walking_km, file_id, line, max(rank_key) FROM (
                    SELECT r.user_id, r.date, r.steps, r.active_calories, r.walking_km, r.file_id, r.line,
                           (f.load_seq << 40) | r.line AS rank_key
                    FROM activity_row r JOIN input_file f ON f.id = r.file_id
                    UNION ALL
                    SELECT h.user_id, h.date, h.steps, h.active_calories, h.walking_km, h.file_id, 0,
                           (1 << 62) | (f.load_seq << 40)
                    FROM health_export_day h JOIN input_file f ON f.id = h.file_id
                ) GROUP BY user_id, date
            );
            """)
    }

    /// v16: the verdicts of ``ActivityDayRule`` as a table, and
    /// `activity_day` as the rows that did not lose. The ranking leaves SQL:
    /// ``activityRepeats`` groups the rows and asks the rule which lose.
    ///
    /// Apple Health exports are stored as their records (`health_record`,
    /// instants in UTC), and `health_export_day` becomes derived from them in
    /// the report time zone (`export_day_zone`), so a run in another zone
    /// needs no reload. The exports loaded before load again on the next run
    /// (their days had no records behind them). Registered with foreign keys
    /// on, so that deleting those files cascades to their days and rejects.
    static func activityVerdictsAndHealthRecords(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM input_file WHERE table_name = 'appleHealthExport';
            -- Every record of an Apple Health export tally reads, in the export's order (rowid):
            -- its start instant (UTC microseconds), quantity (1 steps, 2 active energy,
            -- 3 walking distance), source and value in tally's unit. Independent of any time zone.
            CREATE TABLE health_record (
                file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
                user_id TEXT NOT NULL, start_us INTEGER NOT NULL, quantity INTEGER NOT NULL,
                source TEXT NOT NULL, value REAL NOT NULL
            );
            CREATE INDEX health_record_file ON health_record(file_id);
            -- The time zone the derived export days are local days of: the last run's report zone.
            CREATE TABLE export_day_zone (timezone TEXT NOT NULL);
            -- The activity rows and export days that lose to another row of their user and day
            -- (ActivityDayRule): from_export 0 names an activity_row rowid, 1 a health_export_day rowid.
            CREATE TABLE activity_superseded (
                from_export INTEGER NOT NULL, source_row INTEGER NOT NULL,
                PRIMARY KEY (from_export, source_row)
            ) WITHOUT ROWID;
            DROP VIEW activity_day;
            CREATE VIEW activity_day AS
            SELECT r.user_id, r.date, r.steps, r.active_calories, r.walking_km, r.file_id, r.line FROM activity_row r
            WHERE NOT EXISTS (SELECT 1 FROM activity_superseded s WHERE s.from_export = 0 AND s.source_row = r.rowid)
            UNION ALL
            SELECT h.user_id, h.date, h.steps, h.active_calories, h.walking_km, h.file_id, 0 FROM health_export_day h
            WHERE NOT EXISTS (SELECT 1 FROM activity_superseded s WHERE s.from_export = 1 AND s.source_row = h.rowid);
            -- The next rebuild judges the rows already loaded.
            INSERT OR IGNORE INTO derivation_pending (name)
            SELECT 'activity repeats' WHERE EXISTS (SELECT 1 FROM activity_row) OR EXISTS (SELECT 1 FROM health_export_day);
            """)
    }

    /// The rows of `activity_row` (`from_export` 0) and `health_export_day`
    /// (`from_export` 1) that count, with their columns: the rows without a verdict
    /// in `activity_superseded`. With `datesBetween`, only the days from
    /// `:first` to `:last`.
    static func countedActivity(datesBetween: Bool) -> String {
        func filter(_ table: String) -> String { datesBetween ? "\(table).date BETWEEN :first AND :last AND" : "" }
        return """
            SELECT r.user_id, r.date, r.steps, r.active_calories, r.walking_km FROM activity_row r
            WHERE \(filter("r")) NOT EXISTS (SELECT 1 FROM activity_superseded s WHERE s.from_export = 0 AND s.source_row = r.rowid)
            UNION ALL
            SELECT h.user_id, h.date, h.steps, h.active_calories, h.walking_km FROM health_export_day h
            WHERE \(filter("h")) NOT EXISTS (SELECT 1 FROM activity_superseded s WHERE s.from_export = 1 AND s.source_row = h.rowid)
            """
    }

    /// Brings the export days to the report zone (``ExportDays``), then
    /// fills `activity_superseded` with ``ActivityDayRule``'s verdicts and
    /// counts, per activity file, its rows that lost. Only rows whose (user,
    /// day) hash collides with another row's can lose (``KeyHashes``): those
    /// few are grouped by the bytes of their user id and date and each group
    /// of two or more goes to the rule.
    static let activityRepeats = Derivation(.activityRepeats, inputs: ["activity", "appleHealthExport"]) { db in
        try ExportDays.refresh(db)
        let verdicts = try ActivityGroups.superseded(db)
        try db.execute(sql: "DELETE FROM activity_superseded")
        let insert = try BulkStatement(db, sql: "INSERT INTO activity_superseded (from_export, source_row) VALUES (?, ?)")
        var perFile: [Int64: Int] = [:]
        for loser in verdicts {
            insert.bind(1, Int64(loser.fromExport ? 1 : 0))
            insert.bind(2, loser.rowid)
            try insert.step()
            if !loser.fromExport { perFile[loser.file, default: 0] += 1 }
        }
        try db.execute(sql: "UPDATE input_file SET rows_superseded = 0 WHERE table_name = 'activity'")
        for (file, count) in perFile {
            try db.execute(sql: "UPDATE input_file SET rows_superseded = ? WHERE id = ?", arguments: [count, file])
        }
    }

    /// v17: the leaderboard snapshots are no longer kept. The leaderboards
    /// stage wrote every board into `leaderboard_snapshot` and nothing read
    /// them back (a board's rank change is recomputed from the check-ins):
    /// the table only grew, and a board of any day is rebuilt with `--as-of`.
    static func dropLeaderboardSnapshots(_ db: Database) throws {
        try db.execute(sql: "DROP TABLE leaderboard_snapshot")
    }
}
