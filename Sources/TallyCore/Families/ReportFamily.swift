/// A report family as one unit: how its input is partitioned, what one
/// partition computes, how partial results merge, and how the merged result
/// becomes the family's report.
///
/// - **Partition key** (``key(of:)``): a couple, a challenge, a user. Keys
///   compare as bytes (``PartitionKey``), the order every report lists its
///   partitions in.
/// - **Per-partition computation** (``compute(_:)``): pure; its result has two
///   parts: the partition's own report rows (``PartitionResult/rows``,
///   rendered in key order) and its contribution to the family's totals
///   (``PartitionResult/summary``).
/// - **Merge** (``Mergeable/merge(_:)`` of ``Summary``): associative and
///   commutative, with ``emptySummary()`` as its identity, so partitions can
///   be computed anywhere (threads, processes, machines) and folded in any
///   grouping and order.
/// - **Finalisation** (``finalise(_:)``): the merged summary becomes what the
///   family reports beside its rows (totals, rankings, checks).
///
/// `tally run` computes partitions on every core, renders each partition's
/// rows in key order and merges the summaries as they arrive; ``fold(_:)``
/// is the same computation written as a plain fold, the definition every
/// other schedule must equal.
///
/// ```swift
/// let family = StatementsFamily(settings: settings)
/// var summary = family.emptySummary()
/// for partition in couplesInKeyOrder {
///     let result = family.compute(partition)
///     render(result.rows)
///     summary.merge(result.summary)
/// }
/// let report = family.finalise(summary)
/// ```
public protocol ReportFamily: Sendable {
    /// Everything loaded for one key.
    associatedtype Partition: Sendable
    /// One partition's report rows (its lines of the family's CSVs, its own files).
    associatedtype Rows: Sendable
    /// What one partition adds to the family's totals.
    associatedtype Summary: Mergeable
    /// The family's finalised totals.
    associatedtype Report: Sendable

    /// The family's name, as run.json and the terminal summary give it.
    var name: String { get }
    /// The partition's key.
    func key(of partition: Partition) -> PartitionKey
    /// What one partition gives. Pure: the same partition always gives the same result.
    func compute(_ partition: Partition) -> PartitionResult<Rows, Summary>
    /// The identity of ``Summary``'s merge.
    func emptySummary() -> Summary
    /// The merged summary of every partition, as the family reports it.
    func finalise(_ summary: Summary) -> Report
}

/// What one partition of a family gives: its key, its rows and its summary.
public struct PartitionResult<Rows: Sendable, Summary: Sendable>: Sendable {
    public var key: PartitionKey
    public var rows: Rows
    public var summary: Summary

    public init(key: PartitionKey, rows: Rows, summary: Summary) {
        self.key = key
        self.rows = rows
        self.summary = summary
    }
}

extension ReportFamily {
    /// The family over `partitions` (any order), by definition: every
    /// partition computed, the rows ordered by key, the summaries merged,
    /// the merge finalised. Two partitions with one key are a caller's error.
    public func fold(_ partitions: some Sequence<Partition>) -> (rows: [PartitionResult<Rows, Summary>], report: Report) {
        var partial = FamilyPartial(self)
        for partition in partitions { partial.add(compute(partition)) }
        return (partial.results, finalise(partial.summary))
    }
}
