import Foundation
import GRDB
import Testing
import TallyCore
import TallyIngest
@testable import TallyWarehouse

/// The counted activity per user and day (the `activity_day` view and the
/// report's month query, both the rows without a verdict in
/// `activity_superseded`) and the rows each activity file lost (superseded).
@Suite("Activity days")
struct ActivityDaysTests {
    /// Two loads of activity.csv and an Apple Health export day:
    /// - u1 2026-10-01: three rows (file a lines 1 and 2, file b line 1): b wins;
    /// - u1 2026-10-02: rows in a and b, and an export day: the export wins;
    /// - u2 2026-10-01: one row in a: it wins.
    private func loadedWarehouse() throws -> Warehouse {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        try warehouse.ingest { s in
            let a = try s.beginFile(file(.activity, "a/health/activity.csv"), absolutePath: "/a/health/activity.csv", bytes: 1, sha256: "a")
            let b = try s.beginFile(file(.activity, "b/health/activity.csv"), absolutePath: "/b/health/activity.csv", bytes: 1, sha256: "b")
            let export = try s.beginFile(InputFile(url: URL(fileURLWithPath: "/b/health/u1/export.xml"), relativePath: "b/health/u1/export.xml",
                                                   kind: .appleHealthExport(userId: "u1")),
                                         absolutePath: "/b/health/u1/export.xml", bytes: 1, sha256: "x")
            try s.db.execute(sql: """
                INSERT INTO activity_row (user_id, date, steps, active_calories, walking_km, file_id, line) VALUES
                    ('u1', '2026-10-01', 100, 1, 0.1, :a, 1), ('u1', '2026-10-01', 110, 1, 0.1, :a, 2),
                    ('u1', '2026-10-02', 200, 2, 0.2, :a, 3), ('u2', '2026-10-01', 300, 3, 0.3, :a, 4),
                    ('u1', '2026-10-01', 120, 1, 0.1, :b, 1), ('u1', '2026-10-02', 210, 2, 0.2, :b, 2);
                INSERT INTO health_record (file_id, user_id, start_us, quantity, source, value) VALUES
                    (:x, 'u1', CAST(strftime('%s', '2026-10-02 15:00:00') AS INTEGER) * 1000000, 1, 'phone', 999),
                    (:x, 'u1', CAST(strftime('%s', '2026-10-02 15:00:00') AS INTEGER) * 1000000, 2, 'phone', 9),
                    (:x, 'u1', CAST(strftime('%s', '2026-10-02 15:00:00') AS INTEGER) * 1000000, 3, 'phone', 0.9);
                """, arguments: ["a": a, "b": b, "x": export])
        }
        return warehouse
    }

    @Test func theViewKeepsTheExportThenTheLatestLoadThenTheLatestLine() throws {
        let warehouse = try loadedWarehouse()
        let days = try warehouse.read { r in
            try String.fetchAll(r.db, sql: "SELECT user_id || ' ' || date || ' ' || steps FROM activity_day ORDER BY user_id, date")
        }
        #expect(days == ["u1 2026-10-01 120.0", "u1 2026-10-02 999.0", "u2 2026-10-01 300.0"])
    }

    @Test func eachFileCountsTheRowsItLost() throws {
        let warehouse = try loadedWarehouse()
        let superseded = try warehouse.read { r in
            Dictionary(uniqueKeysWithValues: try r.inputFiles().map { ($0.displayPath, $0.rowsSuperseded) })
        }
        // a: lines 1, 2 (to b's row) and 3 (to the export); b: line 2 (to the export).
        #expect(superseded["a/health/activity.csv"] == 3)
        #expect(superseded["b/health/activity.csv"] == 1)
    }

    @Test func theMonthQueryMatchesTheViewWithinItsDays() throws {
        let warehouse = try loadedWarehouse()
        var seen: [String] = []
        try warehouse.read { r in
            let day = LocalDate.parse("2026-10-02")!
            try r.forEachActivityUser(in: day...day) { user, days in
                seen += days.map { "\(user) \($0.date) \($0.steps)" }
            }
        }
        #expect(seen == ["u1 2026-10-02 999.0"])
    }

    @Test func aWarehouseWithTheWinnersTableMigratesToTheVerdicts() throws {
        let path = try legacyWarehouse(upTo: "v11: every foreign key to input files checked at commit",
                                       twoLoads(of: "activity.csv", dataset: "health", table: "activity") + """
            INSERT INTO activity_row (user_id, date, steps, active_calories, walking_km, file_id, line) VALUES
                ('u1', '2026-10-01', 100, 1, 0.1, 1, 1), ('u1', '2026-10-01', 120, 1, 0.1, 2, 1);
            INSERT INTO activity_day VALUES ('u1', '2026-10-01', 100, 1, 0.1, 1, 1);
            """)
        let warehouse = try Warehouse(path: path)
        let type = try warehouse.read { r in try String.fetchOne(r.db, sql: "SELECT type FROM sqlite_master WHERE name = 'activity_day'") }
        #expect(type == "view")
        // v16 leaves the verdicts of the rows already loaded to the next rebuild.
        #expect(try warehouse.pendingDerivations().contains(.activityRepeats))
        _ = try warehouse.derivePending()
        #expect(try warehouse.read { r in try Double.fetchAll(r.db, sql: "SELECT steps FROM activity_day") } == [120])
    }
}
