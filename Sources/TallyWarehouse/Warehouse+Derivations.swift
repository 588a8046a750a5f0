import Foundation
import GRDB

extension Warehouse {
    /// The derived tables an ingest left to rebuild: those its changes call
    /// for, and any a run stopped before rebuilding.
    public func pendingDerivations() throws -> Set<DerivedTable> {
        Set(try queue.read { db in try String.fetchAll(db, sql: "SELECT name FROM derivation_pending") }
            .compactMap(DerivedTable.init(rawValue:)))
    }

    /// The derived tables in the order they are rebuilt (``WarehouseSchema/derivations``):
    /// a caller rebuilding them one by one (``rebuild(_:)``) follows it.
    public static var derivationOrder: [DerivedTable] { WarehouseSchema.derivations.map(\.table) }

    /// Rebuilds every pending derived table here, one after the other, in
    /// ``derivationOrder``, each in a transaction of its own that also
    /// clears its pending mark (a tail is finished in place); calls `ready`
    /// once each has committed. Returns how long each took.
    ///
    /// A run rebuilds them through its executor instead, which runs a tail
    /// beside the derivations that follow it (`TallyPipeline/Executor`).
    /// A failure or an interruption keeps what was committed, and the next
    /// run rebuilds the rest.
    public func derivePending(ready: (DerivedTable) -> Void = { _ in }) throws -> [DerivationTiming] {
        let pending = try pendingDerivations()
        var timings: [DerivationTiming] = []
        for table in Self.derivationOrder where pending.contains(table) {
            let started = Date()
            if let tail = try rebuild(table) {
                tail.compute()
                try store(tail, completing: table)
            }
            timings.append(DerivationTiming(name: table.rawValue, seconds: Date().timeIntervalSince(started)))
            ready(table)
        }
        return timings
    }

    /// Rebuilds `table` in a transaction of its own. Returns nil when the
    /// table is complete (its pending mark cleared in that transaction), or
    /// the tail its derivation left: the caller runs ``DerivationTail/compute()``
    /// (no database needed, any thread) and then ``store(_:completing:)``,
    /// which completes the table.
    public func rebuild(_ table: DerivedTable) throws -> DerivationTail? {
        guard let derivation = WarehouseSchema.derivations.first(where: { $0.table == table }) else { return nil }
        var tail: DerivationTail?
        try Self.rebuild(table, in: queue, path: path) { db in
            tail = try derivation.refresh(db)
            return tail == nil
        }
        return tail
    }

    /// Stores a computed tail in a transaction of its own that clears
    /// `table`'s pending mark: the table is then complete.
    public func store(_ tail: DerivationTail, completing table: DerivedTable) throws {
        try Self.rebuild(table, in: queue, path: path) { db in
            try tail.store(db)
            return true
        }
    }

    /// Runs `body` in a transaction of `queue` (the warehouse at `path`) that
    /// also clears `table`'s pending mark when `body` returns true (the table
    /// is complete: a derivation that leaves a tail is complete once the
    /// tail's store is done).
    private static func rebuild(_ table: DerivedTable, in queue: DatabaseQueue, path: String,
                                _ body: (Database) throws -> Bool) throws {
        try writing(path, nothingKept: "the derived table \(table.rawValue) is rebuilt by the next run") {
            try queue.inTransaction(.immediate) { db in
                if try body(db) {
                    try db.execute(sql: "DELETE FROM derivation_pending WHERE name = ?", arguments: [table.rawValue])
                }
                return .commit
            }
        }
    }

    /// Lets read connections (``openReadConnection()``) read while this
    /// connection writes, and see each commit: the warehouse is put in WAL
    /// mode until ``endReadsBesideWrites()``. Loads are never written in WAL
    /// mode (they run in rollback-journal mode, see ``init(path:)``); the
    /// derived tables are, beside the reports that read the tables already
    /// rebuilt. Returns false when SQLite could not switch (e.g. on a file
    /// system without shared memory): the caller then rebuilds first.
    /// Call with no other connection open.
    public func allowReadsBesideWrites() throws -> Bool {
        try queue.writeWithoutTransaction { db in
            try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal"
        }
    }

    /// Back to the rollback journal, once every read connection is closed:
    /// the WAL's pages are copied into the warehouse and the WAL removed.
    /// (With a read connection still open SQLite keeps WAL mode, and the
    /// next ``init(path:)`` switches back instead.)
    public func endReadsBesideWrites() throws {
        try Self.writing(path, nothingKept: "every committed change was kept") {
            try queue.writeWithoutTransaction { db in
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = TRUNCATE")
            }
        }
    }
}
