import GRDB
import TallyCore

extension WarehouseReader {
    /// Streams every record of `kind` the warehouse holds, as the row rules
    /// of its table left it (for expenses, the winning version of each id,
    /// live, deleted or failed), for a ``TallyCore/RecordsFamily``: the scan
    /// decides nothing, the family says which records count and where.
    /// Reads the derived table the kind needs (``derivedTable(for:)``).
    public func forEachRecord(_ kind: RecordKind, _ body: (SuppliedRecord) throws -> Void) throws {
        try reading(Self.derivedTable(for: kind))
        switch kind {
        case .winningExpense:
            let scan = try winningExpenses(only: nil, paths: try displayPaths())
            while let key = try smallestNextKey([scan]) {
                for expense in try scan.take(key: key) { try body(.winningExpense(expense)) }
            }
        }
    }

    /// The derived table records of `kind` are read through.
    public static func derivedTable(for kind: RecordKind) -> DerivedTable {
        switch kind {
        case .winningExpense: .expenseWinners
        }
    }
}
