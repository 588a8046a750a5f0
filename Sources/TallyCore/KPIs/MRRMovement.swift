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
