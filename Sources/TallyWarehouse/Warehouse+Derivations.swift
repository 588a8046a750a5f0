import Foundation
import GRDB

extension Warehouse {
    /// The derived tables an ingest left to rebuild: those its changes call
    /// for, and any a run stopped before rebuilding.
    public func pendingDerivations() throws -> Set<DerivedTable> {
        Set(try queue.read { db in try String.fetchAll(db, sql: "SELECT name FROM derivation_pending") }
            .compactMap(DerivedTable.init(rawValue:)))
    }

    /// Rebuilds every pending derived table, in ``WarehouseSchema/derivations``
    /// order, each in a transaction of its own that also clears its pending
    /// mark; calls `ready` once each has committed (from the calling thread,
    /// or from the thread of a derivation's tail). Returns how long each
    /// took: a derivation that leaves a tail (``DerivationTail``) is timed
    /// from its start to its tail's store, beside the derivations that follow it.
    ///
    /// Reports may read the tables already rebuilt while the others are: see
    /// ``allowReadsBesideWrites()``. A failure or an interruption keeps what
    /// was committed, and the next run rebuilds the rest.
    public func derivePending(ready: @escaping @Sendable (DerivedTable) -> Void = { _ in }) throws -> [DerivationTiming] {
        let pending = try pendingDerivations()
        guard !pending.isEmpty else { return [] }
        let timings = DerivationTimings(ready: ready)
        var tails: [DispatchSemaphore] = []
        defer { for done in tails { done.wait() } }  // no tail's thread outlives the derivations
        for derivation in WarehouseSchema.derivations where pending.contains(derivation.table) {
            let started = Date()
            var tail: DerivationTail?
            try Self.rebuild(derivation.table, in: queue, path: path) { db in
                tail = try derivation.refresh(db)
                return tail == nil
            }
            guard let tail else {
                timings.derived(derivation.table, since: started)
                continue
            }
            let done = DispatchSemaphore(value: 0)
            tails.append(done)
            let (queue, path) = (queue, path)
            Thread.detachNewThread {
                defer { done.signal() }
                tail.compute()
                do {
                    try Self.rebuild(derivation.table, in: queue, path: path) { db in
                        try tail.store(db)
                        return true
                    }
                    timings.derived(derivation.table, since: started)
                } catch {
                    timings.failed(error)
                }
            }
        }
        for done in tails { done.wait() }
        tails = []
        return try timings.all()
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

/// The derivations' times, from the writer's thread and the tails'.
private final class DerivationTimings: @unchecked Sendable {
    private let lock = NSLock()
    private var timings: [DerivationTiming] = []
    private var failure: Error?
    private let ready: @Sendable (DerivedTable) -> Void

    init(ready: @escaping @Sendable (DerivedTable) -> Void) { self.ready = ready }

    func derived(_ table: DerivedTable, since started: Date) {
        lock.withLock {
            timings.append(DerivationTiming(name: table.rawValue, seconds: Date().timeIntervalSince(started)))
        }
        ready(table)
    }

    func failed(_ error: Error) {
        lock.withLock { if failure == nil { failure = error } }
    }

    /// Every time, in the order the tables were ready; throws a tail's failure.
    func all() throws -> [DerivationTiming] {
        try lock.withLock {
            if let failure { throw failure }
            return timings
        }
    }
}
