import TallyCore

/// The leaderboards family's CSV, `leaderboard.csv`: one row per ranked
/// user of every started challenge, challenges in id order, users by rank.
///
/// ```swift
/// for row in LeaderboardCSV.rows(board) { try writer.writeRow(row) }
/// ```
public enum LeaderboardCSV {
    public static let layout = CSVLayout("leaderboard.csv", [
        "challengeId", "groupId", "asOf", "rank", "userId", .text("displayName"), "checkins", "minutes", "rankChange",
        "newcomer", "currentStreak", "bestStreak"])

    /// The board's rows.
    public static func rows(_ board: Leaderboard) -> [[String]] {
        let c = board.challenge
        return board.entries.map { e in
            [c.id, c.groupId, board.asOf.description, String(e.rank), e.userId, e.displayName,
             String(e.checkins), String(e.minutes), e.rankChange.map(String.init) ?? "",
             e.isNewcomer ? "true" : "false", String(e.streaks.current), String(e.streaks.best)]
        }
    }
}
