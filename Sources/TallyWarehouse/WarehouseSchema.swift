import GRDB

/// The warehouse schema, as GRDB migrations, and the derived tables kept up
/// to date at the end of each ingest.
///
/// Each dataset keeps its tables in a file of its own (`ExpensesSchema`, …)
/// and is listed here once. A migration, once released, is never edited:
/// later versions add new ones.
enum WarehouseSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: input files") { db in
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
        ExpensesSchema.register(&migrator)
        FitnessSchema.register(&migrator)
        KPISchema.register(&migrator)
        CheckinLogSchema.register(&migrator)
        SwipeLogSchema.register(&migrator)
        SubscriptionLogSchema.register(&migrator)
        PublicationSchema.register(&migrator)
        SubscriptionLogSchema.registerLogView(&migrator)
        PublicationSchema.registerCounterWithoutTriggers(&migrator)
        DeferredForeignKeys.register(&migrator)
        FitnessSchema.registerActivityView(&migrator)
        return migrator
    }

    /// Append-only logs that name their file without a foreign key (see
    /// `swipe_row`): an unloaded file's rows are deleted from them explicitly.
    static let logsWithoutForeignKey = ["swipe_row"]

    /// Derived tables, each refreshed when one of its input tables changed.
    /// The swipes go first: their match pass's sort and fold run on a thread
    /// of their own while the writer refreshes the others (``DerivationTail``).
    static let derivations: [Derivation] = [
        SwipeLogSchema.derivation, ExpensesSchema.winners, FitnessSchema.activityRepeats, CheckinLogSchema.winners,
        SubscriptionLogSchema.events,
    ]
}

/// A derived table: rebuilt from its inputs at the end of an ingest in which
/// any of them changed (names as `InputFile.tableName`).
struct Derivation: Sendable {
    /// What it derives, as run.json names its stage ("swipe matches").
    var name: String
    var inputs: Set<String>
    /// Rebuilds the table, possibly leaving work to finish after the
    /// derivations that follow it.
    var refresh: @Sendable (Database) throws -> DerivationTail?

    /// A derivation done entirely in `refresh`.
    init(name: String, inputs: Set<String>, refresh: @escaping @Sendable (Database) throws -> Void) {
        self.init(name: name, inputs: inputs, refreshing: { db in
            try refresh(db)
            return nil
        })
    }

    /// A derivation whose `refresh` may leave a ``DerivationTail``.
    static func leavingTail(name: String, inputs: Set<String>,
                            _ refresh: @escaping @Sendable (Database) throws -> DerivationTail?) -> Derivation {
        Derivation(name: name, inputs: inputs, refreshing: refresh)
    }

    /// Private, so that a trailing closure elsewhere names the public initializer alone.
    private init(name: String, inputs: Set<String>, refreshing refresh: @escaping @Sendable (Database) throws -> DerivationTail?) {
        self.name = name
        self.inputs = inputs
        self.refresh = refresh
    }
}

/// The end of a derivation that needs no database for a while: `compute`
/// runs on a thread of its own while the writer goes on with the next
/// derivations, then `store` writes its result, on the writer. The ingest
/// has two cores and derivations ran one after the other on one.
struct DerivationTail {
    var compute: @Sendable () -> Void
    var store: (Database) throws -> Void

    /// Runs both parts here, one after the other.
    func finish(_ db: Database) throws {
        compute()
        try store(db)
    }
}
