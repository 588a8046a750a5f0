/// The one stage that applies a row rule to a key's group: the items a
/// transport holds (a rowid, a record, a file and line) are described to
/// the rule, judged as one group, and handed back sorted by verdict.
/// A transport keeps only what is its own: where the counted rows go and
/// how the superseded and rejected ones are accounted.
///
/// ```swift
/// let outcomes = WhichRowsCount.sort(versions, by: ExpenseVersionRule()) { i, v in
///     ExpenseVersionRule.Version(updatedAt: v.updatedAt, loadSeq: v.file, line: v.line, row: Int64(i))
/// }
/// outcomes.counted      // [the version that counts]
/// outcomes.superseded   // the others, in their order
/// ```
public enum WhichRowsCount {
    /// Judges `items`, one key's group, by `rule`; `describe` gives the
    /// rule's view of the item at an index of the group. Every item lands
    /// in exactly one outcome, and each outcome keeps the items' order.
    ///
    /// The only item of a one-row group counts without being described
    /// (every rule counts it): most keys have one row.
    ///
    /// Inlinable, so that each caller's module compiles it for its own rule
    /// and item types: called once per key, a generic call across modules
    /// looked up the types' metadata at run time on every call.
    @inlinable
    public static func sort<Rule: RowRule, Item>(_ items: [Item], by rule: Rule,
                                                 describe: (_ index: Int, _ item: Item) -> Rule.Row) -> RowOutcomes<Item> {
        guard items.count > 1 else { return RowOutcomes(counted: items, superseded: [], rejected: []) }
        let verdicts = rule.verdicts(items.enumerated().map { describe($0, $1) })
        precondition(verdicts.count == items.count, "a rule gives one verdict per row")
        var counted: [Item] = [], superseded: [Item] = [], rejected: [(item: Item, reason: RejectReason)] = []
        for (item, verdict) in zip(items, verdicts) {
            switch verdict {
            case .counts: counted.append(item)
            case .superseded: superseded.append(item)
            case .rejected(let reason): rejected.append((item, reason))
            }
        }
        return RowOutcomes(counted: counted, superseded: superseded, rejected: rejected)
    }

    /// Marks the repeats among `items`, the counted check-ins of one
    /// workout, by ``DuplicateWorkoutRule``; `describe` gives the rule's
    /// view of an item. Returns each item, in order, with the original it
    /// repeats (nil for the original itself and for the only check-in of a
    /// workout).
    ///
    /// ```swift
    /// WhichRowsCount.duplicates(checkins) { $0.ruleCheckin }
    /// // [(a, original: nil), (b, original: a)]
    /// ```
    public static func duplicates<Item>(_ items: [Item],
                                        describe: (Item) -> DuplicateWorkoutRule.Checkin) -> [(item: Item, original: Item?)] {
        guard items.count > 1 else { return items.map { ($0, nil) } }
        let verdicts = DuplicateWorkoutRule.verdicts(items.map(describe))
        precondition(verdicts.count == items.count, "a rule gives one verdict per row")
        return zip(items, verdicts).map { item, verdict in
            switch verdict {
            case .original: (item, nil)
            case .duplicate(let original): (item, items[original])
            }
        }
    }
}

/// The items of one key's group sorted by their verdicts
/// (``WhichRowsCount/sort(_:by:describe:)``), each list in the group's order.
public struct RowOutcomes<Item> {
    /// The items that count: one for a non-empty group.
    public let counted: [Item]
    /// The items another item of the key counts instead of.
    public let superseded: [Item]
    /// The items refused, each with the reason stored with its reject.
    public let rejected: [(item: Item, reason: RejectReason)]

    @usableFromInline
    init(counted: [Item], superseded: [Item], rejected: [(item: Item, reason: RejectReason)]) {
        self.counted = counted
        self.superseded = superseded
        self.rejected = rejected
    }
}
