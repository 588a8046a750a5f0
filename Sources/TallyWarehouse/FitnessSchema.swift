import GRDB

/// The tables of the `checkins/` (FitToday) and `health/` (FypMatch) datasets,
/// and the leaderboard snapshots tally stores.
enum FitnessSchema {
    /// v2: the check-ins' and health datasets' tables and the leaderboard
    /// snapshots (v4 replaces `checkin` with a log, v12 `activity_day` with a view).
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

    /// The winning activity of each user and day, as a view: an export's day,
    /// else the last valid table row. Rows are ordered by one integer,
    /// `from_export << 62 | load_seq << 40 | line` (exact while
    /// load_seq < 2^22 and line < 2^40; (user, day, load, line) is unique,
    /// so no two rows tie), and each (user, day) keeps the row holding its
    /// `max()` (SQLite takes a group's bare columns from the row with the max).
    ///
    /// A view, not a table rebuilt by every ingest that touches the
    /// activity (a rebuild of every row on the ingest's one writer, for a
    /// report that reads one month): the report reads one month of days
    /// (``WarehouseReader/forEachActivityUser(in:_:)``, the same order with
    /// the dates filtered before grouping), and the ingest only counts the
    /// rows that lost (``activityRepeats``).
    static func activityView(_ db: Database) throws {
        try db.execute(sql: """
            DROP TABLE activity_day;
            CREATE VIEW activity_day AS
            SELECT user_id, date, steps, active_calories, walking_km, file_id, line FROM (
                SELECT user_id, date, steps, active_calories, walking_km, file_id, line, max(rank_key) FROM (
                    \(rankedActivity(datesBetween: false))
                ) GROUP BY user_id, date
            );
            """)
    }

    /// Every activity row and export day with its rank key; with
    /// `datesBetween`, only the days from `:first` to `:last` (both arms
    /// filtered before any grouping).
    static func rankedActivity(datesBetween: Bool) -> String {
        func filter(_ table: String) -> String { datesBetween ? "WHERE \(table).date BETWEEN :first AND :last" : "" }
        return """
            SELECT r.user_id, r.date, r.steps, r.active_calories, r.walking_km, r.file_id, r.line,
                   (f.load_seq << 40) | r.line AS rank_key
            FROM activity_row r JOIN input_file f ON f.id = r.file_id \(filter("r"))
            UNION ALL
            SELECT h.user_id, h.date, h.steps, h.active_calories, h.walking_km, h.file_id, 0,
                   (1 << 62) | (f.load_seq << 40)
            FROM health_export_day h JOIN input_file f ON f.id = h.file_id \(filter("h"))
            """
    }

    /// Per activity file, the rows that lose to another row of their user
    /// and day (superseded; the winners are the `activity_day` view). Only
    /// rows whose (user, day) hash collides with another row's can lose
    /// (``KeyHashes``): those few are compared exactly, so counting costs a
    /// fraction of rebuilding the winners.
    static let activityRepeats = Derivation(.activityRepeats, inputs: ["activity", "appleHealthExport"]) { db in
        var keys = KeyHashes()
        var key: [UInt8] = []
        func add(_ c: RawCursor, rowid: Int64) {
            key.removeAll(keepingCapacity: true)
            key.append(contentsOf: c.bytes(1) ?? UnsafeRawBufferPointer(start: nil, count: 0))
            key.append(0)
            key.append(contentsOf: c.bytes(2) ?? UnsafeRawBufferPointer(start: nil, count: 0))
            key.withUnsafeBytes { keys.add(bytes: $0, rowid: rowid) }
        }
        // Export days go in as negative rowids (their own table).
        try RawCursor(db, sql: "SELECT rowid, user_id, date FROM activity_row").forEach { add($0, rowid: $0.int64(0)) }
        try RawCursor(db, sql: "SELECT rowid, user_id, date FROM health_export_day").forEach { add($0, rowid: -$0.int64(0)) }

        let row = try RawCursor(db, sql: """
            SELECT r.user_id, r.date, (f.load_seq << 40) | r.line, r.file_id
            FROM activity_row r JOIN input_file f ON f.id = r.file_id WHERE r.rowid = ?
            """)
        let exportDay = try RawCursor(db, sql: """
            SELECT h.user_id, h.date, (1 << 62) | (f.load_seq << 40), NULL
            FROM health_export_day h JOIN input_file f ON f.id = h.file_id WHERE h.rowid = ?
            """)
        var perFile: [Int64: Int] = [:]
        for group in keys.collisions() {
            var byKey: [String: [(rank: Int64, file: Int64?)]] = [:]
            for rowid in group {
                try (rowid < 0 ? exportDay : row).forEach(abs(rowid)) { c in
                    byKey[(c.string(0) ?? "") + "\u{0}" + (c.string(1) ?? ""), default: []]
                        .append((c.int64(2), rowid < 0 ? nil : c.int64(3)))
                }
            }
            for rows in byKey.values where rows.count > 1 {
                let best = rows.map(\.rank).max()!
                for r in rows where r.rank != best { if let file = r.file { perFile[file, default: 0] += 1 } }
            }
        }
        try db.execute(sql: "UPDATE input_file SET rows_superseded = 0 WHERE table_name = 'activity'")
        for (file, count) in perFile {
            try db.execute(sql: "UPDATE input_file SET rows_superseded = ? WHERE id = ?", arguments: [count, file])
        }
    }
}
