import GRDB

/// The warehouse's own tables (the input files and their rejects), and the
/// derived tables kept up to date at the end of each ingest.
///
/// Each dataset keeps its tables in a file of its own (`ExpensesSchema`, …);
/// ``Migrations`` lists every migration, in order, once. A migration, once
/// released, is never edited: later versions add new ones.
enum WarehouseSchema {
    /// The schema every warehouse is brought to when it opens (``Migrations``).
    static var migrator: DatabaseMigrator { Migrations.migrator }

    /// v0: the input files and the rows rejected while reading them.
    static func createInputFiles(_ db: Database) throws {
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
            """)
    }

    /// v22: every reject's kind (``TallyCore/RejectCode``) beside its
    /// sentence, and a couple's rows that could not be used kept as written
    /// for its statement: an expense version that failed validation (its
    /// couple, date, description, amount and currency as text, `error_code`)
    /// and an expense or settlement that could not be decoded at all
    /// (`refused_couple_row`). The files whose rows an
    /// earlier tally rejected, and the expense files, are read again by the
    /// next ingest (their fingerprint is cleared, so they count as changed);
    /// until then their rejects read as `unclassified`.
    static func rejectCodes(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE ingest_reject ADD COLUMN reason_code TEXT NOT NULL DEFAULT '';
            ALTER TABLE expense_version ADD COLUMN error_code TEXT;
            ALTER TABLE expense_version ADD COLUMN written_amount TEXT;
            -- A couple's expense or settlement that could not be decoded, as written (its couple's statement lists it).
            CREATE TABLE refused_couple_row (
                file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
                couple_id TEXT NOT NULL, id TEXT NOT NULL, kind TEXT NOT NULL,
                date TEXT, description TEXT, amount TEXT, currency TEXT, reason_code TEXT NOT NULL
            );
            CREATE INDEX refused_couple_row_couple ON refused_couple_row(couple_id, id);
            CREATE INDEX refused_couple_row_file ON refused_couple_row(file_id);
            UPDATE input_file SET sha256 = ''
            WHERE dataset = 'expenses' OR id IN (SELECT file_id FROM ingest_reject);
            """)
    }

    /// Append-only logs that name their file without a foreign key (see
    /// `swipe_row`): an unloaded file's rows are deleted from them explicitly.
    static let logsWithoutForeignKey = ["swipe_row"]

    /// Derived tables, each refreshed when one of its input tables changed,
    /// in this order, each in a transaction of its own while the report
    /// stages that read none of the later ones run (``Warehouse/rebuild(_:)``,
    /// ``Warehouse/derivationOrder``). The expense winners go first: the
    /// statements, the longest report stage, wait for them alone. The
    /// activity verdicts (short) next: the activity report waits for them,
    /// and the KPIs run after it on the same lane. The swipes' match pass
    /// then leaves its sort and fold (``DerivationTail``) to be finished
    /// apart while the writer refreshes the others; the check-in winners
    /// next, for the leaderboards, which follow the statements.
    static let derivations: [Derivation] = [
        ExpensesSchema.winners, FitnessSchema.activityRepeats, SwipeLogSchema.derivation, CheckinLogSchema.winners,
        SubscriptionLogSchema.events,
    ]

    /// v13: the derived tables an ingest left to rebuild. An ingest commits
    /// its loads with the names of the derivations they call for; each
    /// derivation removes its name in the transaction that rebuilds it. A
    /// run stopped in between leaves the names, and the next run rebuilds
    /// those tables before any report reads them.
    static func createPendingDerivations(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE derivation_pending (name TEXT PRIMARY KEY) WITHOUT ROWID")
    }
}

/// A derived table: rebuilt from its inputs after an ingest in which any of
/// them changed (names as `InputFile.tableName`).
struct Derivation: Sendable {
    /// What it derives; run.json names its stage after it.
    var table: DerivedTable
    var inputs: Set<String>
    /// Rebuilds the table, possibly leaving work to finish after the
    /// derivations that follow it.
    var refresh: @Sendable (Database) throws -> DerivationTail?

    /// A derivation done entirely in `refresh`.
    init(_ table: DerivedTable, inputs: Set<String>, refresh: @escaping @Sendable (Database) throws -> Void) {
        self.init(table, inputs: inputs, refreshing: { db in
            try refresh(db)
            return nil
        })
    }

    /// A derivation whose `refresh` may leave a ``DerivationTail``.
    static func leavingTail(_ table: DerivedTable, inputs: Set<String>,
                            _ refresh: @escaping @Sendable (Database) throws -> DerivationTail?) -> Derivation {
        Derivation(table, inputs: inputs, refreshing: refresh)
    }

    /// Private, so that a trailing closure elsewhere names the public initializer alone.
    private init(_ table: DerivedTable, inputs: Set<String>, refreshing refresh: @escaping @Sendable (Database) throws -> DerivationTail?) {
        self.table = table
        self.inputs = inputs
        self.refresh = refresh
    }
}

/// The end of a derivation that needs no database for a while: `compute`
/// may run on another thread while the writer goes on with the next
/// derivations, then `store` writes its result in a transaction of its own
/// between two of theirs (``Warehouse/store(_:completing:)``). Derivations
/// otherwise run one after the other on one core.
public struct DerivationTail: Sendable {
    var work: @Sendable () -> Void
    var store: @Sendable (Database) throws -> Void

    init(compute: @escaping @Sendable () -> Void, store: @escaping @Sendable (Database) throws -> Void) {
        work = compute
        self.store = store
    }

    /// The part that needs no database (a sort, a fold): once, before the store.
    public func compute() { work() }

    /// Runs both parts here, one after the other.
    func finish(_ db: Database) throws {
        compute()
        try store(db)
    }
}
