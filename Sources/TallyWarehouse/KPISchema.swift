import GRDB
import TallyCore

/// The tables of the `swipes/` (FypMatch) and `subscriptions/` (FisioFlow,
/// LovU, FypMatch) datasets, and their derived tables.
enum KPISchema {
    /// v3: the swipes' and subscriptions' tables (v5 and v6 replace the
    /// swipes' and events' with logs).
    static func createTables(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE swipe_user (
                id TEXT PRIMARY KEY, created_at INTEGER, gender TEXT, city TEXT, subscription TEXT,
                file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE, line INTEGER NOT NULL
            ) WITHOUT ROWID;
            -- Every swipe row as read: append-only, so loading 10M rows never
            -- inserts into a B-tree at random (random Firestore ids made the
            -- keyed table take minutes; appends and one sort take seconds).
            CREATE TABLE swipe_row (
                id TEXT NOT NULL, from_user TEXT NOT NULL, to_user TEXT NOT NULL, action TEXT NOT NULL,
                at INTEGER NOT NULL,
                file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE, line INTEGER NOT NULL
            );
            CREATE INDEX swipe_row_file ON swipe_row(file_id);
            -- Derived: one row per swipe id (the first row within a file; a
            -- later-loaded file's row replaces it). Rebuilt after each load of swipes.
            CREATE TABLE swipe (
                id TEXT NOT NULL, from_user TEXT NOT NULL, to_user TEXT NOT NULL, action TEXT NOT NULL,
                at INTEGER NOT NULL, file_id INTEGER NOT NULL, line INTEGER NOT NULL
            );
            -- Derived: every match (user_a < user_b in byte order) and the instant it formed.
            CREATE TABLE swipe_match (
                user_a TEXT NOT NULL, user_b TEXT NOT NULL, formed_at INTEGER NOT NULL,
                PRIMARY KEY (user_a, user_b)
            ) WITHOUT ROWID;
            CREATE INDEX swipe_match_formed ON swipe_match(formed_at);

            CREATE TABLE product (
                product_id TEXT PRIMARY KEY, app TEXT NOT NULL, plan TEXT NOT NULL, period TEXT NOT NULL,
                price INTEGER NOT NULL, currency TEXT NOT NULL,
                file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE, line INTEGER NOT NULL
            ) WITHOUT ROWID;
            -- Events of subscriptions/events and of App Store Connect Subscriber reports.
            CREATE TABLE subscription_event (
                id TEXT PRIMARY KEY, app TEXT NOT NULL, user_id TEXT NOT NULL, event TEXT NOT NULL,
                product_id TEXT, context TEXT, at INTEGER NOT NULL,
                file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE, line INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX subscription_event_user ON subscription_event(app, user_id, at);
            CREATE TABLE partner_connection (
                user_id TEXT NOT NULL, partner_id TEXT NOT NULL, connected_at INTEGER NOT NULL, disconnected_at INTEGER,
                file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE, line INTEGER NOT NULL,
                PRIMARY KEY (user_id, partner_id, connected_at)
            ) WITHOUT ROWID;
            -- App Store Connect Subscription Event reports: daily event counts per subscription.
            CREATE TABLE appstore_event_count (
                date TEXT NOT NULL, app TEXT NOT NULL, subscription TEXT NOT NULL, apple_event TEXT NOT NULL,
                event TEXT NOT NULL, quantity INTEGER NOT NULL,
                file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE, line INTEGER NOT NULL
            );
            CREATE INDEX appstore_event_count_date ON appstore_event_count(date);
            """)
    }
}
