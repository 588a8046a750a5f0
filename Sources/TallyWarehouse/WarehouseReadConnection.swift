import GRDB

/// Reads the warehouse in snapshots (``read(_:)``): the warehouse itself, or
/// a second connection to it (``WarehouseReadConnection``) for work that runs
/// beside the first.
public protocol WarehouseReading: AnyObject {
    /// Runs `body` in one read transaction.
    func read<T>(_ body: (WarehouseReader) throws -> T) throws -> T
    /// Runs `body` in one read transaction with a reader that reads only the
    /// derived tables in `declared` (any other throws ``UndeclaredDerivedTable``).
    func read<T>(declaring declared: Set<DerivedTable>, _ body: (WarehouseReader) throws -> T) throws -> T
}

extension Warehouse: WarehouseReading {
    public func read<T>(declaring declared: Set<DerivedTable>, _ body: (WarehouseReader) throws -> T) throws -> T {
        try queue.read { db in try body(WarehouseReader(db: db, declared: declared)) }
    }
}

/// A read-only connection to a warehouse this process has open, so that
/// report stages can read beside one another: a ``Warehouse`` serialises
/// everything on its one connection.
///
/// It takes no lock of its own (the ``Warehouse`` holds the process's). In
/// rollback-journal mode it waits while the main connection commits, as the
/// main connection waits for its reads to end (the readers of the moment);
/// in WAL mode (``Warehouse/allowReadsBesideWrites()``) neither waits.
public final class WarehouseReadConnection: WarehouseReading {
    private let queue: DatabaseQueue

    init(path: String) throws {
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(Warehouse.busyTimeout)
        config.prepareDatabase { db in try Warehouse.configureMemory(db) }
        do {
            queue = try DatabaseQueue(path: path, configuration: config)
        } catch let error as DatabaseError {
            throw WarehouseError("cannot open the warehouse \(path) to read: \(error.message ?? "\(error)")")
        }
    }

    public func read<T>(_ body: (WarehouseReader) throws -> T) throws -> T {
        try queue.read { db in try body(WarehouseReader(db: db)) }
    }

    public func read<T>(declaring declared: Set<DerivedTable>, _ body: (WarehouseReader) throws -> T) throws -> T {
        try queue.read { db in try body(WarehouseReader(db: db, declared: declared)) }
    }

    /// Closes the connection now rather than when the last reference goes
    /// (the warehouse leaves WAL mode only with no other connection open:
    /// ``Warehouse/endReadsBesideWrites()``).
    public func close() throws {
        try queue.close()
    }
}

extension Warehouse {
    /// How long a connection waits for another connection of this process
    /// to finish (a commit waits for reads beside it to end).
    static let busyTimeout: Double = 600

    /// A second, read-only connection to this warehouse (see ``WarehouseReadConnection``).
    public func openReadConnection() throws -> WarehouseReadConnection {
        try WarehouseReadConnection(path: path)
    }
}
