import Foundation
import GRDB
import Testing
import TallyCore
import TallyIngest
@testable import TallyWarehouse

/// Migration v22: rejects keep their kind (`reason_code`), and the rows a
/// couple's statement lists as not counted are kept as written.
@Suite("Reject codes in the warehouse")
struct RejectCodesMigrationTests {
    @Test("an earlier warehouse's rejects read as unclassified until their files are read again, which the next ingest does")
    func earlierRejects() throws {
        let path = try legacyWarehouse(upTo: "v21: cards by couple", """
            INSERT INTO input_file (id, path, display_path, dataset, table_name, bytes, sha256, load_seq) VALUES
                (1, '/d/expenses/expenses.csv', 'expenses/expenses.csv', 'expenses', 'expenses', 1, 'e', 1),
                (2, '/d/swipes/swipes.csv', 'swipes/swipes.csv', 'swipes', 'swipes', 1, 's', 2),
                (3, '/d/health/activity.csv', 'health/activity.csv', 'health', 'activity', 1, 'h', 3);
            INSERT INTO ingest_reject (file_id, line, record_id, reason) VALUES (2, 7, 'sw1', 'action ''x'' is not one of like');
            """)
        let warehouse = try Warehouse(path: path)
        let rejects = try warehouse.read { try $0.ingestRejects() }
        #expect(rejects.map(\.code) == [.unclassified])
        #expect(rejects.map(\.reason) == ["action 'x' is not one of like"])
        // The expenses file and the file with a reject count as changed; the others are kept as they are.
        let shas = try warehouse.read { r in try Row.fetchAll(r.db, sql: "SELECT id, sha256 FROM input_file ORDER BY id").map { $0[1] as String } }
        #expect(shas == ["", "", "h"])
    }

    @Test("a reject stores its code; a couple's row that could not be decoded is kept as written")
    func storedCodes() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        let written = WrittenRow(coupleId: "c1", date: "2026-10-05", description: nil, amount: "-5.00", currency: "BRL")
        try warehouse.ingest { session in
            let fileId = try session.beginFile(file(.settlements, "expenses/settlements.csv"), absolutePath: "/d/expenses/settlements.csv",
                                               bytes: 1, sha256: "s")
            try session.reject(file: fileId, line: 3, id: "s1", reason: .notPositive(field: "amount", value: "-5.00"),
                               refused: RefusedRow(kind: .settlement, id: "s1", written: written, reason: .valueNotPositive))
            try session.reject(file: fileId, line: 4, id: "s2", reason: .empty("currency"))
            try session.finishFile(fileId, read: 2, rejected: 2, superseded: 0, unknownFields: [])
        }
        let rejects = try warehouse.read { try $0.ingestRejects() }
        #expect(rejects.map(\.code) == [.valueNotPositive, .fieldEmpty])
        var keys: [CoupleRows] = []
        try warehouse.read { r in try r.forEachCoupleKey { keys.append($0) } }
        #expect(keys.map(\.key) == ["c1"])
        #expect(keys.first?.refused == [RefusedRow(kind: .settlement, id: "s1", written: written, reason: .valueNotPositive)])
    }
}
