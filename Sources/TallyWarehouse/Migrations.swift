import GRDB

/// Every migration of the warehouse schema, in the order it runs, each under
/// its one name: this list is the whole history of the schema. Each body
/// lives with its dataset's tables (`ExpensesSchema`, …); what the tables
/// hold is in `docs/warehouse.md`.
///
/// GRDB records each applied name in `grdb_migrations` and runs, on opening,
/// the names it does not find there, in this order. A released migration is
/// therefore never edited or moved, and renamed only by merging its former
/// name (as `v0` is): a change to the schema is a new entry at the end.
///
/// ```swift
/// try Migrations.migrator.migrate(queue)   // what `Warehouse(path:)` does
/// ```
enum Migrations {
    /// The names, in order (for tests and docs).
    static var names: [String] { migrator.migrations }

    /// The names the first migration was applied under before it was
    /// `v0` (GRDB replaces them in `grdb_migrations` without running it again).
    static let formerNamesOfInputFiles: Set<String> = ["v1: input files"]

    /// The migrations `db` records that this version does not know (a
    /// newer tally applied them), former names aside.
    static func unknownApplied(_ db: Database) throws -> [String] {
        guard try db.tableExists("grdb_migrations") else { return [] }
        let known = Set(names).union(formerNamesOfInputFiles)
        return try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
            .filter { !known.contains($0) }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // Once named "v1: input files", beside "v1: expenses". On a warehouse
        // that applied it under that name, GRDB renames its row in
        // `grdb_migrations`, in the migration's transaction, and this body
        // creates nothing. Foreign keys stay on: nothing here alters a table,
        // and GRDB's deferred check would otherwise scan every foreign key of
        // an existing warehouse once.
        migrator.registerMigration("v0: input files", foreignKeyChecks: .immediate,
                                   merging: formerNamesOfInputFiles) { db, formerlyApplied in
            if formerlyApplied.isEmpty { try WarehouseSchema.createInputFiles(db) }
        }
        migrator.registerMigration("v1: expenses", migrate: ExpensesSchema.createTables)
        migrator.registerMigration("v2: fitness and health", migrate: FitnessSchema.createTables)
        migrator.registerMigration("v3: swipes and subscriptions", migrate: KPISchema.createTables)
        migrator.registerMigration("v4: check-in log", migrate: CheckinLogSchema.createLog)
        migrator.registerMigration("v5: compact swipe log", migrate: SwipeLogSchema.createLog)
        // Foreign keys on, so deleting the reloaded files cascades to their other rows (rejects, counts).
        migrator.registerMigration("v6: subscription event log", foreignKeyChecks: .immediate,
                                   migrate: SubscriptionLogSchema.createLog)
        migrator.registerMigration("v7: report publications", migrate: PublicationSchema.createTables)
        migrator.registerMigration("v8: subscription events read from the log", foreignKeyChecks: .immediate,
                                   migrate: SubscriptionLogSchema.logView)
        migrator.registerMigration("v9: leaderboard snapshot counter without triggers",
                                   migrate: PublicationSchema.counterWithoutTriggers)
        migrator.registerMigration("v10: log foreign keys checked at commit", migrate: DeferredForeignKeys.deferLogKeys)
        migrator.registerMigration("v11: every foreign key to input files checked at commit",
                                   migrate: DeferredForeignKeys.deferRemainingKeys)
        migrator.registerMigration("v12: activity days as a view", migrate: FitnessSchema.activityView)
        migrator.registerMigration("v13: pending derivations", migrate: WarehouseSchema.createPendingDerivations)
        migrator.registerMigration("v14: narrow expense winners", migrate: ExpensesSchema.narrowWinners)
        migrator.registerMigration("v15: refused files", migrate: RefusedFileSchema.createTable)
        // Foreign keys on, so deleting the reloaded exports cascades to their days and rejects.
        migrator.registerMigration("v16: activity verdicts and zone-free health records", foreignKeyChecks: .immediate,
                                   migrate: FitnessSchema.activityVerdictsAndHealthRecords)
        migrator.registerMigration("v17: no leaderboard snapshots") { db in
            try FitnessSchema.dropLeaderboardSnapshots(db)
            try PublicationSchema.dropCounter(db)
        }
        migrator.registerMigration("v18: derivation marks", migrate: DerivationMarks.createTable)
        migrator.registerMigration("v19: swipe id filter kept", migrate: SwipeIdFilter.createTable)
        migrator.registerMigration("v20: keyed tables' rows set aside", migrate: KeyedTable.createSupersededTables)
        migrator.registerMigration("v21: cards by couple", migrate: ExpensesSchema.indexCardsByCouple)
        migrator.registerMigration("v22: reject codes and rejected expenses as written", migrate: WarehouseSchema.rejectCodes)
        migrator.registerMigration("v23: run history", migrate: PublicationSchema.createRunHistory)
        migrator.registerMigration("v24: couple closings", migrate: PublicationSchema.createCoupleClosings)
        migrator.registerMigration("v25: rows set aside keyed by file", migrate: KeyedTable.keySupersededByFile)
        migrator.registerMigration("v26: key changes and key states", migrate: KeyStates.createTables)
        migrator.registerMigration("v27: swipe id filter generations", migrate: SwipeIdFilters.keepGenerations)
        migrator.registerMigration("v28: key changes logged by refresh", migrate: KeyStates.logChangesByRefresh)
        migrator.registerMigration("v29: expense versions by date", migrate: ExpensesSchema.indexVersionsByDate)
        migrator.registerMigration("v30: swipes files' spans", migrate: SwipeSpans.createTable)
        migrator.registerMigration("v31: key hashes kept", migrate: KeyHashRuns.createTables)
        return migrator
    }
}
