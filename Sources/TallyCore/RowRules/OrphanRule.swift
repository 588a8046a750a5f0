/// Whether a row whose parent may be missing counts, and in what words it
/// is rejected when not: a couple's member, card, agreement, settlement or
/// winning expense whose couple no `couples` row has, and a counted
/// check-in whose challenge no `challenges` row has.
///
/// The caller looks the parent up (the rule does no I/O); the rule decides
/// and words the reason. A row without its parent belongs to no partition,
/// so no report rule sees it: this is its one verdict.
///
/// ```swift
/// OrphanRule.reject(.card, parentId: "c9", parentExists: false)   // "card of unknown couple 'c9'" (unknown_couple)
/// OrphanRule.reject(.card, parentId: "c1", parentExists: true)    // nil
/// ```
public enum OrphanRule {
    /// The kinds of rows that need a parent.
    public enum Child: String, Sendable, CaseIterable {
        /// Rows of the expenses dataset, whose parent is a couple.
        case member, card, agreement, settlement, expense
        /// A check-in, whose parent is a challenge.
        case checkin
    }

    /// The reason `child`, naming parent `parentId`, is rejected, or nil
    /// when its parent exists.
    public static func reject(_ child: Child, parentId: String, parentExists: Bool) -> RejectReason? {
        parentExists ? nil : .orphan(child, parentId: parentId)
    }
}
