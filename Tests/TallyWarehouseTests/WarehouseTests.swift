import Foundation
import Testing
import TallyCore
@testable import TallyIngest
@testable import TallyWarehouse

@Suite("The SQLite warehouse")
struct WarehouseTests {
    let brl = Currency(code: "BRL")!

    func version(_ id: String, updated: Int64, amount: Int64, deleted: Bool = false, error: String? = nil) -> ExpenseVersion {
        let body = ExpenseVersion.Body(coupleId: "c1", paidBy: "m1", amount: amount, currency: brl,
                                       date: LocalDate(year: 2026, month: 10, day: 1)!, description: "d", tag: "food",
                                       cardId: nil, agreementId: nil, split: .equal)
        return ExpenseVersion(id: id, updatedAt: Timestamp(seconds: updated), deletedAt: deleted ? Timestamp(seconds: updated) : nil,
                              body: deleted || error != nil ? nil : body,
                              error: error.map { RejectReason(code: .amountNotDecimal, text: $0) })
    }

    @Test func latestUpdatedAtWinsAcrossFilesAndLoads() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        try warehouse.ingest { s in
            let f = try s.beginFile(file(.expenses, "a/expenses.csv"), absolutePath: "/a/expenses.csv", bytes: 1, sha256: "a")
            try s.insert(version("e1", updated: 10, amount: 100), file: f, line: 2)
            try s.insert(version("e1", updated: 30, amount: 300), file: f, line: 3)
            try s.insert(version("e1", updated: 20, amount: 200), file: f, line: 4)
            try s.insert(version("e2", updated: 10, amount: 50), file: f, line: 5)
            try s.finishFile(f, read: 4, rejected: 0, superseded: 0, unknownFields: [])
        }
        try warehouse.ingest { s in
            let f = try s.beginFile(file(.expenses, "b/expenses.csv"), absolutePath: "/b/expenses.csv", bytes: 1, sha256: "b")
            try s.insert(version("e1", updated: 25, amount: 250), file: f, line: 2)   // older than the stored winner
            try s.insert(version("e2", updated: 40, amount: 0, deleted: true), file: f, line: 3)
            try s.finishFile(f, read: 2, rejected: 0, superseded: 0, unknownFields: [])
        }
        try warehouse.read { (r: WarehouseReader) throws in
            let amounts = try Row.amounts(r)
            #expect(amounts == ["e1": 300])
            let files = try r.inputFiles()
            #expect(files.map(\.rowsSuperseded) == [3, 1])   // a: e1@10, e1@20 and e2@10 (deleted in b) lose; b: e1@25 loses
            #expect(files.map(\.rowsRead) == [4, 2])
        }
    }

    @Test func aChangedFileReplacesItsPreviousVersion() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        for (sha, amount) in [("v1", Int64(100)), ("v2", Int64(700))] {
            try warehouse.ingest { s in
                let f = try s.beginFile(file(.expenses, "expenses.csv"), absolutePath: "/d/expenses.csv", bytes: 1, sha256: sha)
                try s.insert(version("e1", updated: 10, amount: amount), file: f, line: 2)
                try s.finishFile(f, read: 1, rejected: 0, superseded: 0, unknownFields: [])
            }
        }
        try warehouse.read { (r: WarehouseReader) throws in
            #expect(try Row.amounts(r) == ["e1": 700])
            #expect(try r.inputFiles().map(\.sha256) == ["v2"])
        }
    }

    @Test func duplicateKeysInOneFileAreRefusedButALaterFileReplaces() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        try warehouse.ingest { s in
            let f = try s.beginFile(file(.couples, "couples.csv"), absolutePath: "/a/couples.csv", bytes: 1, sha256: "a")
            #expect(try s.insert(CoupleRecord(id: "c1", name: "Ana & Bia", currency: brl, createdAt: nil), file: f, line: 2))
            #expect(try !s.insert(CoupleRecord(id: "c1", name: "dup", currency: brl, createdAt: nil), file: f, line: 3))
            let g = try s.beginFile(file(.couples, "other/couples.csv"), absolutePath: "/b/couples.csv", bytes: 1, sha256: "b")
            #expect(try s.insert(CoupleRecord(id: "c1", name: "Ana e Bia", currency: brl, createdAt: nil), file: g, line: 2))
        }
        try warehouse.read { (r: WarehouseReader) throws in
            var names: [String] = []
            try r.forEachCoupleKey { if let p = StatementsFamily.partition($0).partition { names.append(p.couple.name) } }
            #expect(names == ["Ana e Bia"])
        }
    }

    @Test("a reference row replaced by a later file's counts as superseded in its file, as ReferenceRowRule says")
    func aReplacedReferenceRowIsSupersededInItsFile() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        func product(_ id: String, price: Int64) -> ProductRecord {
            ProductRecord(entry: .init(productId: id, app: "LovU", plan: "premium", yearly: false, price: price, currency: brl))
        }
        try warehouse.ingest { s in
            let f = try s.beginFile(file(.products, "a/products.csv"), absolutePath: "/a/products.csv", bytes: 1, sha256: "a")
            #expect(try s.insert(product("p1", price: 100), file: f, line: 2))
            #expect(try s.insert(product("p2", price: 100), file: f, line: 3))
            try s.finishFile(f, read: 2, rejected: 0, superseded: 0, unknownFields: [])
            let g = try s.beginFile(file(.products, "b/products.csv"), absolutePath: "/b/products.csv", bytes: 1, sha256: "b")
            #expect(try s.insert(product("p1", price: 200), file: g, line: 2))
            #expect(try !s.insert(product("p1", price: 300), file: g, line: 3))   // a repeat in one file: rejected, not superseding
            try s.finishFile(g, read: 2, rejected: 1, superseded: 0, unknownFields: [])
        }
        // A later ingest's file replaces the winner again; the counts stay with the files.
        try warehouse.ingest { s in
            let h = try s.beginFile(file(.products, "c/products.csv"), absolutePath: "/c/products.csv", bytes: 1, sha256: "c")
            #expect(try s.insert(product("p1", price: 400), file: h, line: 2))
            #expect(try s.insert(product("p3", price: 400), file: h, line: 3))
            try s.finishFile(h, read: 2, rejected: 0, superseded: 0, unknownFields: [])
        }
        try warehouse.read { (r: WarehouseReader) throws in
            #expect(try r.inputFiles().map { "\($0.displayPath) \($0.rowsSuperseded)" }
                    == ["a/products.csv 1", "b/products.csv 1", "c/products.csv 0"])
            #expect(try r.products().map { "\($0.productId) \($0.price)" } == ["p1 400", "p2 100", "p3 400"])
        }
        // The rule's verdicts on p1's rows (a:2, b:2, b:3, c:2): a's and b's kept rows superseded, b's repeat rejected.
        let verdicts = ReferenceRowRule(key: "productId").verdicts([
            .init(file: 1, loadSeq: 1, line: 2, row: 1), .init(file: 2, loadSeq: 2, line: 2, row: 2),
            .init(file: 2, loadSeq: 2, line: 3, row: 3), .init(file: 3, loadSeq: 3, line: 2, row: 4),
        ])
        #expect(verdicts == [.superseded, .superseded, .rejected(reason: ReferenceRowRule.repeatReason(key: "productId")), .counts])
    }

    @Test func aFailedIngestLeavesThePreviousState() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try warehouse.ingest { s in
                let f = try s.beginFile(file(.couples, "couples.csv"), absolutePath: "/a/couples.csv", bytes: 1, sha256: "a")
                _ = try s.insert(CoupleRecord(id: "c1", name: "x", currency: brl, createdAt: nil), file: f, line: 2)
                throw Boom()
            }
        }
        try warehouse.read { (r: WarehouseReader) throws in
            #expect(try r.inputFiles().isEmpty)
            #expect(try r.count("couple") == 0)
        }
        #expect(try warehouse.integrityCheck() == "ok")
    }

    @Test func aSecondOpenerIsToldTheWarehouseIsBusy() throws {
        let path = temporaryWarehousePath()
        let first = try Warehouse(path: path)
        do {
            _ = try Warehouse(path: path)
            Issue.record("a second warehouse opened while the first holds the lock")
        } catch let error as WarehouseError {
            #expect(error.code == .busy)
            #expect(error.description.contains("another tally run"))
        }
        _ = first
    }

    @Test func aBusyWarehouseClosesItsLockFileExactlyOnce() throws {
        let path = temporaryWarehousePath()
        let first = try Warehouse(path: path)
        func lockDescriptors() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path + ".lock"
            }.count
        }
        let before = try lockDescriptors()
        for _ in 0..<20 { #expect(throws: WarehouseError.self) { _ = try Warehouse(path: path) } }
        // Every failed opener's descriptor is closed (by deinit, once: a
        // second close could close another thread's file).
        #expect(try lockDescriptors() == before)
        _ = first
    }

    @Test func winnersThatCannotBeUsedBecomeRejects() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        try warehouse.ingest { s in
            let f = try s.beginFile(file(.expenses, "expenses.csv"), absolutePath: "/a/expenses.csv", bytes: 1, sha256: "a")
            try s.insert(version("e1", updated: 10, amount: 0, error: "amount: bad"), file: f, line: 2)   // superseded: not judged
            try s.insert(version("e1", updated: 20, amount: 100), file: f, line: 3)
            try s.insert(version("e2", updated: 20, amount: 0, error: "amount '12,50' is not a decimal"), file: f, line: 4)
        }
        try warehouse.read { (r: WarehouseReader) throws in
            let rejects = try unattachedRejects(r)
            // e2's winner cannot be used; e1's winner is fine but its couple is unknown; e1@10 is superseded, not judged.
            #expect(rejects.count == 2)
            #expect(rejects.contains { $0.id == "e1" && $0.line == 3 && $0.reason == "expense of unknown couple 'c1'" })
            #expect(rejects.contains { $0.id == "e2" && $0.line == 4 && $0.reason.contains("12,50") })
        }
    }
}

import GRDB

extension Row {
    /// Winning, live expense amounts by id.
    static func amounts(_ r: WarehouseReader) throws -> [String: Int64] {
        var out: [String: Int64] = [:]
        for row in try Row.fetchAll(r.db, sql: "SELECT id, amount FROM expense WHERE deleted_at IS NULL") {
            out[row[0]] = row[1]
        }
        return out
    }
}
