import GRDB
import Testing
@testable import TallyWarehouse

/// v10: the logs' file keys are checked at commit (no statement journal per append).
@Suite("Log foreign keys checked at commit")
struct LogForeignKeysTests {
    private func declarations(_ warehouse: Warehouse) throws -> [String: String] {
        try warehouse.read { reader in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(reader.db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'table'")
                .map { ($0["name"] as String, $0["sql"] as String) })
        }
    }

    @Test("a new warehouse declares each log's file key deferred, and the other tables' keys as they were")
    func newWarehouse() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        let sql = try declarations(warehouse)
        for table in LogForeignKeys.tables {
            #expect(sql[table]?.contains(LogForeignKeys.deferred) == true, "\(table)")
        }
        #expect(sql["ingest_reject"]?.contains("DEFERRABLE") == false)
        #expect(try warehouse.integrityCheck() == "ok")
    }

    @Test("an upgraded warehouse keeps its rows; unloading a file still removes its rows at once")
    func upgradeKeepsRowsAndCascades() throws {
        let path = try legacyWarehouse(upTo: "v9: leaderboard snapshot counter without triggers", """
            INSERT INTO input_file (id, path, display_path, dataset, table_name, bytes, sha256, load_seq) VALUES
                (1, '/d/health/activity.csv', 'health/activity.csv', 'health', 'activity', 1, 'a', 1),
                (2, '/d/b/health/activity.csv', 'b/health/activity.csv', 'health', 'activity', 1, 'b', 2);
            INSERT INTO activity_row (user_id, date, steps, active_calories, walking_km, file_id, line) VALUES
                ('u1', '2026-10-01', 100, 10, 0.1, 1, 2), ('u1', '2026-10-02', 200, 20, 0.2, 2, 2);
            """)
        let warehouse = try Warehouse(path: path)
        #expect(try declarations(warehouse)["activity_row"]?.contains(LogForeignKeys.deferred) == true)
        #expect(try warehouse.read { try Int.fetchOne($0.db, sql: "SELECT count(*) FROM activity_row") } == 2)
        try warehouse.ingest { session in
            _ = try session.unloadVanished(under: "/d", present: ["/d/b/health/activity.csv"])
            // Inside the same transaction the cascade has acted already.
            #expect(try Int.fetchOne(session.db, sql: "SELECT count(*) FROM activity_row") == 1)
        }
        #expect(try warehouse.read { try Int.fetchOne($0.db, sql: "SELECT file_id FROM activity_row") } == 2)
        #expect(try warehouse.integrityCheck() == "ok")
    }

    @Test("a log row naming no loaded file still fails, when the ingest commits, and nothing is kept")
    func aDanglingRowFailsAtCommit() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        #expect(throws: DatabaseError.self) {
            try warehouse.ingest { session in
                try session.db.execute(sql: """
                    INSERT INTO activity_row (user_id, date, steps, active_calories, walking_km, file_id, line)
                    VALUES ('u1', '2026-10-01', 100, 10, 0.1, 42, 2)
                    """)
            }
        }
        #expect(try warehouse.read { try Int.fetchOne($0.db, sql: "SELECT count(*) FROM activity_row") } == 0)
    }
}
