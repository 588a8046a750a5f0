import GRDB
import TallyCore

/// The tables of the `expenses/` dataset (ContaCasal).
enum ExpensesSchema {
    /// v1: the expenses dataset's tables and the log of expense versions.
    static func createTables(_ db: Database) throws {
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

    /// v21: cards indexed by couple, as the statements scan every table of
    /// a couple's rows in couple order (``WarehouseReader/forEachCoupleKey(only:_:)``).
    static func indexCardsByCouple(_ db: Database) throws {
        try db.execute(sql: "CREATE INDEX card_couple ON card(couple_id)")
    }

    /// v14: the winners listed narrowly, not copied whole (a copy of every
    /// winning version is written twice in WAL mode and needs an index by
    /// couple): `expense_winner` lists each winner's couple, id and row of
    /// `expense_version`, clustered by (couple, id), the order the
    /// statements read them in; `expense` is a view of the winning
    /// versions. `version_row` is a rowid, as `checkin_winner.log_row` is:
    /// it stays valid because
    /// the log is only appended to or cut by whole files, in a transaction
    /// that marks the table pending, and a pending table is rebuilt before
    /// any report reads it (the warehouse is never vacuumed, which could
    /// renumber rowids).
    static func narrowWinners(_ db: Database) throws {
        try db.execute(sql: """
            DROP TABLE expense;
            -- A winner without a couple (its row failed to parse) is listed under ''.
            CREATE TABLE expense_winner (
                couple_id TEXT NOT NULL, id TEXT NOT NULL, version_row INTEGER NOT NULL,
                PRIMARY KEY (couple_id, id)
            ) WITHOUT ROWID;
            CREATE VIEW expense AS
            SELECT v.id, v.updated_at, v.deleted_at, v.couple_id, v.paid_by, v.amount, v.currency, v.date,
                   v.description, v.tag, v.card_id, v.agreement_id, v.split_type, v.split, v.error, v.file_id, v.line
            FROM expense_winner w CROSS JOIN expense_version v ON v.rowid = w.version_row;
            -- The next rebuild lists the winners of the versions already loaded.
            INSERT OR IGNORE INTO derivation_pending (name)
            SELECT 'expense winners' WHERE EXISTS (SELECT 1 FROM expense_version);
            """)
    }

    /// Rebuilds `expense_winner` and the expense files' superseded counts:
    /// of the versions of an id, the one ``TallyCore/ExpenseVersionRule``
    /// picks counts.
    ///
    /// Repeated ids are found by hashing them in one scan of the versions
    /// and comparing only rows whose hashes collide (``KeyHashes``); the
    /// winners are then sorted once, narrowly, by (couple, id), instead of
    /// ranking every wide version row in a window sorted by id. After an
    /// ingest that only appended versions, only they are hashed, beside the
    /// hashes kept of the earlier versions (``KeyHashRuns``); only the ids
    /// they repeat are judged again (the
    /// files' superseded counts move by the change: ``SupersededRows``),
    /// and only their winners are listed again (``WinnerTable``).
    ///
    /// Each refresh records which couples' winners it changed, and how far
    /// back (``KeyStates``, scope ``changeScope``, keys ``changeKeySQL``):
    /// after an ingest that only appended versions, those of the appended
    /// versions and of every version of the ids they repeat (the winners
    /// before and after); after any other, every couple.
    static let winners = Derivation(.expenseWinners, inputs: ["expenses"]) { db in
        let since = try DerivationMarks.lastRow(db, .expenseWinners)
        // After an append-only ingest, only the ids of the appended versions can have new winners.
        let candidates = try KeyHashRuns.expenseIds.collisions(db, since: since)
        let superseded = try SupersededRows(db, candidates: candidates, since: since, sql: """
            SELECT v.id, v.file_id, v.updated_at, f.load_seq, v.line
            FROM expense_version v JOIN input_file f ON f.id = v.file_id WHERE v.rowid = ?
            """, rule: ExpenseVersionRule(), read: { c, rowid in
                ExpenseVersionRule.Version(updatedAt: Timestamp(microseconds: c.int64(2)), loadSeq: c.int64(3),
                                           line: c.int64(4), row: rowid)
            })
        let refresh = try KeyStates.beginRefresh(db, scope: changeScope)
        if let since {
            var keys = Set<String>()
            let key = try db.makeStatement(sql: "SELECT \(changeKeySQL) FROM expense_version WHERE rowid = ?")
            for rowid in candidates.filter({ ($0.max() ?? 0) > since }).joined() {
                if let changed = try String.fetchOne(key, arguments: [rowid]) { keys.insert(changed) }
            }
            let appended = try RawCursor(db, sql: "SELECT \(changeKeySQL) FROM expense_version WHERE rowid > ?", arguments: [since])
            while try appended.next() { keys.insert(appended.textValue(0)) }
            try KeyStates.changed(db, scope: changeScope, seq: refresh, keys: keys)
        } else {
            try KeyStates.changedAll(db, scope: changeScope, seq: refresh)
        }
        try winnerTable.refresh(db, superseded: superseded, candidates: candidates, since: since)
        try DerivationMarks.record(db, .expenseWinners, log: "expense_version")
        try superseded.storeCounts(db, table: "expenses")
    }

    /// The scope of the expense winners' changes in ``KeyStates``: by couple,
    /// and by how far back a change reaches (``changeKeySQL``).
    static let changeScope = "couples"

    /// A changed version's key in ``changeScope``: `YYYY-MM|coupleId`, the
    /// month its date text starts with, or `|coupleId` when it starts with
    /// none (``TallyCore/LedgerOpening/changeMonth(_:)``, the same rule).
    static let changeKeySQL = """
        CASE WHEN date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]*' THEN substr(date, 1, 7) ELSE '' END || '|' || coalesce(couple_id, '')
        """

    /// v29: expense versions indexed by date, so that a couple's statement
    /// can read the winners dated from a month on
    /// (``WarehouseReader/forEachCoupleKey(only:opening:_:)``).
    static func indexVersionsByDate(_ db: Database) throws {
        try db.execute(sql: "CREATE INDEX expense_version_date ON expense_version(date)")
    }

    /// `expense_winner` as a ``WinnerTable`` of the versions.
    private static let winnerTable = WinnerTable(table: "expense_winner", log: "expense_version",
                                                 key: ("couple_id, id", from: "coalesce(couple_id, ''), id"),
                                                 rest: ("version_row", from: "rowid"))
}
