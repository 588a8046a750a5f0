import GRDB
import TallyCore

extension Warehouse {
    /// Stores `board` as the snapshot of its challenge on its as-of day,
    /// replacing an earlier snapshot of that day, in one transaction.
    public func storeLeaderboard(_ board: Leaderboard) throws {
        try storeLeaderboards([board])
    }

    /// Stores several snapshots in one transaction (see ``storeLeaderboard(_:)``).
    public func storeLeaderboards(_ boards: [Leaderboard]) throws {
        try queue.write { db in
            let delete = try db.makeStatement(sql: "DELETE FROM leaderboard_snapshot WHERE challenge_id = ? AND as_of = ?")
            let insert = try db.makeStatement(sql: """
                INSERT INTO leaderboard_snapshot (challenge_id, as_of, user_id, rank, display_name, checkins, minutes,
                    rank_change, current_streak, best_streak) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for board in boards {
                let asOf = board.asOf.description
                try delete.execute(arguments: [board.challenge.id, asOf])
                for e in board.entries {
                    try insert.execute(arguments: [board.challenge.id, asOf, e.userId, e.rank, e.displayName, e.checkins,
                                                   e.minutes, e.rankChange, e.streaks.current, e.streaks.best])
                }
            }
        }
    }
}
