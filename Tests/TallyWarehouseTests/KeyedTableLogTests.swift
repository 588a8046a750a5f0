import Foundation
import GRDB
import Testing
import TallyCore
@testable import TallyIngest
@testable import TallyWarehouse

/// Keyed tables keep every row read: delivering, re-delivering, replacing
/// and removing a table's files in any sequence leaves the warehouse as a
/// fresh one given the remaining files, in the order each was last
/// delivered (a later delivery's row of a key counts).
@Suite("Keyed tables are logs")
struct KeyedTableLogTests {
    /// A file's rows: each a key and a payload (a file may repeat a key: the repeat is rejected).
    typealias Rows = [(key: Int, payload: Int)]

    /// Stores `rows` as the file at `path` of `table`'s input table, as a loader does.
    static func deliver(_ table: KeyedTable, types: [String: String], path: String, rows: Rows,
                        in s: IngestSession) throws {
        let file = try begin(table, path: path, rows: rows, in: s)
        var rejected = 0
        for (i, row) in rows.enumerated() where try !store(table, types: types, row, file: file, line: i + 2, in: s) {
            rejected += 1
        }
        try s.finishFile(file, read: rows.count, rejected: rejected, superseded: 0, unknownFields: [])
    }

    /// Registers the file at `path` of `table`'s input table (`rows` make its digest).
    static func begin(_ table: KeyedTable, path: String, rows: Rows, in s: IngestSession) throws -> Int64 {
        let input = InputFile(url: URL(fileURLWithPath: path), relativePath: String(path.dropFirst(3)),
                              kind: .table(TableID(rawValue: table.inputTable)!))
        return try s.beginFile(input, absolutePath: path, bytes: Int64(rows.count), sha256: "\(rows.map { "\($0.key):\($0.payload)" })")
    }

    /// Stores one row of `file` at `line`; false when it is rejected (a repeat within its file).
    static func store(_ table: KeyedTable, types: [String: String], _ row: (key: Int, payload: Int), file: Int64, line: Int,
                      in s: IngestSession) throws -> Bool {
        let values = table.columns.map { column -> StoredValue in
            // Key columns from the key (distinct per column), the others from the payload.
            let value = table.key.firstIndex(of: column).map { row.key * 10 + $0 } ?? row.payload
            return types[column] == "INTEGER" ? .integer(Int64(value)) : .text("\(column) \(value)")
        }
        return try s.storeKeyed(table.name, values, file: file, line: line)
    }

    /// Column name → declared type.
    static func types(_ table: KeyedTable, _ warehouse: Warehouse) throws -> [String: String] {
        try warehouse.read { r in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(r.db, sql: "PRAGMA table_info(\(table.name))").map {
                ($0["name"] as String, $0["type"] as String)
            })
        }
    }

    /// What the warehouse holds of `table`: the counting rows with their
    /// file's path and line, the rows set aside likewise, and each file's counts.
    static func state(_ table: KeyedTable, _ warehouse: Warehouse) throws -> [String] {
        try warehouse.read { r in
            let columns = table.columns.map { "t.\($0)" }.joined(separator: " || '|' || ")
            let counting = try String.fetchAll(r.db, sql: """
                SELECT 'counts ' || \(columns) || ' @ ' || f.path || ':' || t.line
                FROM \(table.name) t JOIN input_file f ON f.id = t.file_id ORDER BY 1
                """)
            let aside = try String.fetchAll(r.db, sql: """
                SELECT 'aside ' || \(columns) || ' @ ' || f.path || ':' || t.line
                FROM \(table.supersededTable) t JOIN input_file f ON f.id = t.file_id ORDER BY 1
                """)
            let files = try String.fetchAll(r.db, sql: """
                SELECT 'file ' || path || ' read ' || rows_read || ' rejected ' || rows_rejected
                       || ' superseded ' || rows_superseded FROM input_file ORDER BY path
                """)
            return counting + aside + files
        }
    }

    /// Rows over a few keys and three payloads: a key's rows of two files are often identical.
    static func randomRows(_ random: inout SplitMix64) -> Rows {
        (0..<Int.random(in: 0...6, using: &random)).map { _ in
            (key: Int.random(in: 1...5, using: &random), payload: Int.random(in: 1...3, using: &random))
        }
    }

    @Test("any sequence of deliveries, re-deliveries, replacements and removals gives a fresh load of the files left",
          arguments: KeyedTable.all.map(\.name))
    func deliveriesGiveAFreshLoad(_ name: String) throws {
        let table = KeyedTable.named[name]!
        for seed in UInt64(1)...48 {
            var random = SplitMix64(seed: seed)
            let warehouse = try Warehouse(path: temporaryWarehousePath())
            let types = try Self.types(table, warehouse)
            // The files held, in the order they were last delivered.
            var held: [(path: String, rows: Rows)] = []
            var steps: [String] = []
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let paths = (0..<3).map { "/d/\(table.inputTable)/part-\($0).csv" }
                let path = paths.randomElement(using: &random)!
                if Bool.random(using: &random) || held.isEmpty {
                    let rows = Self.randomRows(&random)
                    try warehouse.ingest { s in try Self.deliver(table, types: types, path: path, rows: rows, in: s) }
                    held.removeAll { $0.path == path }
                    held.append((path, rows))
                    steps.append("deliver \(path) \(rows)")
                } else {
                    let gone = held.randomElement(using: &random)!.path
                    held.removeAll { $0.path == gone }
                    _ = try warehouse.ingest { s in try s.unloadVanished(under: "/d", present: Set(held.map(\.path))) }
                    steps.append("remove \(gone)")
                }
            }
            let fresh = try Warehouse(path: temporaryWarehousePath())
            try fresh.ingest { s in
                for file in held { try Self.deliver(table, types: types, path: file.path, rows: file.rows, in: s) }
            }
            #expect(try Self.state(table, warehouse) == Self.state(table, fresh),
                    "\(name), seed \(seed): \(steps.joined(separator: "; "))")
        }
    }

    @Test("re-delivering the file whose row counts gives the key back its earlier file's row")
    func reDeliveryRestoresTheEarlierRow() throws {
        let table = KeyedTable.named["couple"]!
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        let types = try Self.types(table, warehouse)
        try warehouse.ingest { s in
            try Self.deliver(table, types: types, path: "/d/couples/part-a.csv", rows: [(1, 100), (2, 200)], in: s)
            try Self.deliver(table, types: types, path: "/d/couples/part-b.csv", rows: [(2, 201)], in: s)
        }
        #expect(try Self.state(table, warehouse).filter { $0.hasPrefix("counts") } == [
            "counts id 10|name 100|currency 100|100 @ /d/couples/part-a.csv:2",
            "counts id 20|name 201|currency 201|201 @ /d/couples/part-b.csv:2",
        ])
        try warehouse.ingest { s in
            try Self.deliver(table, types: types, path: "/d/couples/part-b.csv", rows: [(3, 300)], in: s)
        }
        let after = try Self.state(table, warehouse)
        #expect(after.filter { $0.hasPrefix("counts") } == [
            "counts id 10|name 100|currency 100|100 @ /d/couples/part-a.csv:2",
            "counts id 20|name 200|currency 200|200 @ /d/couples/part-a.csv:3",
            "counts id 30|name 300|currency 300|300 @ /d/couples/part-b.csv:2",
        ])
        #expect(after.filter { $0.hasPrefix("aside") }.isEmpty)
        #expect(after.contains("file /d/couples/part-a.csv read 2 rejected 0 superseded 0"))
    }

    @Test("a later file's identical row leaves the held row counting and is set aside itself")
    func anIdenticalCopyLeavesTheRowsInPlace() throws {
        let table = KeyedTable.named["couple"]!
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        let types = try Self.types(table, warehouse)
        try warehouse.ingest { s in
            try Self.deliver(table, types: types, path: "/d/couples/part-a.csv", rows: [(1, 100), (2, 200)], in: s)
        }
        try warehouse.ingest { s in
            try Self.deliver(table, types: types, path: "/d/couples/part-b.csv", rows: [(2, 200), (1, 101), (3, 300)], in: s)
        }
        #expect(try Self.state(table, warehouse) == [
            "counts id 10|name 101|currency 101|101 @ /d/couples/part-b.csv:3",
            "counts id 20|name 200|currency 200|200 @ /d/couples/part-a.csv:3",
            "counts id 30|name 300|currency 300|300 @ /d/couples/part-b.csv:4",
            "aside id 10|name 100|currency 100|100 @ /d/couples/part-a.csv:2",
            "aside id 20|name 200|currency 200|200 @ /d/couples/part-b.csv:2",
            "file /d/couples/part-a.csv read 2 rejected 0 superseded 1",
            "file /d/couples/part-b.csv read 3 rejected 0 superseded 1",
        ])
    }

    @Test("unloading a file whose row did not count can change the row that counts")
    func unloadingAChangeBetweenTwoIdenticalRows() throws {
        let table = KeyedTable.named["couple"]!
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        let types = try Self.types(table, warehouse)
        for (path, payload) in [("part-a", 100), ("part-b", 200), ("part-c", 100)] {
            try warehouse.ingest { s in try Self.deliver(table, types: types, path: "/d/couples/\(path).csv", rows: [(1, payload)], in: s) }
        }
        // February changed the row and March changed it back: March's row counts.
        #expect(try Self.state(table, warehouse).first == "counts id 10|name 100|currency 100|100 @ /d/couples/part-c.csv:2")
        _ = try warehouse.ingest { s in
            try s.unloadVanished(under: "/d", present: ["/d/couples/part-a.csv", "/d/couples/part-c.csv"])
        }
        // Without February, March repeats January: January's row counts, March's is set aside.
        #expect(try Self.state(table, warehouse) == [
            "counts id 10|name 100|currency 100|100 @ /d/couples/part-a.csv:2",
            "aside id 10|name 100|currency 100|100 @ /d/couples/part-c.csv:2",
            "file /d/couples/part-a.csv read 1 rejected 0 superseded 0",
            "file /d/couples/part-c.csv read 1 rejected 0 superseded 1",
        ])
    }

    @Test("a file of another table finishing in the middle of a file's load settles none of its rows")
    func anotherTablesFileFinishingMidLoad() throws {
        let users = KeyedTable.named["swipe_user"]!, couples = KeyedTable.named["couple"]!
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        let (userTypes, coupleTypes) = (try Self.types(users, warehouse), try Self.types(couples, warehouse))
        try warehouse.ingest { s in
            try Self.deliver(users, types: userTypes, path: "/d/swipeUsers/part-a.csv", rows: [(1, 1), (2, 1)], in: s)
        }
        try warehouse.ingest { s in
            // The two lanes' writes interleave on the writer: a couples file starts and ends inside the users file.
            let later: Rows = [(1, 1), (2, 1), (1, 2)]
            let file = try Self.begin(users, path: "/d/swipeUsers/part-b.csv", rows: later, in: s)
            #expect(try Self.store(users, types: userTypes, later[0], file: file, line: 2, in: s))
            try Self.deliver(couples, types: coupleTypes, path: "/d/couples/part-a.csv", rows: [(1, 5)], in: s)
            #expect(try Self.store(users, types: userTypes, later[1], file: file, line: 3, in: s))
            // A repeat within the file of a key staged before the couples file ended: rejected.
            #expect(try !Self.store(users, types: userTypes, later[2], file: file, line: 4, in: s))
            try s.finishFile(file, read: 3, rejected: 1, superseded: 0, unknownFields: [])
        }
        #expect(try Self.state(users, warehouse) == [
            "counts id 10|1|gender 1|city 1|subscription 1 @ /d/swipeUsers/part-a.csv:2",
            "counts id 20|1|gender 1|city 1|subscription 1 @ /d/swipeUsers/part-a.csv:3",
            "aside id 10|1|gender 1|city 1|subscription 1 @ /d/swipeUsers/part-b.csv:2",
            "aside id 20|1|gender 1|city 1|subscription 1 @ /d/swipeUsers/part-b.csv:3",
            "file /d/couples/part-a.csv read 1 rejected 0 superseded 0",
            "file /d/swipeUsers/part-a.csv read 2 rejected 0 superseded 0",
            "file /d/swipeUsers/part-b.csv read 3 rejected 1 superseded 2",
        ])
    }
}
