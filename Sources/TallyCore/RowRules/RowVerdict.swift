/// What a version rule decides for one row of a key group (the rows that
/// share a key, such as an expense id).
///
/// Exactly one row of a group counts unless the group is empty; the others
/// are superseded (a better version of the key exists) or rejected (the row
/// is refused, with a reason worded for `rejects.csv`).
///
/// ```swift
/// ExpenseVersionRule().verdicts([old, new])   // [.superseded, .counts]
/// ```
public enum RowVerdict: Hashable, Sendable {
    /// The row is the version of its key that counts.
    case counts
    /// Another row of its key counts instead.
    case superseded
    /// The row is refused; `reason` is what is stored with the reject.
    case rejected(reason: RejectReason)
}
