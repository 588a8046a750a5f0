import GRDB
import TallyCore

/// The `checkins/checkins` table as an append-only log, and the check-ins
/// derived from it at the end of each ingest that changed it.
///
/// Every row is appended to `checkin_row` as read, not upserted into a table
/// keyed by its random Firestore id: an upsert with secondary indexes
/// touches several B-trees at random per row. Which row of an id counts and
/// which check-in repeats another's workout are decided once after the load
/// (``winners``);
/// and the check-ins that count are listed in `checkin_winner`, clustered by
/// (challenge, createdAt, id), so leaderboards read them in one ordered scan.
enum CheckinLogSchema {
    /// v4: the check-in log and its winners, replacing v2's keyed `checkin`
    /// table (whose files load again).
    static func createLog(_ db: Database) throws {
        try db.execute(sql: """
            -- Check-ins loaded into v2's keyed table are unloaded with their files (and those
            -- files' rejects): the files are loaded again, into the log, on the next run.
            DROP TABLE checkin;
            DELETE FROM ingest_reject WHERE file_id IN (SELECT id FROM input_file WHERE table_name = 'checkins');
            DELETE FROM input_file WHERE table_name = 'checkins';

            -- Every valid check-in row as read, appended in file order. A repeated id
            -- within one file is rejected (and removed) right after that file's load.
            CREATE TABLE checkin_row (
                id TEXT NOT NULL, group_id TEXT NOT NULL, challenge_id TEXT NOT NULL, user_id TEXT NOT NULL,
                display_name TEXT NOT NULL, user_photo_url TEXT, photo_url TEXT, workout_entry_id TEXT,
                minutes INTEGER NOT NULL, created_at INTEGER NOT NULL,
                file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE, line INTEGER NOT NULL
            );
            -- Only ON DELETE CASCADE uses it, but without it removing any input file would
            -- scan the whole log; kept up to date it is an append (file ids only grow in a load).
            CREATE INDEX checkin_row_file ON checkin_row(file_id);
            -- Derived: the check-in of each id (its row of the latest-loaded file) by challenge,
            -- createdAt and id; `log_row` is its rowid in checkin_row, `duplicate_of` the id of
            -- the first check-in of its workout when that is another one.
            CREATE TABLE checkin_winner (
                challenge_id TEXT NOT NULL, created_at INTEGER NOT NULL, id TEXT NOT NULL,
                log_row INTEGER NOT NULL, duplicate_of TEXT,
                PRIMARY KEY (challenge_id, created_at, id)
            ) WITHOUT ROWID;
            """)
    }

    /// Rebuilds `checkin_winner` and the check-in files' superseded counts.
    ///
    /// - Of the rows sharing an id, the one ``TallyCore/CheckinVersionRule``
    ///   picks counts; the others are superseded.
    /// - Among the winners sharing a `workoutEntryId`,
    ///   ``TallyCore/DuplicateWorkoutRule`` names the original; each other
    ///   one is a duplicate of it.
    ///
    /// Both are found by hashing the keys and comparing only rows whose
    /// hashes collide (``KeyHashes``), so the log is sorted once, narrowly,
    /// by (challenge, createdAt, id). The hashes are kept (``KeyHashRuns``):
    /// after an ingest that only appended check-ins, only the new rows are
    /// read from the log; the ids they repeat are judged again and listed
    /// again (``WinnerTable``), and the workouts judged again are those of
    /// the appended rows and of every row of those ids (a row whose id lost
    /// or won leaves or joins its workout's winners). Every other verdict
    /// and duplicate mark stands as the derivation before left it.
    static let winners = Derivation(.checkinWinners, inputs: ["checkins"]) { db in
        let since = try DerivationMarks.lastRow(db, .checkinWinners)
        let candidates: [[Int64]], workouts: [[Int64]]
        if let since {
            candidates = try KeyHashRuns.checkinIds.collisions(db, since: since)
            let rejudged = Set(candidates.joined().filter { $0 <= since })
            workouts = try KeyHashRuns.checkinWorkouts.collisions(db, since: since, also: rejudged)
        } else {
            let groups = try KeyHashRuns.allCollisions([KeyHashRuns.checkinIds, KeyHashRuns.checkinWorkouts], db, since: nil)
            (candidates, workouts) = (groups[0], groups[1])
        }
        let superseded = try SupersededRows(db, candidates: candidates, since: since, sql: """
            SELECT r.id, r.file_id, f.load_seq, r.line FROM checkin_row r JOIN input_file f ON f.id = r.file_id
            WHERE r.rowid = ?
            """, rule: CheckinVersionRule(key: "id"),
            read: { c, rowid in CheckinVersionRule.Row(file: c.int64(1), loadSeq: c.int64(2), line: c.int64(3), row: rowid) })

        let refresh = try KeyStates.beginRefresh(db, scope: changeScope)
        let markedBefore = since == nil ? [] : try duplicateMarks(db, rows: workouts.joined())
        try winnerTable.refresh(db, superseded: superseded, candidates: candidates, since: since)
        // The duplicates among the workouts judged: a full derivation knows every loser, an
        // append-only one reads the winners just stored.
        let duplicates = try repeatedWorkouts(db, candidates: workouts, losers: since == nil ? superseded.rows : nil)
        if since == nil {
            try db.execute(sql: "UPDATE checkin_winner SET duplicate_of = NULL WHERE duplicate_of IS NOT NULL")
        } else {
            // The marks of the workouts judged again, and only theirs, are set again below.
            let unmark = try BulkStatement(db, sql: """
                UPDATE checkin_winner SET duplicate_of = NULL
                WHERE (challenge_id, created_at, id) = (SELECT challenge_id, created_at, id FROM checkin_row WHERE rowid = ?1)
                  AND log_row = ?1 AND duplicate_of IS NOT NULL
                """)
            for rowid in workouts.joined() {
                unmark.bind(1, rowid)
                try unmark.step()
            }
        }
        let mark = try BulkStatement(db, sql: """
            UPDATE checkin_winner SET duplicate_of = ? WHERE challenge_id = ? AND created_at = ? AND id = ?
            """)
        for d in duplicates {
            mark.bind(1, d.first); mark.bind(2, d.challengeId); mark.bind(3, d.createdAt); mark.bind(4, d.id)
            try mark.step()
        }
        if let since {
            // The challenges whose check-ins the refresh listed again (the appended rows', and every
            // row of an id they repeat) or whose duplicate marks moved.
            try KeyStates.changed(db, scope: changeScope, seq: refresh,
                                  select: "SELECT challenge_id FROM checkin_row WHERE rowid > ?", arguments: [since])
            let relisted = candidates.filter { ($0.max() ?? 0) > since }.joined()
            let challengeOf = try db.makeStatement(sql: "SELECT challenge_id FROM checkin_row WHERE rowid = ?")
            var changed = Set<String>()
            for row in relisted {
                if let challenge = try String.fetchOne(challengeOf, arguments: [row]) { changed.insert(challenge) }
            }
            let markedAfter = Set(duplicates.map { DuplicateMark(challengeId: $0.challengeId, id: $0.id, first: $0.first) })
            for moved in markedBefore.symmetricDifference(markedAfter) { changed.insert(moved.challengeId) }
            try KeyStates.changed(db, scope: changeScope, seq: refresh, keys: changed)
        } else {
            try KeyStates.changedAll(db, scope: changeScope, seq: refresh)
        }
        try DerivationMarks.record(db, .checkinWinners, log: "checkin_row")
        try superseded.storeCounts(db, table: "checkins")
    }

    /// The scope of `checkin_winner`'s keys in ``KeyStates``: its rows by challenge.
    static let changeScope = "checkins"

    /// A duplicate mark of `checkin_winner`.
    private struct DuplicateMark: Hashable {
        var challengeId: String
        var id: String
        var first: String
    }

    /// The duplicate marks `checkin_winner` holds on the winning rows among `rows`.
    private static func duplicateMarks(_ db: Database, rows: some Sequence<Int64>) throws -> Set<DuplicateMark> {
        var marks = Set<DuplicateMark>()
        let mark = try RawCursor(db, sql: """
            SELECT w.challenge_id, w.id, w.duplicate_of FROM checkin_row r
            JOIN checkin_winner w ON w.challenge_id = r.challenge_id AND w.created_at = r.created_at AND w.id = r.id
            WHERE r.rowid = ?1 AND w.log_row = ?1 AND w.duplicate_of IS NOT NULL
            """)
        for rowid in rows {
            try mark.forEach(rowid) { c in
                marks.insert(DuplicateMark(challengeId: c.textValue(0), id: c.textValue(1), first: c.textValue(2)))
            }
        }
        return marks
    }

    /// `checkin_winner` as a ``WinnerTable`` of the log (duplicates are marked apart).
    private static let winnerTable = WinnerTable(table: "checkin_winner", log: "checkin_row",
                                                 key: ("challenge_id, created_at, id", from: "challenge_id, created_at, id"),
                                                 rest: ("log_row", from: "rowid"))

    /// A check-in whose workout an earlier check-in holds: its key in `checkin_winner` and the first one's id.
    private struct Duplicate {
        var challengeId: String
        var createdAt: Int64
        var id: String
        var first: String
    }

    /// Among `candidates` (groups of rows whose workout ids' hashes collide),
    /// the winning rows that ``TallyCore/DuplicateWorkoutRule`` finds
    /// repeating another winning row's workout. The winners are the rows
    /// not in `losers` when it is given (every loser of the log), else
    /// those `checkin_winner` lists.
    private static func repeatedWorkouts(_ db: Database, candidates: [[Int64]], losers: Set<Int64>?) throws -> [Duplicate] {
        guard !candidates.isEmpty else { return [] }
        let fetch = try RawCursor(db, sql: """
            SELECT r.workout_entry_id, r.created_at, f.display_path, r.line, r.id, r.challenge_id
            FROM checkin_row r JOIN input_file f ON f.id = r.file_id
            """ + (losers != nil ? " WHERE r.rowid = ?1" : """
             JOIN checkin_winner w ON w.challenge_id = r.challenge_id AND w.created_at = r.created_at AND w.id = r.id
            WHERE r.rowid = ?1 AND w.log_row = ?1
            """))
        struct Row { var workout: [UInt8]; var checkin: DuplicateWorkoutRule.Checkin; var challengeId: String }
        var duplicates: [Duplicate] = []
        for group in candidates {
            var rows: [Row] = []
            for rowid in group where losers?.contains(rowid) != true {
                try fetch.forEach(rowid) { c in
                    guard let workout = c.bytes(0) else { return }
                    let empty = UnsafeRawBufferPointer(start: nil, count: 0)
                    rows.append(Row(
                        workout: Array(workout),
                        checkin: DuplicateWorkoutRule.Checkin(
                            createdAt: Timestamp(microseconds: c.int64(1)), path: Array(c.bytes(2) ?? empty),
                            line: c.int64(3), id: Array(c.bytes(4) ?? empty)),
                        challengeId: c.string(5) ?? ""))
                }
            }
            for workout in KeyGroups.split(rows, key: \.workout) where workout.count > 1 {
                for (r, original) in WhichRowsCount.duplicates(workout, describe: \.checkin) {
                    guard let original else { continue }
                    duplicates.append(Duplicate(challengeId: r.challengeId, createdAt: r.checkin.createdAt.microseconds,
                                                id: String(decoding: r.checkin.id, as: UTF8.self),
                                                first: String(decoding: original.checkin.id, as: UTF8.self)))
                }
            }
        }
        return duplicates
    }
}
