/// One line of a challenge's leaderboard.
public struct LeaderboardEntry: Hashable, Sendable {
    /// Standard competition rank (1, 2, 2, 4).
    public var rank: Int
    public var userId: String
    /// The name on the user's latest counted check-in.
    public var displayName: String
    /// Points: counted check-ins.
    public var checkins: Int
    /// Minutes over counted check-ins.
    public var minutes: Int
    /// Earlier rank − current rank (positive: moved up); nil for a newcomer.
    public var rankChange: Int?
    public var streaks: Streaks

    public init(rank: Int, userId: String, displayName: String, checkins: Int, minutes: Int, rankChange: Int?,
                streaks: Streaks) {
        self.rank = rank
        self.userId = userId
        self.displayName = displayName
        self.checkins = checkins
        self.minutes = minutes
        self.rankChange = rankChange
        self.streaks = streaks
    }

    /// Not on the board the comparison day.
    public var isNewcomer: Bool { rankChange == nil }
}

/// A challenge's leaderboard as of a local day.
public struct Leaderboard: Hashable, Sendable {
    public var challenge: Challenge
    public var asOf: LocalDate
    /// The day ranks are compared with (`asOf` − rankChangeDays).
    public var comparedWith: LocalDate
    /// By rank, then user id (byte order) among ties.
    public var entries: [LeaderboardEntry]
    /// The challenge's check-ins up to the as-of day that do not count, with why, by participant
    /// (user id), day and check-in id (``UncountedCheckin/precedes(_:_:)``).
    public var uncounted: [UncountedCheckin] = []

    /// Whether the challenge ended before the as-of day: its standings are final.
    public var isFinal: Bool { challenge.endDate < asOf }

    /// The day the standings describe: the as-of day, or the end date of a challenge that ended before it.
    public var standingsDay: LocalDate { min(asOf, challenge.endDate) }

    /// Each entry's name as shown, told apart when two users share one (``DistinctNames``).
    public var shownNames: [String] { DistinctNames.shown(entries.map { ($0.userId, $0.displayName) }) }

    public init(challenge: Challenge, asOf: LocalDate, comparedWith: LocalDate, entries: [LeaderboardEntry]) {
        self.challenge = challenge
        self.asOf = asOf
        self.comparedWith = comparedWith
        self.entries = entries
    }
}

/// Builds leaderboards from counted check-ins.
///
/// Points are counted check-ins up to the end of the as-of day; ties are
/// broken by total minutes; users still tied share a rank (standard
/// competition ranking: 1, 2, 2, 4). Only users with at least one counted
/// check-in are listed. `rankChange` compares with the leaderboard as of
/// `rankChangeDays` earlier: earlier rank − current rank, nil (a newcomer)
/// when the user was not on that board, which includes a challenge that had
/// not started yet. Streaks are counted as of the standings day: the end
/// date of a challenge that ended before the as-of day (a finished
/// challenge keeps the streak it ended with).
public enum LeaderboardBuilder {
    public static func build(challenge: Challenge, counted: [CountedCheckin], asOf: LocalDate,
                             rankChangeDays: Int) -> Leaderboard {
        let comparedWith = asOf.adding(days: -rankChangeDays)
        let earlier = challenge.startDate <= comparedWith
            ? Dictionary(uniqueKeysWithValues: ranked(counted, through: comparedWith).map { ($0.userId, $0.rank) })
            : [:]
        var daysByUser: [String: [LocalDate]] = [:]
        for c in counted where c.day <= asOf { daysByUser[c.userId, default: []].append(c.day) }
        let entries = ranked(counted, through: asOf).map { row in
            LeaderboardEntry(rank: row.rank, userId: row.userId, displayName: row.displayName, checkins: row.checkins,
                             minutes: row.minutes, rankChange: earlier[row.userId].map { $0 - row.rank },
                             streaks: Streaks.of(days: daysByUser[row.userId] ?? [], asOf: min(asOf, challenge.endDate)))
        }
        return Leaderboard(challenge: challenge, asOf: asOf, comparedWith: comparedWith, entries: entries)
    }

    /// A user's totals and rank.
    public struct RankedRow: Hashable, Sendable {
        public var rank: Int
        public var userId: String
        public var displayName: String
        public var checkins: Int
        public var minutes: Int
    }

    /// Totals per user of the check-ins on or before `day`, ranked.
    public static func ranked(_ counted: [CountedCheckin], through day: LocalDate) -> [RankedRow] {
        var totals: [String: (checkins: Int, minutes: Int, name: String, latest: Timestamp)] = [:]
        for c in counted where c.day <= day {
            var t = totals[c.userId] ?? (0, 0, c.displayName, c.createdAt)
            t.checkins += 1
            t.minutes += c.minutes
            if c.createdAt >= t.latest { t.latest = c.createdAt; t.name = c.displayName }
            totals[c.userId] = t
        }
        let rows = totals.map { RankedRow(rank: 0, userId: $0.key, displayName: $0.value.name,
                                          checkins: $0.value.checkins, minutes: $0.value.minutes) }
        return rank(rows)
    }

    /// Sorts by points then minutes (both descending), then user id, with
    /// standard competition ranks (``CompetitionRanking``).
    public static func rank(_ rows: [RankedRow]) -> [RankedRow] {
        CompetitionRanking.rank(rows, ahead: { a, b in (a.checkins, a.minutes) > (b.checkins, b.minutes) }, id: \.userId)
            .map { var row = $0.item; row.rank = $0.rank; return row }
    }
}
