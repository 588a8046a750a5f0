import GRDB

/// The warehouse schema, as GRDB migrations. A migration, once released, is
/// never edited: later versions add new ones.
enum WarehouseSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: input files and expenses") { db in
            try db.execute(sql: """
                CREATE TABLE input_file (
                    id INTEGER PRIMARY KEY,
                    path TEXT NOT NULL UNIQUE,          -- absolute path: a file's identity
                    display_path TEXT NOT NULL,         -- relative to its data folder
                    dataset TEXT NOT NULL,
                    table_name TEXT NOT NULL,
                    bytes INTEGER NOT NULL,
                    sha256 TEXT NOT NULL,
                    load_seq INTEGER NOT NULL,          -- order of loading, for latest-wins ties
                    rows_read INTEGER NOT NULL DEFAULT 0,
                    rows_rejected INTEGER NOT NULL DEFAULT 0,   -- rejected while reading
                    rows_superseded INTEGER NOT NULL DEFAULT 0,
                    unknown_fields TEXT NOT NULL DEFAULT ''
                );
                CREATE INDEX input_file_sha ON input_file(sha256);

                CREATE TABLE ingest_reject (
                    file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE,
                    line INTEGER NOT NULL,
                    record_id TEXT NOT NULL,
                    reason TEXT NOT NULL
                );
                CREATE INDEX ingest_reject_file ON ingest_reject(file_id);

                CREATE TABLE couple (
                    id TEXT PRIMARY KEY, name TEXT NOT NULL, currency TEXT NOT NULL, created_at INTEGER,
                    file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE, line INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE member (
                    id TEXT PRIMARY KEY, couple_id TEXT NOT NULL, display_name TEXT NOT NULL, role TEXT,
                    joined_at INTEGER,
                    file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE, line INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX member_couple ON member(couple_id);
                CREATE TABLE card (
                    id TEXT PRIMARY KEY, couple_id TEXT NOT NULL, owner_id TEXT, label TEXT, kind TEXT,
                    file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE, line INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE fx_rate (
                    currency TEXT NOT NULL, base TEXT NOT NULL, date TEXT NOT NULL, rate TEXT NOT NULL,
                    file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE, line INTEGER NOT NULL,
                    PRIMARY KEY (currency, base, date)
                ) WITHOUT ROWID;
                CREATE TABLE agreement (
                    id TEXT PRIMARY KEY, couple_id TEXT NOT NULL, description TEXT NOT NULL,
                    amount INTEGER NOT NULL, currency TEXT NOT NULL, paid_by TEXT NOT NULL,
                    split_type TEXT NOT NULL, split TEXT NOT NULL, tag TEXT NOT NULL,
                    day_of_month INTEGER NOT NULL, start_date TEXT NOT NULL, end_date TEXT,
                    file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE, line INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX agreement_couple ON agreement(couple_id);
                CREATE TABLE settlement (
                    id TEXT PRIMARY KEY, couple_id TEXT NOT NULL, from_member TEXT NOT NULL, to_member TEXT NOT NULL,
                    amount INTEGER NOT NULL, currency TEXT NOT NULL, date TEXT NOT NULL, note TEXT,
                    file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE, line INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX settlement_couple ON settlement(couple_id);

                -- Every version of every expense, as read. The winner per id is in `expense`.
                CREATE TABLE expense_version (
                    id TEXT NOT NULL, updated_at INTEGER NOT NULL, deleted_at INTEGER,
                    couple_id TEXT, paid_by TEXT, amount INTEGER, currency TEXT, date TEXT,
                    description TEXT, tag TEXT, card_id TEXT, agreement_id TEXT,
                    split_type TEXT, split TEXT, error TEXT,
                    file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE, line INTEGER NOT NULL
                );
                CREATE INDEX expense_version_file ON expense_version(file_id);
                -- The winning version of each expense id (latest updatedAt; ties: later load, later line).
                CREATE TABLE expense (
                    id TEXT PRIMARY KEY, updated_at INTEGER NOT NULL, deleted_at INTEGER,
                    couple_id TEXT, paid_by TEXT, amount INTEGER, currency TEXT, date TEXT,
                    description TEXT, tag TEXT, card_id TEXT, agreement_id TEXT,
                    split_type TEXT, split TEXT, error TEXT,
                    file_id INTEGER NOT NULL, line INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX expense_couple ON expense(couple_id, date);
                """)
        }
        return migrator
    }
}
