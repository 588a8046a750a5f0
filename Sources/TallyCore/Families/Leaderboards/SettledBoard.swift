/// When a challenge key's result stops depending on the as-of day, so that a
/// later run may take it as stored instead of reading the key's check-ins
/// again (the leaderboards' per-key state).
///
/// A board as of day D is *settled* when the challenge ended before D, the
/// day ranks are compared with (D − rankChangeDays) is on or after its end,
/// and no check-in of the key (counted or not) is dated after D. Then, for
/// every later day D′, the board as of D′ is the board as of D with D′ and
/// D′ − rankChangeDays as its days: the standings, the ranks compared with
/// and the streaks are all taken at the challenge's end, the uncounted
/// check-ins listed are those up to D (all of them), and the summary counts
/// the same. A key without a challenge (its check-ins are orphans) is always
/// settled: its rejects do not depend on the day. A challenge that has not
/// ended, or has check-ins after D, is not.
///
/// ```swift
/// let result = family.compute(key: rows)
/// if SettledBoard.isSettled(result, rows: rows, settings: family.settings) {
///     // stored; next month: SettledBoard.rebased(stored, settings: nextMonth.settings)
/// }
/// ```
public enum SettledBoard {
    /// Whether `result`, computed from `rows` under `settings`, stays the same
    /// (but for its days) as of every later day.
    public static func isSettled(_ result: LeaderboardsFamily.KeyResult, rows: ChallengeRows,
                                 settings: LeaderboardsFamily.Settings) -> Bool {
        guard let challenge = rows.challenge else { return true }
        guard result.board != nil else { return false }
        let asOf = settings.asOf
        let comparedWith = asOf.adding(days: -settings.rankChangeDays)
        guard challenge.endDate < asOf, challenge.endDate <= comparedWith else { return false }
        return rows.checkins.allSatisfy { settings.timezone.localDate(of: $0.createdAt) <= asOf }
    }

    /// A settled result as of `settings.asOf` (on or after the day it was
    /// computed as of): its board's days moved, everything else as stored.
    public static func rebased(_ result: LeaderboardsFamily.KeyResult,
                               settings: LeaderboardsFamily.Settings) -> LeaderboardsFamily.KeyResult {
        var result = result
        if var board = result.board?.rows.board {
            board.asOf = settings.asOf
            board.comparedWith = settings.asOf.adding(days: -settings.rankChangeDays)
            result.board?.rows.board = board
        }
        return result
    }
}
