import GRDB
import TallyCore
import TallyIngest

/// Subscription events (of `subscriptions/events` and of App Store Connect
/// Subscriber reports) as an append-only log, and the per-id winners derived
/// from it after each load.
///
/// Rows are appended as read, not upserted into a table keyed by their
/// random text id (every row would touch B-trees at random), and which row
/// of a repeated id counts is decided once, at the end of the ingest
/// (``events``), by ``TallyCore/SubscriptionEventVersionRule``.
enum SubscriptionLogSchema {
    /// The input tables (`InputFile.tableName`) whose rows are subscription events.
    static let inputs: Set<String> = [TableID.events.rawValue, "appStoreConnectReport"]

    /// v6: the event log, replacing v3's keyed `subscription_event` table
    /// (whose files load again). Registered with foreign keys on, so that
    /// deleting those files cascades to their other rows (rejects, counts).
    static func createLog(_ db: Database) throws {
        try db.execute(sql: """
            DROP TABLE subscription_event;
            -- The files whose rows lived in the dropped table load again on the next
            -- run. Subscription Event reports share the table name with Subscriber
            -- reports; they reload too (they are small).
            DELETE FROM input_file WHERE table_name IN ('events', 'appStoreConnectReport');
            -- Every event row as read: appended, never updated.
            CREATE TABLE subscription_event_row (
                id TEXT NOT NULL, app TEXT NOT NULL, user_id TEXT NOT NULL, event TEXT NOT NULL,
                product_id TEXT, context TEXT, at INTEGER NOT NULL,
                file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE, line INTEGER NOT NULL
            );
            -- No index on file_id: keeping one up to date costs a third of the load's CPU;
            -- without it, deleting an input_file row scans this log (rare, and short).
            -- Derived: one row per event id (the first row within a file; a later-loaded
            -- file's row replaces it), clustered in the order the KPIs read events: per
            -- app and user, by time, then load order and line.
            CREATE TABLE subscription_event (
                app TEXT NOT NULL, user_id TEXT NOT NULL, at INTEGER NOT NULL,
                load_seq INTEGER NOT NULL, line INTEGER NOT NULL,
                event TEXT NOT NULL, product_id TEXT, context TEXT, id TEXT NOT NULL, file_id INTEGER NOT NULL,
                PRIMARY KEY (app, user_id, at, load_seq, line)
            ) WITHOUT ROWID;
            """)
    }

    /// v8, registered after v7 (``Migrations``) with foreign keys on: the
    /// counted events become a view over the log instead of a sorted copy
    /// of it.
    ///
    /// Copying the winners into a table clustered by app, user and time
    /// would take seconds of the ingest's single SQLite writer, the
    /// ingest's bottleneck. The KPI stage sorts the log as it reads it, on
    /// its own connection beside the statements and leaderboards, where the
    /// time is free. The rows that lose to a
    /// later-loaded file's row of the same id are kept in
    /// `subscription_event_superseded`, as swipes keep theirs; which rows
    /// those are is the rule's (``events``), so the event files load again
    /// (as v6 reloads them) rather than the migration deciding in SQL.
    static func logView(_ db: Database) throws {
        try db.execute(sql: """
            DROP TABLE subscription_event;
            DELETE FROM input_file WHERE table_name IN ('events', 'appStoreConnectReport');
            -- Derived: the log rows that do not count (another row of their id, in a
            -- later-loaded file, wins). Repeats within one file are rejects, gone from the log.
            CREATE TABLE subscription_event_superseded (row INTEGER PRIMARY KEY);
            -- The counted events, one per id, as the KPIs read them.
            CREATE VIEW subscription_event AS
            SELECT r.app, r.user_id, r.at, f.load_seq, r.line, r.event, r.product_id, r.context, r.id, r.file_id
            FROM subscription_event_row r JOIN input_file f ON f.id = r.file_id
            WHERE r.rowid NOT IN (SELECT row FROM subscription_event_superseded);
            """)
    }

    /// The events, one per id, as ``TallyCore/SubscriptionEventVersionRule``
    /// decides: a repeat within one file is a reject (stored with its file,
    /// line and id as the loader stored it, and counted in the file's
    /// `rows_rejected`, then dropped from the log); a row that loses to
    /// another file's goes to `subscription_event_superseded` (the view
    /// `subscription_event` shows the rest) and is counted in its file's
    /// `rows_superseded`.
    ///
    /// Repeated ids (usually none) are found by hashing the ids in a scan
    /// of the log (``KeyHashes``, in passes over parts of the hashes when
    /// the log is large, so memory stays bounded); only the rows whose
    /// hashes collide are then read by id, one id's rows at a time, and
    /// handed to the rule. SQLite never sorts the ids themselves. After an
    /// ingest that only appended rows, only the appended rows' ids are
    /// judged again; every other row keeps its verdict.
    ///
    /// Each refresh records the subscribers whose counted events it changed
    /// (``KeyStates``, scope ``changeScope``): after an ingest that only
    /// appended rows, those of the appended rows and of the rows whose
    /// verdict moved; after any other, every subscriber.
    static let events = Derivation(.subscriptionEvents, inputs: inputs) { db in
        let since = try DerivationMarks.lastRow(db, .subscriptionEvents)
        let refresh = try KeyStates.beginRefresh(db, scope: changeScope)
        var supersededBefore = Set<Int64>()
        if let since {
            // Before the repeats within a file are dropped: their subscribers changed too.
            try KeyStates.changed(db, scope: changeScope, seq: refresh,
                                  select: "SELECT \(subscriberKeySQL) FROM subscription_event_row WHERE rowid > ?", arguments: [since])
            supersededBefore = Set(try Int64.fetchAll(db, sql: "SELECT row FROM subscription_event_superseded"))
        } else {
            try KeyStates.changedAll(db, scope: changeScope, seq: refresh)
        }
        try listRepeatCandidates(db, appendedAfter: since)
        defer { try? db.execute(sql: "DROP TABLE temp.event_candidate") }
        // After an append-only ingest, the candidates are every row of the appended rows' ids: the others keep their verdicts.
        let judgedAgain = since == nil ? [] : Set(try Int64.fetchAll(db, sql: "SELECT row FROM temp.event_candidate"))
        struct Judged { var row: SubscriptionEventVersionRule.Row; var id: String; var userId: String }
        var superseded: [Int64] = []
        var rejected: [(judged: Judged, reason: RejectReason)] = []
        try KeyGroupCursor.forEachGroup(db, sql: """
            SELECT r.id, r.rowid, r.file_id, f.load_seq, r.line, f.table_name, r.user_id
            FROM subscription_event_row r JOIN input_file f ON f.id = r.file_id
            WHERE r.rowid IN (SELECT row FROM temp.event_candidate)
            ORDER BY r.id
            """, read: { c in
                Judged(row: SubscriptionEventVersionRule.Row(
                           file: c.int64(2), loadSeq: c.int64(3), line: c.int64(4), row: c.int64(1),
                           source: c.textValue(5) == TableID.events.rawValue ? .eventLog : .subscriberReport),
                       id: c.textValue(0), userId: c.textValue(6))
            }
        ) { group in
            let outcomes = WhichRowsCount.sort(group, by: SubscriptionEventVersionRule()) { _, judged in judged.row }
            superseded += outcomes.superseded.map(\.row.row)
            rejected += outcomes.rejected.map { ($0.item, $0.reason) }
        }
        try storeRejects(db, rejected.map { judged, reason in
            (judged.row, judged.row.source.rejectNamesUser ? judged.userId : judged.id, reason)
        })
        let delete = try BulkStatement(db, sql: "DELETE FROM subscription_event_row WHERE rowid = ?")
        for (judged, _) in rejected {
            delete.bind(1, judged.row.row)
            try delete.step()
        }
        if since == nil {
            try db.execute(sql: "DELETE FROM subscription_event_superseded")
            let insert = try BulkStatement(db, sql: "INSERT INTO subscription_event_superseded (row) VALUES (?)")
            for row in superseded.sorted() {
                insert.bind(1, row)
                try insert.step()
            }
        } else {
            let after = supersededBefore.subtracting(judgedAgain).union(superseded)
            let delete = try BulkStatement(db, sql: "DELETE FROM subscription_event_superseded WHERE row = ?")
            for row in supersededBefore.subtracting(after).sorted() {
                delete.bind(1, row)
                try delete.step()
            }
            let insert = try BulkStatement(db, sql: "INSERT INTO subscription_event_superseded (row) VALUES (?)")
            for row in after.subtracting(supersededBefore).sorted() {
                insert.bind(1, row)
                try insert.step()
            }
            let keyOf = try db.makeStatement(sql: "SELECT \(subscriberKeySQL) FROM subscription_event_row WHERE rowid = ?")
            var moved = Set<String>()
            for row in supersededBefore.symmetricDifference(after) {
                if let key = try String.fetchOne(keyOf, arguments: [row]) { moved.insert(key) }
            }
            try KeyStates.changed(db, scope: changeScope, seq: refresh, keys: moved)
        }
        try DerivationMarks.record(db, .subscriptionEvents, log: "subscription_event_row")
        // CROSS JOIN: from the superseded rows (usually none) to the log, not a scan of the log per file.
        try db.execute(sql: """
            UPDATE input_file SET rows_superseded =
                (SELECT count(*) FROM subscription_event_superseded s CROSS JOIN subscription_event_row r ON r.rowid = s.row
                 WHERE r.file_id = input_file.id)
            WHERE table_name IN ('events', 'appStoreConnectReport')
            """)
    }

    /// The scope of `subscription_event`'s keys in ``KeyStates``: its rows by
    /// subscriber (``WarehouseReader/subscriberKey(app:userId:)``).
    static let changeScope = "subscriptions"

    /// ``WarehouseReader/subscriberKey(app:userId:)`` in SQL, of a row's `app` and `user_id`.
    static let subscriberKeySQL = "length(CAST(app AS BLOB)) || ':' || app || user_id"

    /// Lists in `temp.event_candidate` the log rows whose id hashes like
    /// another row's: every row of a repeated id, and a few others. The log
    /// is hashed in passes of at most `perPass` rows' worth of hashes
    /// (16 bytes each), each keeping the ids of one residue of the hash:
    /// one pass at medium scale. With `since` (the log's last rowid at the
    /// previous derivation, only appended to since), only the rows whose id
    /// hashes like an appended row's are listed, from the hashes kept of the
    /// earlier rows (``KeyHashRuns``) and the appended rows alone.
    static func listRepeatCandidates(_ db: Database, appendedAfter since: Int64? = nil, perPass: Int = eventsPerHashPass) throws {
        try db.execute(sql: "CREATE TEMP TABLE event_candidate (row INTEGER PRIMARY KEY)")
        let insert = try BulkStatement(db, sql: "INSERT INTO temp.event_candidate (row) VALUES (?)")
        // A rowid can be in two groups (a kept pair of a row removed since, its rowid handed out again).
        for rowid in Set(try KeyHashRuns.eventIds.collisions(db, since: since, perPass: perPass).joined()).sorted() {
            insert.bind(1, rowid)
            try insert.step()
        }
    }

    /// The most rows hashed in one pass of ``listRepeatCandidates(_:)``: 64 MiB of hashes.
    static let eventsPerHashPass = KeyHashRuns.pairsPerPass

    /// Stores a reject for each repeat of an id within its file (named by
    /// `record`, with the rule's `reason`), and adds them to the files'
    /// rejected counts. Only files loaded in this ingest have repeats left
    /// in the log (earlier ones were dropped when rejected).
    private static func storeRejects(_ db: Database,
                                     _ rejects: [(row: SubscriptionEventVersionRule.Row, record: String, reason: RejectReason)]) throws {
        var counts: [Int64: Int] = [:]
        for (row, record, reason) in rejects {
            try IngestSession.storeReject(db, file: row.file, line: Int(row.line), id: record, reason: reason)
            counts[row.file, default: 0] += 1
        }
        for (file, count) in counts {
            try db.execute(sql: "UPDATE input_file SET rows_rejected = rows_rejected + ? WHERE id = ?", arguments: [count, file])
        }
    }
}
