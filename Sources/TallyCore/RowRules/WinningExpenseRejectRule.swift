/// Whether the winning version of an expense is rejected outside its
/// couple's statement, and why: a version that failed validation at ingest
/// is rejected with the reason its validation gave; a valid version whose
/// couple does not exist is an orphan (``OrphanRule``); a deletion is
/// never rejected (it removes the expense). The first that applies, in
/// that order, decides.
///
/// ```swift
/// WinningExpenseRejectRule.reject(error: nil, deleted: false, coupleId: "c9", coupleExists: false)
/// // "expense of unknown couple 'c9'" (unknown_couple)
/// WinningExpenseRejectRule.reject(error: .empty("paidBy"), deleted: false, coupleId: "c1", coupleExists: true)
/// // "paidBy is empty" (field_empty)
/// ```
public enum WinningExpenseRejectRule {
    /// The reason the winning version is rejected, or nil when it is not.
    /// - Parameters:
    ///   - error: the reason its validation failed at ingest, if it did.
    ///   - deleted: whether the version deletes the expense.
    public static func reject(error: RejectReason?, deleted: Bool, coupleId: String, coupleExists: Bool) -> RejectReason? {
        if deleted { return nil }
        if let error { return error }
        return OrphanRule.reject(.expense, parentId: coupleId, parentExists: coupleExists)
    }
}
