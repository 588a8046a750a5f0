/// How one customer's MRR moved over a month, as ChartMogul splits it.
public enum MRRMovement: String, Sendable, CaseIterable, Hashable {
    /// From nothing to something, for a customer never paid before.
    case new
    /// More MRR than at the start (an upgrade).
    case expansion
    /// Less MRR, but still some (a downgrade).
    case contraction
    /// From something to nothing.
    case churn
    /// From nothing to something, for a customer who had paid before.
    case reactivation

    /// The sign every report gives the bucket's amount: +1 for MRR gained
    /// (new, expansion, reactivation), −1 for MRR lost (contraction, churn),
    /// so start + the signed movements = end and they sum to the net change.
    ///
    /// ```swift
    /// MRRMovement.churn.sign * 29_400   // -29_400: churn of 294.00 shows as -294.00
    /// ```
    public var sign: Int64 {
        switch self {
        case .new, .expansion, .reactivation: return 1
        case .contraction, .churn: return -1
        }
    }

    /// The bucket of a move from `start` to `end` MRR (minor units), or nil
    /// when nothing moved. `paidBefore`: whether the customer had ever been
    /// paid before the month began.
    public static func classify(start: Int64, end: Int64, paidBefore: Bool) -> MRRMovement? {
        switch (start > 0, end > 0) {
        case (false, true): return paidBefore ? .reactivation : .new
        case (true, false): return .churn
        case (true, true): return end > start ? .expansion : end < start ? .contraction : nil
        case (false, false): return nil
        }
    }
}
