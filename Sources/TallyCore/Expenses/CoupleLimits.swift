/// Bounds on what one couple's rows may add up to, so that a hostile export
/// cannot make a statement's Int64 sums overflow (a crash) or make one row
/// expand into millions of synthetic expenses.
///
/// Each amount is at most ``Money/maxMinorMagnitude`` when read, but amounts
/// converted with a large fx rate, or many of them, could still add up past
/// Int64. Statements add every expense and settlement of a couple (as paid,
/// as shares, in the opening balance); with the magnitudes of all of them
/// summing to at most ``maxTotal`` twice (real rows, agreement months), no
/// partial sum can exceed 8·10^18 < Int64.max.
public enum CoupleLimits {
    /// The most the magnitudes of a couple's expenses and settlements (and,
    /// separately, of its agreements' monthly expenses) may sum to, in minor
    /// units: 2·10^18 (twenty quadrillion BRL).
    public static let maxTotal: Int128 = 2_000_000_000_000_000_000

    /// The most months an agreement may run up to a statement's month: 100 years.
    public static let maxAgreementMonths = 1200

    /// The reason an item that would pass ``maxTotal`` is left out.
    static func overTotal(_ coupleId: String) -> String {
        "would take the totals of couple \(coupleId) past 2·10^18 minor units, more than tally adds up exactly"
    }
}
