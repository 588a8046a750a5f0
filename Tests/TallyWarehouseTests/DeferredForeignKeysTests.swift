import GRDB
import Testing
@testable import TallyWarehouse

/// v10, v11: the file keys are checked at commit (no statement journal per append or upsert).
@Suite("Foreign keys to input files checked at commit")
struct DeferredForeignKeysTests {
    private func declarations(_ warehouse: Warehouse) throws -> [String: String] {
        try warehouse.read { reader in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(reader.db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'table'")
                .map { ($0["name"] as String, $0["sql"] as String) })
        }
    }

    @Test("a new warehouse declares every key to an input file deferred")
    func newWarehouse() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        let sql = try declarations(warehouse)
        let keyed = sql.filter { $0.value.contains("REFERENCES input_file") }
        #expect(keyed.count >= 15)
        for (table, declaration) in keyed {
            #expect(declaration.contains(DeferredForeignKeys.deferred), "\(table)")
        }
        for table in DeferredForeignKeys.logs + ["ingest_reject", "couple", "swipe_user"] {
            #expect(keyed[table] != nil, "\(table)")
        }
        #expect(try warehouse.integrityCheck() == "ok")
    }

    @Test("an upgraded warehouse keeps its rows; unloading a file still removes its rows at once")
    func upgradeKeepsRowsAndCascades() throws {
        let path = try legacyWarehouse(upTo: "v9: leaderboard snapshot counter without triggers",
                                       twoLoads(of: "activity.csv", dataset: "health", table: "activity") + """
            INSERT INTO activity_row (user_id, date, steps, active_calories, walking_km, file_id, line) VALUES
                ('u1', '2026-10-01', 100, 10, 0.1, 1, 2), ('u1', '2026-10-02', 200, 20, 0.2, 2, 2);
            """)
        let warehouse = try Warehouse(path: path)
        #expect(try declarations(warehouse)["activity_row"]?.contains(DeferredForeignKeys.deferred) == true)
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

    @Test("a warehouse made before v11 keeps its keyed rows, and a keyed row still goes with its file")
    func upgradeOfTheKeyedTables() throws {
        let path = try legacyWarehouse(upTo: "v10: log foreign keys checked at commit", """
            INSERT INTO input_file (id, path, display_path, dataset, table_name, bytes, sha256, load_seq) VALUES
                (1, '/d/expenses/couples.csv', 'expenses/couples.csv', 'expenses', 'couples', 1, 'a', 1);
            INSERT INTO couple (id, name, currency, created_at, file_id, line) VALUES ('c1', 'Ana & Bia', 'BRL', NULL, 1, 2);
            """)
        let warehouse = try Warehouse(path: path)
        #expect(try declarations(warehouse)["couple"]?.contains(DeferredForeignKeys.deferred) == true)
        #expect(try warehouse.read { try String.fetchOne($0.db, sql: "SELECT name FROM couple") } == "Ana & Bia")
        try warehouse.ingest { session in
            _ = try session.unloadVanished(under: "/d", present: [])
        }
        #expect(try warehouse.read { try Int.fetchOne($0.db, sql: "SELECT count(*) FROM couple") } == 0)
        #expect(try warehouse.integrityCheck() == "ok")
    }
}
