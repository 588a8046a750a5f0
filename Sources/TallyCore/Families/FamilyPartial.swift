/// The partial result of a family over a set of partitions: each
/// partition's rows by key, and the merged summary. Two family partials
/// over disjoint sets of partitions merge into the partial of their union
/// (associative and commutative: rows are kept by key, summaries merged),
/// which is what lets partitions be computed apart and folded in any order.
///
/// ```swift
/// var left = FamilyPartial(family), right = FamilyPartial(family)
/// left.add(family.compute(a)); right.add(family.compute(b))
/// left.merge(right)   // the partial of {a, b}, whichever side computed which
/// ```
public struct FamilyPartial<Family: ReportFamily>: Sendable {
    private var byKey: [PartitionKey: PartitionResult<Family.Rows, Family.Summary>] = [:]
    /// Every partition's summary, merged.
    public private(set) var summary: Family.Summary

    public init(_ family: Family) { summary = family.emptySummary() }

    /// Adds one partition's result. A key added twice is a programming error:
    /// partitions are disjoint by definition.
    public mutating func add(_ result: PartitionResult<Family.Rows, Family.Summary>) {
        precondition(byKey[result.key] == nil, "partition \(result.key) computed twice")
        byKey[result.key] = result
        summary.merge(result.summary)
    }

    /// Adds the partitions of `other` (disjoint from this one's).
    public mutating func merge(_ other: FamilyPartial) {
        for (key, result) in other.byKey {
            precondition(byKey[key] == nil, "partition \(key) computed twice")
            byKey[key] = result
        }
        summary.merge(other.summary)
    }

    /// The partitions' results in key (byte) order.
    public var results: [PartitionResult<Family.Rows, Family.Summary>] {
        byKey.keys.sorted().map { byKey[$0]! }
    }
}
