import CSQLiteConfig
import Foundation
import GRDB

/// tally's embedded SQLite warehouse.
///
/// Opening it takes an exclusive lock for the life of the value and brings
/// the schema up to date. Every load runs in one transaction
/// (``ingest(_:)``): an interrupted or failed ingest leaves the previous
/// state intact. The derived tables are rebuilt after it, each in a
/// transaction of its own, and what is left to rebuild is recorded, so a
/// stopped run's successor finishes it (``derivePending(ready:)``). Reads
/// for reports go through ``read(_:)`` or a read connection of their own.
public final class Warehouse {
    /// The SQLite file.
    public let path: String
    let queue: DatabaseQueue
    private let lock: WarehouseLock

    /// Opens (creating when needed) the warehouse at `path`.
    public init(path: String) throws {
        _ = Warehouse.processSettings
        self.path = path
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        lock = try WarehouseLock(databasePath: path)
        var config = Configuration()
        config.foreignKeysEnabled = true
        // Only this process opens the file (the lock), but report stages may
        // read beside the main connection (``openReadConnection()``).
        config.busyMode = .timeout(Warehouse.busyTimeout)
        config.prepareDatabase { db in
            // 16 KiB pages for a new warehouse (an existing one keeps its own):
            // the derivations have a quarter of the pages to sort through,
            // balance, read and write that 4 KiB pages give them; larger
            // pages gain nothing more (docs/performance.md).
            try db.execute(sql: "PRAGMA page_size = 16384")
            // A rollback journal, not WAL, for the loads: a large load into a
            // WAL re-writes every spilled page as new frames (a WAL larger
            // than the input). With a rollback journal, pages
            // appended to the file are not journaled at all; commits stay
            // atomic, and FULL sync makes them durable. Only the derived
            // tables are written in WAL mode, while reports read beside them
            // (``allowReadsBesideWrites()``); a warehouse left in WAL mode by
            // a stopped run comes back here (its WAL copied in first).
            try db.execute(sql: "PRAGMA journal_mode = TRUNCATE")
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try Warehouse.configureMemory(db)
        }
        do {
            queue = try DatabaseQueue(path: path, configuration: config)
            // A newer tally's warehouse keeps things this one would not keep
            // up to date (derivation marks, the swipe id filter): refused.
            if let newer = try queue.read({ db in try Migrations.unknownApplied(db) }).last {
                throw WarehouseError("""
                    the warehouse \(path) was written by a newer tally (its schema has "\(newer)"): \
                    open it with that version, or load the data into a new warehouse (--db)
                    """)
            }
            try WarehouseSchema.migrator.migrate(queue)
        } catch let error as DatabaseError {
            throw WarehouseError("cannot open the warehouse \(path): \(error.message ?? "\(error)")")
        }
    }

    /// SQLite's process-wide settings, made once before its first connection
    /// (afterwards SQLite refuses them, and keeps its defaults): allocations
    /// are not counted. Counting takes a global mutex per allocation, a
    /// visible share of a large load's CPU; tally never asks SQLite how much
    /// memory it uses.
    static let processSettings: Void = { _ = tally_sqlite_stop_counting_memory() }()

    /// The page cache and sorting settings of every connection to a warehouse.
    static func configureMemory(_ db: Database) throws {
        // A 64 MiB page cache. Loads append (logs) or touch small keyed
        // tables, so a bigger cache bought little; and SQLite's sorter
        // keeps up to cache_size of rows in memory per sorting thread,
        // so this also bounds every large sort to (threads + 1) × 64 MiB.
        try db.execute(sql: "PRAGMA cache_size = -65536")
        // Sorts and temporary tables spill to files, so memory stays flat
        // whatever the input size.
        try db.execute(sql: "PRAGMA temp_store = FILE")
        // Large sorts (window functions, CREATE INDEX, ORDER BY) may use
        // helper threads: one per core, at most 4 (memory, above).
        try db.execute(sql: "PRAGMA threads = \(min(ProcessInfo.processInfo.activeProcessorCount, 4))")
    }

    /// Runs `body` in one immediate transaction, which commits only when
    /// `body` returns, then rebuilds the derived tables its changes call for
    /// (``derivePending(ready:)``).
    ///
    /// A failure to write (a full disk, a file size limit, an I/O error)
    /// throws a ``WarehouseError`` naming the warehouse; the transaction is
    /// rolled back, so the warehouse keeps its previous state.
    public func ingest<T>(_ body: (IngestSession) throws -> T) throws -> T {
        let result = try ingestLeavingDerivations(body)
        _ = try derivePending()
        return result
    }

    /// ``ingest(_:)`` without the derived tables: they are left pending
    /// (recorded in the same transaction as the loads) for a run to rebuild
    /// beside its reports, table by table (``rebuild(_:)``).
    public func ingestLeavingDerivations<T>(_ body: (IngestSession) throws -> T) throws -> T {
        var result: T?
        try Self.writing(path, nothingKept: "nothing of this ingest was kept") {
            try queue.inTransaction(.immediate) { db in
                let session = IngestSession(db: db)
                result = try body(session)
                try session.markDerivationsPending()
                return .commit
            }
        }
        return result!
    }

    /// Runs `body`, turning SQLite's failures to write into a ``WarehouseError``
    /// that names the warehouse (`path`) and says what was kept (`nothingKept`).
    static func writing(_ path: String, nothingKept: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as DatabaseError where Self.isStorageFailure(error) {
            throw WarehouseError("cannot write the warehouse \(path): \(error.message ?? "\(error.resultCode)") (SQLite \(error.extendedResultCode)); \(nothingKept)")
        }
    }

    /// Whether SQLite failed for want of room or because the disk failed.
    static func isStorageFailure(_ error: DatabaseError) -> Bool {
        [.SQLITE_FULL, .SQLITE_IOERR, .SQLITE_CANTOPEN, .SQLITE_READONLY].contains(error.resultCode)
    }

    /// Runs read-only queries in one consistent snapshot.
    public func read<T>(_ body: (WarehouseReader) throws -> T) throws -> T {
        try queue.read { db in try body(WarehouseReader(db: db)) }
    }

    /// `PRAGMA integrity_check`: "ok" when the file is sound.
    public func integrityCheck() throws -> String {
        try queue.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "" }
    }
}

/// How long rebuilding one derived table took (run.json's "derive …" stages).
public struct DerivationTiming: Sendable {
    public var name: String
    public var seconds: Double

    public init(name: String, seconds: Double) {
        self.name = name
        self.seconds = seconds
    }
}
