import TallyWarehouse

/// What a unit of work reads the warehouse through: `base`, limited to the
/// derived tables the unit declared. Reading any other throws
/// ``TallyWarehouse/UndeclaredDerivedTable``, so a forgotten declaration
/// fails (in tests and in runs) instead of reading a table still being
/// rebuilt.
///
/// ```swift
/// let reads = DeclaredReads(connection, declared: [.checkinWinners])
/// try reads.read { try $0.forEachChallengeKey { _ in } }   // declared: reads
/// try reads.read { try $0.forEachCoupleKey { _ in } }   // throws: expense winners undeclared
/// ```
final class DeclaredReads: WarehouseReading {
    let base: any WarehouseReading
    let declared: Set<DerivedTable>

    init(_ base: any WarehouseReading, declared: Set<DerivedTable>) {
        self.base = base
        self.declared = declared
    }

    func read<T>(_ body: (WarehouseReader) throws -> T) throws -> T {
        try base.read(declaring: declared, body)
    }

    func read<T>(declaring tables: Set<DerivedTable>, _ body: (WarehouseReader) throws -> T) throws -> T {
        try base.read(declaring: declared.intersection(tables), body)
    }
}
