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

    /// Users split by ``minimumDays``: those with at least `minimumDays` days of data, ranked
    /// (``rank(_:)``), and the rest, not ranked, by days of data (most first) then user id
    /// (byte order). A user with three days of data is not ranked among users with thirty.
    ///
    /// ```swift
    /// let standing = ActivityRanking.standing(summaries, minimumDays: 7)
    /// standing.unranked.map { ($0.userId, $0.days) }   // [("u9", 3)]
    /// ```
    public static func standing(_ summaries: [ActivitySummary], minimumDays: Int) -> Standing {
        let unranked = summaries.filter { $0.days < minimumDays }.sorted { a, b in
            a.days != b.days ? a.days > b.days : ByteOrder.precedes(a.userId, b.userId)
        }
        return Standing(ranked: rank(summaries.filter { $0.days >= minimumDays }), unranked: unranked,
                        minimumDays: minimumDays)
    }

    /// The users ranked and the users with too few days of data to be ranked.
    public struct Standing: Hashable, Sendable {
        public var ranked: [Ranked]
        /// Users with fewer than ``minimumDays`` days of data.
        public var unranked: [ActivitySummary]
        public var minimumDays: Int
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
