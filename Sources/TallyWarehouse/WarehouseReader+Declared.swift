/// A report stage read a derived table it did not declare: it would read
/// whatever is committed, stale while the table is rebuilt beside it.
///
/// A stage declares what it reads (`ReportStage.derivedTables` in
/// TallyPipeline); the executor starts it once those tables are committed
/// and hands it a reader limited to them (``WarehouseReading/read(declaring:_:)``).
public struct UndeclaredDerivedTable: Error, CustomStringConvertible, Equatable, Sendable {
    public var table: DerivedTable
    public var description: String {
        "a report read the derived table '\(table.rawValue)' without declaring it: declare it so that it runs once the table is rebuilt"
    }
}

extension WarehouseReader {
    /// Throws ``UndeclaredDerivedTable`` unless this reader may read `table`:
    /// every read method that touches a derived table calls it first.
    ///
    /// ```swift
    /// try warehouse.read(declaring: [.expenseWinners]) { try $0.forEachChallengeKey { _ in } }
    /// // throws UndeclaredDerivedTable(table: .checkinWinners)
    /// ```
    func reading(_ table: DerivedTable) throws(UndeclaredDerivedTable) {
        if let declared, !declared.contains(table) { throw UndeclaredDerivedTable(table: table) }
    }
}
