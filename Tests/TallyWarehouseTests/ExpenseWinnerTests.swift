import Foundation
import GRDB
import Testing
import TallyCore
@testable import TallyIngest
@testable import TallyWarehouse

/// The winning version of each expense id (`expense_winner`, and the
/// `expense` view of the winning versions) as the statements read them.
@Suite("Expense winners")
struct ExpenseWinnerTests {
    let brl = Currency(code: "BRL")!

    func version(_ id: String, couple: String = "c1", updated: Int64, amount: Int64) -> ExpenseVersion {
        let body = ExpenseVersion.Body(coupleId: couple, paidBy: "m1", amount: amount, currency: brl,
                                       date: LocalDate(year: 2026, month: 10, day: 1)!, description: "d", tag: "food",
                                       cardId: nil, agreementId: nil, split: .equal)
        return ExpenseVersion(id: id, updatedAt: Timestamp(seconds: updated), deletedAt: nil, body: body, error: nil)
    }

    /// Loads `versions` (line numbers from 2) as the file `name` in a load of its own.
    func load(_ warehouse: Warehouse, _ name: String, _ versions: [ExpenseVersion], couples: [String] = []) throws {
        try warehouse.ingest { s in
            if !couples.isEmpty {
                let c = try s.beginFile(file(.couples, "\(name)/couples.csv"), absolutePath: "/\(name)/couples.csv", bytes: 1, sha256: name)
                for (i, id) in couples.enumerated() {
                    _ = try s.insert(CoupleRecord(id: id, name: id, currency: brl, createdAt: nil), file: c, line: i + 2)
                }
            }
            let f = try s.beginFile(file(.expenses, "\(name)/expenses.csv"), absolutePath: "/\(name)/expenses.csv", bytes: 1, sha256: name)
            for (i, v) in versions.enumerated() { try s.insert(v, file: f, line: i + 2) }
            try s.finishFile(f, read: versions.count, rejected: 0, superseded: 0, unknownFields: [])
        }
    }

    /// Each couple's expenses as the statements read them: "id=amount".
    func statementExpenses(_ warehouse: Warehouse) throws -> [String: [String]] {
        try warehouse.read { (r: WarehouseReader) throws in
            var out: [String: [String]] = [:]
            try r.forEachCoupleKey { rows in
                if let p = StatementsFamily.partition(rows).partition { out[p.couple.id] = p.expenses.map { "\($0.id)=\($0.amount)" } }
            }
            return out
        }
    }

    @Test func equalUpdatedAtGoesToTheLaterLoadThenTheLaterLine() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        try load(warehouse, "a", [version("e1", updated: 10, amount: 1), version("e1", updated: 10, amount: 2),
                                  version("e2", updated: 10, amount: 3)], couples: ["c1"])
        #expect(try statementExpenses(warehouse) == ["c1": ["e1=2", "e2=3"]])   // the later line
        try load(warehouse, "b", [version("e2", updated: 10, amount: 4), version("e1", updated: 9, amount: 5)])
        #expect(try statementExpenses(warehouse) == ["c1": ["e1=2", "e2=4"]])   // the later load; an older version loses
        try warehouse.read { (r: WarehouseReader) throws in
            #expect(try r.inputFiles().filter { $0.table == "expenses" }.map(\.rowsSuperseded) == [2, 1])
        }
    }

    @Test func aVersionThatMovesAnExpenseToAnotherCoupleTakesItAlong() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        try load(warehouse, "a", [version("e1", couple: "c1", updated: 10, amount: 1), version("e2", couple: "c1", updated: 10, amount: 2),
                                  version("e1", couple: "c2", updated: 20, amount: 3)], couples: ["c1", "c2"])
        #expect(try statementExpenses(warehouse) == ["c1": ["e2=2"], "c2": ["e1=3"]])
    }

    @Test func theWinnersAreListedNarrowlyAndTheViewShowsTheirVersions() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        try load(warehouse, "a", [version("e1", updated: 10, amount: 1), version("e1", updated: 20, amount: 2)])
        try warehouse.read { (r: WarehouseReader) throws in
            let listed = try Row.fetchAll(r.db, sql: """
                SELECT w.couple_id, w.id, v.line FROM expense_winner w JOIN expense_version v ON v.rowid = w.version_row
                """).map { "\($0[0] as String)/\($0[1] as String)@\($0[2] as Int)" }
            #expect(listed == ["c1/e1@3"])
            #expect(try Row.amounts(r) == ["e1": 2])
        }
    }

    /// v13 copied the winning versions whole into an `expense` table; v14
    /// lists them in `expense_winner` and rebuilds them on the next run.
    @Test func aV13WarehouseListsItsWinnersAgain() throws {
        let path = try legacyWarehouse(upTo: "v13: pending derivations", twoLoads(of: "expenses.csv", dataset: "expenses", table: "expenses") + """
            INSERT INTO expense_version (id, updated_at, couple_id, paid_by, amount, currency, date, split_type, split, file_id, line)
            VALUES ('e1', 10, 'c1', 'm1', 100, 'BRL', '2026-10-01', 'equal', '', 1, 2),
                   ('e1', 20, 'c1', 'm1', 200, 'BRL', '2026-10-01', 'equal', '', 2, 2);
            INSERT INTO expense (id, updated_at, couple_id, paid_by, amount, currency, date, split_type, split, file_id, line)
            VALUES ('e1', 20, 'c1', 'm1', 200, 'BRL', '2026-10-01', 'equal', '', 2, 2);
            """)
        let warehouse = try Warehouse(path: path)
        #expect(try warehouse.pendingDerivations() == [.expenseWinners])
        _ = try warehouse.derivePending()
        #expect(try warehouse.pendingDerivations().isEmpty)
        try warehouse.read { (r: WarehouseReader) throws in
            #expect(try Row.amounts(r) == ["e1": 200])
            #expect(try r.inputFiles().map(\.rowsSuperseded) == [1, 0])
        }
        #expect(try warehouse.integrityCheck() == "ok")
    }

    @Test func aV13WarehouseWithoutExpensesHasNothingToRebuild() throws {
        let path = try legacyWarehouse(upTo: "v13: pending derivations", "SELECT 1")
        #expect(try Warehouse(path: path).pendingDerivations().isEmpty)
    }
}
