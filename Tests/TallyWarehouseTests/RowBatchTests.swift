import Foundation
import GRDB
import Testing
import TallyCore
@testable import TallyIngest
@testable import TallyWarehouse

/// Rows staged as bytes (RowBatch) and appended 64 to a statement.
@Suite("Staged row batches")
struct RowBatchTests {
    func bytes(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        Array(text.utf8).withUnsafeBufferPointer(body)
    }

    @Test func nullsEmptyTextAndIntegersKeepTheirKinds() throws {
        var batch = RowBatch()
        for n in 0..<150 {   // two statements of 64 rows, then 22 rows one by one
            bytes("id\(n)") { batch.append($0) }
            bytes("app") { batch.append($0) }
            bytes("") { batch.append($0) }                // present but empty: '' (never NULL)
            batch.append("renewed")
            batch.append(n % 2 == 0 ? nil : UnsafeBufferPointer<UInt8>(start: nil, count: 0))   // absent: NULL
            batch.append(nil as UnsafeBufferPointer<UInt8>?)
            batch.append(Int64(n) * 1_000_000)
            batch.endRow(line: n + 2)
        }
        #expect(batch.count == 150 && batch.width == 7)
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        let rowids = try warehouse.ingest { s in
            let f = try s.beginFile(file(.events, "s/events.csv"), absolutePath: "/s/events.csv", bytes: 1, sha256: "e")
            return try s.append(batch, to: "subscription_event_row", columns: IngestSession.eventColumns, file: f)
        }
        #expect(rowids?.count == 150)
        let rows = try warehouse.read { r in
            try Row.fetchAll(r.db, sql: """
                SELECT id, user_id, typeof(user_id), event, typeof(product_id), typeof(context), at, line
                FROM subscription_event_row ORDER BY rowid
                """)
        }
        #expect(rows.count == 150)
        for (n, row) in rows.enumerated() {
            #expect(row[0] == "id\(n)")
            #expect(row[1] == "" && row[2] == "text")
            #expect(row[3] == "renewed")
            #expect(row[4] == (n % 2 == 0 ? "null" : "text"))
            #expect(row[5] == "null")
            #expect(row[6] == Int64(n) * 1_000_000 && row[7] == n + 2)
        }
    }

    @Test func anEmptyBatchAppendsNothing() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        let rowids = try warehouse.ingest { s in
            let f = try s.beginFile(file(.events, "s/events.csv"), absolutePath: "/s/events.csv", bytes: 1, sha256: "e")
            return try s.append(RowBatch(), to: "subscription_event_row", columns: IngestSession.eventColumns, file: f)
        }
        #expect(rowids == nil)
    }
}
