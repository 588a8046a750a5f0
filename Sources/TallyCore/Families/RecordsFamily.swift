/// A report family over records of one kind the engine supplies: the
/// family says which partition each record belongs to, and the engine
/// groups them (from a warehouse scan or from routed lines), computes each
/// group, merges and finalises, with no code of the family's own in the
/// engine. Its partition is the group (``RecordGroup``): the key, and the
/// key's records in any order.
///
/// - Input (``Record``): a ``FamilyRecord`` kind, as the row rules of its
///   table left it (for expenses, the winning version of each id, live,
///   deleted or failed): which of them counts is the family's rule,
///   applied in ``partitionKey(of:)``.
/// - Rows and summary are `Codable`: a dataflow worker sends them to the
///   merge as one field of a line.
///
/// ```swift
/// struct ExpensesPerTag: RecordsFamily {
///     let name = "tags"
///     func partitionKey(of record: CoupleRows.WinningExpense) -> PartitionKey? {
///         record.fact.map { PartitionKey($0.tag) }   // deletions and failed versions count nowhere
///     }
///     …
/// }
/// ```
public protocol RecordsFamily: ReportFamily where Partition == RecordGroup<Record>, Rows: Codable, Summary: Codable {
    associatedtype Record: FamilyRecord
    /// The partition `record` belongs to; nil when it counts in none.
    func partitionKey(of record: Record) -> PartitionKey?
}

extension RecordsFamily {
    public func key(of partition: RecordGroup<Record>) -> PartitionKey { partition.key }
}

/// One partition of a ``RecordsFamily``: its key and its records, in the
/// order they arrived (a family that needs an order sorts them itself).
public struct RecordGroup<Record: Sendable>: Sendable {
    public var key: PartitionKey
    public var records: [Record]

    public init(key: PartitionKey, records: [Record]) {
        self.key = key
        self.records = records
    }
}

/// The kinds of records the engine supplies to a ``RecordsFamily``.
public enum RecordKind: String, Sendable, CaseIterable {
    /// The winning version of each expense id (``CoupleRows/WinningExpense``).
    case winningExpense = "winning-expense"
}

/// A record the engine supplies, of any kind.
public enum SuppliedRecord: Sendable {
    case winningExpense(CoupleRows.WinningExpense)

    public var kind: RecordKind {
        switch self {
        case .winningExpense: .winningExpense
        }
    }
}

/// A record the engine can supply, by its kind.
public protocol FamilyRecord: Sendable {
    static var kind: RecordKind { get }
    /// The record `supplied` holds; nil for a record of another kind.
    init?(_ supplied: SuppliedRecord)
}

extension CoupleRows.WinningExpense: FamilyRecord {
    public static var kind: RecordKind { .winningExpense }

    public init?(_ supplied: SuppliedRecord) {
        switch supplied {
        case .winningExpense(let expense): self = expense
        }
    }
}
