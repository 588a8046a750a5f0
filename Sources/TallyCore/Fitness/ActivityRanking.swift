/// Users ranked by their month's average activity score: highest first,
/// standard competition ranks (1, 2, 2, 4) for equal averages, then user id
/// (byte order) among ties (``CompetitionRanking``). Averages are compared as shown, to one decimal,
/// so two users the report shows as `72.4` share a rank.
///
/// ```swift
/// ActivityRanking.rank(summaries).map { ($0.rank, $0.summary.userId) }   // [(1, "u2"), (2, "u1"), (2, "u3")]
/// ```
public enum ActivityRanking {
    public struct Ranked: Hashable, Sendable {
        public var rank: Int
        public var summary: ActivitySummary
    }

    public static func rank(_ summaries: [ActivitySummary]) -> [Ranked] {
        let keyed = summaries.map { (tenths: shownTenths($0.averageScore), summary: $0) }
        return CompetitionRanking.rank(keyed, ahead: { $0.tenths > $1.tenths }, id: { $0.summary.userId })
            .map { Ranked(rank: $0.rank, summary: $0.item.summary) }
    }

    /// The average in tenths as the reports show it (half away from zero).
    static func shownTenths(_ score: Double) -> Int64 {
        Int64(ActivityScore.format(score, decimals: 1).filter { $0 != "." }) ?? 0
    }
}
