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
            let snapshots = try LeaderboardSnapshots(db)
            for board in boards { try snapshots.store(board) }
        }
    }
}

/// Writes leaderboard snapshots (`leaderboard_snapshot`) within a transaction.
final class LeaderboardSnapshots {
    private let delete: Statement
    private let insert: Statement
    private let db: Database

    init(_ db: Database) throws {
        self.db = db
        delete = try db.makeStatement(sql: "DELETE FROM leaderboard_snapshot WHERE challenge_id = ? AND as_of = ?")
        insert = try db.makeStatement(sql: """
            INSERT INTO leaderboard_snapshot (challenge_id, as_of, user_id, rank, display_name, checkins, minutes,
                rank_change, current_streak, best_streak) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
    }

    /// Stores `board` as the snapshot of its challenge on its as-of day, replacing an earlier one of that day,
    /// and moves the counter of snapshot writes (see `reportInputsDigest()`).
    func store(_ board: Leaderboard) throws {
        let asOf = board.asOf.description
        try delete.execute(arguments: [board.challenge.id, asOf])
        for e in board.entries {
            try insert.execute(arguments: [board.challenge.id, asOf, e.userId, e.rank, e.displayName, e.checkins,
                                           e.minutes, e.rankChange, e.streaks.current, e.streaks.best])
        }
        try PublicationSchema.countSnapshotWrite(db)
    }
}
