import GRDB
import Testing
import TallyCore
@testable import TallyWarehouse

/// The swipe rows the warehouse supersedes are the rows `SwipeVersionRule`
/// supersedes in the same groups.
@Suite("Swipe repeats follow SwipeVersionRule")
struct SwipeVersionRuleWarehouseTests {
    struct Generated { var id: String; var file: GeneratedLog.File; var version: SwipeVersionRule.Row }

    @Test(arguments: 1...12 as ClosedRange<UInt64>)
    func theDerivationAgreesWithTheRule(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        var rows: [Generated] = []
        try warehouse.queue.write { db in
            let files = try GeneratedLog.files(db, name: "swipes.ndjson", dataset: "swipes", tables: [SwipeLogSchema.table], rng: &rng)
            try db.execute(sql: "INSERT INTO swipe_person (id, name) VALUES (1, 'ana'), (2, 'bia')")
            for f in files {
                for line in Int64(1)..<Int64.random(in: 1...10, using: &rng) {
                    let id = GeneratedLog.keys.randomElement(using: &rng)!
                    let (from, to) = Bool.random(using: &rng) ? (1, 2) : (2, 1)
                    try db.execute(sql: """
                        INSERT INTO swipe_row (id, from_person, to_person, action, at, file_id, line) VALUES (?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [id, from, to, ["like", "pass"].randomElement(using: &rng)!, line, f.id, line])
                    rows.append(Generated(id: id, file: f, version: SwipeVersionRule.Row(loadSeq: f.loadSeq, line: line, row: db.lastInsertedRowID)))
                    // The Bloom filter's "maybe seen": every id here, a superset of the repeated ones.
                    try db.execute(sql: "INSERT OR IGNORE INTO swipe_id_candidate (id) VALUES (?)", arguments: [id])
                }
            }
            try SwipeLogSchema.derive(db, budget: SwipeLogSchema.matchPassBudget)
        }

        var superseded = Set<Int64>()
        var perFile: [Int64: Int] = [:]
        for group in KeyGroups.split(rows, key: { Array($0.id.utf8) }) {
            for (row, verdict) in zip(group, SwipeVersionRule().verdicts(group.map(\.version))) where verdict == .superseded {
                superseded.insert(row.version.row)
                perFile[row.file.id, default: 0] += 1
            }
        }
        try warehouse.read { r in
            #expect(Set(try Int64.fetchAll(r.db, sql: "SELECT row FROM swipe_superseded")) == superseded)
            let counts = try GeneratedLog.counts(r.db, column: "rows_superseded")
            #expect(counts.filter { $0.value > 0 } == perFile.filter { $0.value > 0 })
        }
    }
}
