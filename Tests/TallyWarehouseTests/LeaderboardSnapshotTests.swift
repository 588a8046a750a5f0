import Foundation
import GRDB
import Testing
@testable import TallyWarehouse

/// v17 drops the leaderboard snapshots, which nothing read, and the counter
/// of their writes that the digest of report inputs read.
@Suite("Leaderboard snapshots dropped")
struct LeaderboardSnapshotTests {
    @Test("a warehouse with snapshots loses the table and the counter, and the rest stays intact")
    func upgradeDropsTheSnapshots() throws {
        let path = try legacyWarehouse(upTo: "v16: activity verdicts and zone-free health records", """
            INSERT INTO leaderboard_snapshot (challenge_id, as_of, user_id, rank, display_name, checkins, minutes,
                rank_change, current_streak, best_streak) VALUES ('c1', '2026-10-09', 'a', 1, 'A', 3, 30, NULL, 1, 1);
            UPDATE warehouse_counter SET value = 7 WHERE name = 'leaderboard_snapshot';
            """)
        let warehouse = try Warehouse(path: path)
        let tables = try warehouse.read { try String.fetchAll($0.db, sql: "SELECT name FROM sqlite_schema WHERE type = 'table'") }
        #expect(!tables.contains("leaderboard_snapshot"))
        #expect(!tables.contains("warehouse_counter"))
        #expect(tables.contains("report_publication"))
        #expect(try warehouse.integrityCheck() == "ok")
    }

    @Test("the digest of report inputs is the loaded files alone")
    func digestIsTheFiles() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        #expect(try warehouse.read { try $0.reportInputsDigest() } == "")
        try warehouse.ingest { s in
            _ = try s.beginFile(file(.activity, "health/activity.csv"), absolutePath: "/d/health/activity.csv", bytes: 1, sha256: "a")
        }
        let digest = try warehouse.read { try $0.reportInputsDigest() }
        #expect(digest.hasPrefix("/d/health/activity.csv\u{1}a\u{1}"))
        #expect(!digest.contains("\n"))
    }
}
