/// Where a challenge stands on a board's as-of day: not started, running
/// (day N of its M days, K days left after the as-of day), or finished.
///
/// Days are local days, both dates of the challenge included: a challenge
/// from 20/10 to 03/12 has 45 days; as of 31/10 it is on day 12 with 33 days
/// left. The as-of day counts as played (check-ins count up to its end), so
/// on the end date a challenge is running with 0 days left, and it is
/// finished from the next day on (``Leaderboard/isFinal``).
///
/// ```swift
/// ChallengeProgress.of(challenge, asOf: day("2026-10-31"))   // .running(day: 12, of: 45, daysLeft: 33)
/// ```
public enum ChallengeProgress: Hashable, Sendable {
    /// The challenge starts `daysToStart` days after the as-of day.
    case upcoming(daysToStart: Int)
    /// Day `day` of `of`, with `daysLeft` days after the as-of day (`of − day`).
    case running(day: Int, of: Int, daysLeft: Int)
    /// The challenge ended on `endDate` after `days` days.
    case finished(endDate: LocalDate, days: Int)

    /// The progress of `challenge` as of the local day `asOf`.
    public static func of(_ challenge: Challenge, asOf: LocalDate) -> ChallengeProgress {
        let start = challenge.startDate.daysSinceEpoch
        let end = challenge.endDate.daysSinceEpoch
        let today = asOf.daysSinceEpoch
        let length = Int(end - start + 1)
        if today < start { return .upcoming(daysToStart: Int(start - today)) }
        if today > end { return .finished(endDate: challenge.endDate, days: length) }
        return .running(day: Int(today - start + 1), of: length, daysLeft: Int(end - today))
    }
}

extension Leaderboard {
    /// The challenge's progress as of the board's day (``ChallengeProgress``).
    public var progress: ChallengeProgress { ChallengeProgress.of(challenge, asOf: asOf) }

    /// Whether the board shows a rank change. A final board does not: its
    /// standings no longer move, and its day is the end date, not the as-of day
    /// the change would compare from. (The CSV keeps `rankChange` for every board.)
    public var showsRankChange: Bool { !isFinal }
}
