/// Users ranked by their month's average activity score: highest first,
/// standard competition ranks (1, 2, 2, 4) for equal averages, then user id
/// (byte order) among ties. Averages are compared as shown, to one decimal,
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
        let keyed = summaries.map { (key: shownTenths($0.averageScore), summary: $0) }
        let sorted = keyed.sorted { a, b in
            if a.key != b.key { return a.key > b.key }
            return a.summary.userId.utf8.lexicographicallyPrecedes(b.summary.userId.utf8)
        }
        var ranked: [Ranked] = []
        ranked.reserveCapacity(sorted.count)
        for (i, item) in sorted.enumerated() {
            let rank = i > 0 && item.key == sorted[i - 1].key ? ranked[i - 1].rank : i + 1
            ranked.append(Ranked(rank: rank, summary: item.summary))
        }
        return ranked
    }

    /// The average in tenths as the reports show it (half away from zero).
    static func shownTenths(_ score: Double) -> Int64 {
        Int64(ActivityScore.format(score, decimals: 1).filter { $0 != "." }) ?? 0
    }
}
