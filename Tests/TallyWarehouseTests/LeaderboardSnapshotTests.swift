import GRDB
import TallyCore
import Testing
@testable import TallyWarehouse

@Suite("Leaderboard snapshots")
struct LeaderboardSnapshotTests {
    private func date(_ text: String) throws -> LocalDate { try #require(LocalDate.parse(text)) }

    private func board(asOf day: String, ranks: [(String, Int)]) throws -> Leaderboard {
        let challenge = Challenge(id: "c1", groupId: "g1", name: "October", startDate: try date("2026-10-01"),
                                  endDate: try date("2026-10-31"))
        let entries = ranks.map { user, rank in
            LeaderboardEntry(rank: rank, userId: user, displayName: user.uppercased(), checkins: 10 - rank, minutes: 30,
                             rankChange: nil, streaks: Streaks(current: 1, best: 2))
        }
        return Leaderboard(challenge: challenge, asOf: try date(day), comparedWith: try date(day),
                           entries: entries)
    }

    private func snapshotRows(_ warehouse: Warehouse) throws -> [String] {
        try warehouse.read {
            try String.fetchAll($0.db, sql: "SELECT as_of || ' ' || user_id || ' ' || rank FROM leaderboard_snapshot ORDER BY as_of, rank")
        }
    }

    private func digest(_ warehouse: Warehouse) throws -> String { try warehouse.read { try $0.reportInputsDigest() } }

    @Test("every stored board moves the digest, a rewrite of the same day too, and replaces that day's rows")
    func everyWriteMovesTheDigest() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        let empty = try digest(warehouse)
        try warehouse.storeLeaderboard(try board(asOf: "2026-10-10", ranks: [("a", 1), ("b", 2)]))
        let first = try digest(warehouse)
        #expect(first != empty)
        // The same day again (a rerun): the rows are replaced, and the digest still moves,
        // because reports published before may have read the earlier rows.
        try warehouse.storeLeaderboard(try board(asOf: "2026-10-10", ranks: [("b", 1), ("a", 2)]))
        let second = try digest(warehouse)
        #expect(second != first)
        #expect(try snapshotRows(warehouse) == ["2026-10-10 b 1", "2026-10-10 a 2"])
        // Reading does not move it.
        #expect(try digest(warehouse) == second)
    }

    @Test("snapshots are stored together: one that cannot be stored leaves the others out and the digest as it was")
    func aFailedStoreLeavesTheDigest() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        let before = try digest(warehouse)
        let good = try board(asOf: "2026-10-09", ranks: [("a", 1)])
        let repeatedUser = try board(asOf: "2026-10-10", ranks: [("a", 1), ("a", 2)])   // the key (challenge, day, user) twice
        #expect(throws: DatabaseError.self) { try warehouse.storeLeaderboards([good, repeatedUser]) }
        #expect(try digest(warehouse) == before)
        #expect(try snapshotRows(warehouse).isEmpty)
    }

    @Test("a warehouse made before v9 loses the per-row triggers and keeps its counter")
    func upgradeDropsTheTriggers() throws {
        let path = try legacyWarehouse(upTo: "v8: subscription events read from the log", """
            INSERT INTO leaderboard_snapshot (challenge_id, as_of, user_id, rank, display_name, checkins, minutes,
                rank_change, current_streak, best_streak) VALUES ('c1', '2026-10-09', 'a', 1, 'A', 3, 30, NULL, 1, 1);
            """)
        let warehouse = try Warehouse(path: path)
        let triggers = try warehouse.read { try Int.fetchOne($0.db, sql: "SELECT count(*) FROM sqlite_schema WHERE type = 'trigger'") }
        #expect(triggers == 0)
        // The v8 trigger counted the legacy row; the counter carries on from there.
        let counter = { try warehouse.read { try Int.fetchOne($0.db, sql: "SELECT value FROM warehouse_counter") } }
        #expect(try counter() == 1)
        try warehouse.storeLeaderboard(try board(asOf: "2026-10-10", ranks: [("a", 1), ("b", 2)]))
        #expect(try counter() == 2)
        #expect(try snapshotRows(warehouse) == ["2026-10-09 a 1", "2026-10-10 a 1", "2026-10-10 b 2"])
        #expect(try warehouse.integrityCheck() == "ok")
    }
}
