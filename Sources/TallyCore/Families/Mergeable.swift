/// A partial result that merges with another of its kind: `merge` is
/// associative and commutative, so partial results computed over disjoint
/// parts of the input fold to the same value in any grouping and order.
///
/// ```swift
/// var total = StatementTotals()
/// total.merge(StatementTotals(statementA))
/// total.merge(StatementTotals(statementB))   // == the other order
/// ```
public protocol Mergeable: Sendable {
    /// Adds `other`'s contribution to this one.
    mutating func merge(_ other: Self)
}

extension Mergeable {
    /// This partial result merged with `other`.
    public func merging(_ other: Self) -> Self {
        var merged = self
        merged.merge(other)
        return merged
    }
}
