import Foundation
import GRDB
import Testing
import TallyCore
@testable import TallyIngest
@testable import TallyWarehouse

/// Derived tables rebuilt after the loads' transaction: what is left to
/// rebuild is recorded with the loads, survives a stop, and is read beside
/// the rebuild in WAL mode.
@Suite("Pending derivations")
struct PendingDerivationsTests {
    let brl = Currency(code: "BRL")!

    func version(_ id: String, updated: Int64, amount: Int64) -> ExpenseVersion {
        let body = ExpenseVersion.Body(coupleId: "c1", paidBy: "m1", amount: amount, currency: brl,
                                       date: LocalDate(year: 2026, month: 10, day: 1)!, description: "d", tag: "food",
                                       cardId: nil, agreementId: nil, split: .equal)
        return ExpenseVersion(id: id, updatedAt: Timestamp(seconds: updated), deletedAt: nil, body: body, error: nil)
    }

    /// Loads two versions of one expense and leaves the derived tables pending.
    func loadLeavingDerivations(_ warehouse: Warehouse) throws {
        try warehouse.ingestLeavingDerivations { s in
            let f = try s.beginFile(file(.expenses, "expenses.csv"), absolutePath: "/d/expenses.csv", bytes: 1, sha256: "a")
            try s.insert(version("e1", updated: 10, amount: 100), file: f, line: 2)
            try s.insert(version("e1", updated: 30, amount: 300), file: f, line: 3)
            try s.finishFile(f, read: 2, rejected: 0, superseded: 0, unknownFields: [])
        }
    }

    final class Readied: @unchecked Sendable {
        private let lock = NSLock()
        private var tables: [DerivedTable] = []
        func add(_ table: DerivedTable) { lock.withLock { tables.append(table) } }
        var all: [DerivedTable] { lock.withLock { tables } }
    }

    @Test("the loads commit with what they call for; a stopped run's successor rebuilds it")
    func pendingSurvivesAStop() throws {
        let path = temporaryWarehousePath()
        do {
            let warehouse = try Warehouse(path: path)
            try loadLeavingDerivations(warehouse)
            #expect(try warehouse.pendingDerivations() == [.expenseWinners])
            // Stopped here: the loads are in, the winners are not.
            #expect(try warehouse.read { try Row.amounts($0) }.isEmpty)
        }
        let reopened = try Warehouse(path: path)
        #expect(try reopened.pendingDerivations() == [.expenseWinners])
        let readied = Readied()
        let timings = try reopened.derivePending(ready: readied.add)
        #expect(readied.all == [.expenseWinners])
        #expect(timings.map(\.name) == ["expense winners"])
        #expect(try reopened.read { try Row.amounts($0) } == ["e1": 300])
        #expect(try reopened.read { try $0.inputFiles().map(\.rowsSuperseded) } == [1])
        #expect(try reopened.pendingDerivations().isEmpty)
        #expect(try reopened.derivePending().isEmpty)   // nothing left: nothing done
    }

    @Test("ingest(_:) rebuilds before it returns, and leaves nothing pending")
    func ingestDerivesAtOnce() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        try warehouse.ingest { s in
            let f = try s.beginFile(file(.expenses, "expenses.csv"), absolutePath: "/d/expenses.csv", bytes: 1, sha256: "a")
            try s.insert(version("e1", updated: 10, amount: 100), file: f, line: 2)
            try s.finishFile(f, read: 1, rejected: 0, superseded: 0, unknownFields: [])
        }
        #expect(try warehouse.pendingDerivations().isEmpty)
        #expect(try warehouse.read { try Row.amounts($0) } == ["e1": 100])
    }

    @Test("in WAL mode a reader keeps its snapshot while the rebuild commits; then the rollback journal is back")
    func readsBesideTheRebuild() throws {
        let path = temporaryWarehousePath()
        let warehouse = try Warehouse(path: path)
        try loadLeavingDerivations(warehouse)
        #expect(try warehouse.allowReadsBesideWrites())
        let reads = try warehouse.openReadConnection()
        // Inside a read transaction: with a rollback journal the rebuild's
        // commit would wait for this reader; in WAL mode neither waits.
        try reads.read { reader in
            #expect(try Row.amounts(reader).isEmpty)
            _ = try warehouse.derivePending()
            #expect(try Row.amounts(reader).isEmpty)   // its snapshot, from before the commit
        }
        #expect(try reads.read { try Row.amounts($0) } == ["e1": 300])
        try reads.close()
        try warehouse.endReadsBesideWrites()
        #expect(try warehouse.read { try String.fetchOne($0.db, sql: "PRAGMA journal_mode") } == "truncate")
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test("a warehouse left in WAL mode opens in rollback-journal mode, its committed rebuild kept")
    func aStopInWALModeKeepsTheCommits() throws {
        let path = temporaryWarehousePath()
        do {
            let warehouse = try Warehouse(path: path)
            try loadLeavingDerivations(warehouse)
            #expect(try warehouse.allowReadsBesideWrites())
            _ = try warehouse.derivePending()
        }
        let reopened = try Warehouse(path: path)
        #expect(try reopened.read { try String.fetchOne($0.db, sql: "PRAGMA journal_mode") } == "truncate")
        #expect(try reopened.read { try Row.amounts($0) } == ["e1": 300])
        #expect(try reopened.pendingDerivations().isEmpty)
    }
}
