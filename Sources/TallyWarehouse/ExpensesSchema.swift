import GRDB

/// The tables of the `expenses/` dataset (ContaCasal).
enum ExpensesSchema {
    static func register(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v1: expenses") { db in
            try db.execute(sql: """
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
    }

    /// The winning version of each expense: latest updatedAt; ties go to the
    /// later load, then the later line. Also counts, per file, the versions
    /// that lost (superseded).
    static let winners = Derivation(.expenseWinners, inputs: ["expenses"]) { db in
        try db.execute(sql: """
            DELETE FROM expense;
            -- The window sorts a narrow key (id, order, rowid), not whole rows;
            -- the winners are then fetched by rowid in id order (measured at
            -- medium: 4.1 s instead of 5.9 s, much less I/O).
            INSERT INTO expense
            SELECT v.id, v.updated_at, v.deleted_at, v.couple_id, v.paid_by, v.amount, v.currency, v.date, v.description,
                   v.tag, v.card_id, v.agreement_id, v.split_type, v.split, v.error, v.file_id, v.line
            FROM (
                SELECT row FROM (
                    SELECT v.rowid AS row, ROW_NUMBER() OVER (
                        PARTITION BY v.id ORDER BY v.updated_at DESC, f.load_seq DESC, v.line DESC) AS rank
                    FROM expense_version v JOIN input_file f ON f.id = v.file_id
                ) WHERE rank = 1
            ) w CROSS JOIN expense_version v ON v.rowid = w.row;
            UPDATE input_file SET rows_superseded =
                (SELECT count(*) FROM expense_version v WHERE v.file_id = input_file.id)
              - (SELECT count(*) FROM expense e WHERE e.file_id = input_file.id)
            WHERE table_name = 'expenses';
            """)
    }
}
