import GRDB
import Testing
import TallyCore
@testable import TallyWarehouse

/// The expense winners the warehouse derives are the versions
/// `ExpenseVersionRule` picks from the same groups.
@Suite("Expense winners follow ExpenseVersionRule")
struct ExpenseVersionRuleWarehouseTests {
    struct Generated { var rowid: Int64; var id: String; var file: GeneratedLog.File; var version: ExpenseVersionRule.Version }

    @Test(arguments: 1...12 as ClosedRange<UInt64>)
    func theDerivationAgreesWithTheRule(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        var rows: [Generated] = []
        try warehouse.queue.write { db in
            let files = try GeneratedLog.files(db, name: "expenses.csv", dataset: "expenses", tables: ["expenses"], rng: &rng)
            for f in files {
                for line in Int64(2)..<Int64.random(in: 2...12, using: &rng) {
                    let id = GeneratedLog.keys.randomElement(using: &rng)!
                    let updated = Int64.random(in: 0...2, using: &rng) * 1_000_000
                    try db.execute(sql: """
                        INSERT INTO expense_version (id, updated_at, couple_id, file_id, line) VALUES (?, ?, 'c1', ?, ?)
                        """, arguments: [id, updated, f.id, line])
                    let rowid = db.lastInsertedRowID
                    rows.append(Generated(rowid: rowid, id: id, file: f, version: ExpenseVersionRule.Version(
                        updatedAt: Timestamp(microseconds: updated), loadSeq: f.loadSeq, line: line, row: rowid)))
                }
            }
            _ = try ExpensesSchema.winners.refresh(db)
        }

        var counted = Set<Int64>()
        var superseded: [Int64: Int] = [:]
        for group in KeyGroups.split(rows, key: { Array($0.id.utf8) }) {
            for (row, verdict) in zip(group, ExpenseVersionRule().verdicts(group.map(\.version))) {
                if verdict == .counts { counted.insert(row.rowid) } else { superseded[row.file.id, default: 0] += 1 }
            }
        }
        try warehouse.read { r in
            #expect(Set(try Int64.fetchAll(r.db, sql: "SELECT version_row FROM expense_winner")) == counted)
            let stored = try GeneratedLog.counts(r.db, column: "rows_superseded")
            #expect(stored.filter { $0.value > 0 } == superseded.filter { $0.value > 0 })
        }
    }
}
