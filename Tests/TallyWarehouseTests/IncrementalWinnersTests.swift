import Foundation
import GRDB
import Testing
import TallyCore
@testable import TallyIngest
@testable import TallyWarehouse

/// After an ingest that only appended rows, the winner tables are brought
/// up to date for the new rows and the keys they repeat (`WinnerTable`,
/// `DerivationMarks`); the result is always the one a derivation from
/// scratch gives.
@Suite("Incremental winners")
struct IncrementalWinnersTests {
    let brl = Currency(code: "BRL")!

    func version(_ id: String, couple: String, updated: Int64, amount: Int64) -> ExpenseVersion {
        let body = ExpenseVersion.Body(coupleId: couple, paidBy: "m1", amount: amount, currency: brl,
                                       date: LocalDate(year: 2026, month: 10, day: 1)!, description: "d", tag: "food",
                                       cardId: nil, agreementId: nil, split: .equal)
        return ExpenseVersion(id: id, updatedAt: Timestamp(seconds: updated), deletedAt: nil, body: body, error: nil)
    }

    func checkin(_ id: String, challenge: String, workout: String, minutes: Int, at seconds: Int64) -> CheckinRecord {
        CheckinRecord(id: id, groupId: "g1", challengeId: challenge, userId: "ana", displayName: "Ana",
                      userPhotoURL: nil, checkInPhotoURL: nil, workoutEntryId: workout,
                      minutes: minutes, createdAt: Timestamp(seconds: 1_790_000_000 + seconds))
    }

    /// Everything the winner derivations decide: the winner tables, the
    /// duplicate marks and each file's superseded count.
    func derived(_ warehouse: Warehouse) throws -> [String] {
        try warehouse.read { (r: WarehouseReader) throws in
            try String.fetchAll(r.db, sql: """
                SELECT 'e ' || couple_id || '/' || id || '@' || version_row FROM expense_winner
                UNION ALL
                SELECT 'c ' || challenge_id || '/' || created_at || '/' || id || '@' || log_row || ' dup ' || coalesce(duplicate_of, '-')
                FROM checkin_winner
                UNION ALL
                SELECT 'f ' || display_path || ' ' || rows_superseded FROM input_file
                ORDER BY 1
                """)
        }
    }

    /// The same warehouse's winners derived from scratch: the marks are
    /// forgotten and both tables derived again.
    func derivedFromScratch(_ warehouse: Warehouse) throws -> [String] {
        try warehouse.ingest { s in
            try s.db.execute(sql: """
                DELETE FROM derivation_mark;
                INSERT OR IGNORE INTO derivation_pending (name) VALUES ('expense winners'), ('check-in winners');
                """)
        }
        return try derived(warehouse)
    }

    func marks(_ warehouse: Warehouse) throws -> [String: Int64] {
        try warehouse.read { (r: WarehouseReader) throws in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(r.db, sql: "SELECT name, last_row FROM derivation_mark")
                .map { ($0[0] as String, $0[1] as Int64) })
        }
    }

    /// Loads a month of random expense versions and check-ins, their ids
    /// drawn from small pools so that they repeat within and across files,
    /// as the file `folder/…` (a folder used before is loaded again: its
    /// previous files are replaced).
    func loadMonth(_ warehouse: Warehouse, folder: String, random: inout SplitMix64) throws {
        let expenseCount = Int.random(in: 0...12, using: &random)
        let checkinCount = Int.random(in: 0...12, using: &random)
        var versions: [ExpenseVersion] = []
        for _ in 0..<expenseCount {
            versions.append(version("e\(Int.random(in: 1...15, using: &random))",
                                    couple: "c\(Int.random(in: 1...2, using: &random))",
                                    updated: Int64.random(in: 1...5, using: &random), amount: Int64.random(in: 1...99, using: &random)))
        }
        var checkins: [CheckinRecord] = []
        var seen = Set<String>()
        for _ in 0..<checkinCount {
            let id = "k\(Int.random(in: 1...15, using: &random))"
            guard seen.insert(id).inserted else { continue }   // a repeat within a file is a reject, tested elsewhere
            checkins.append(checkin(id, challenge: "ch\(Int.random(in: 1...2, using: &random))",
                                    workout: "w\(Int.random(in: 1...6, using: &random))",
                                    minutes: Int.random(in: 10...90, using: &random), at: Int64.random(in: 1...40, using: &random)))
        }
        try warehouse.ingest { s in
            let e = try s.beginFile(file(.expenses, "\(folder)/expenses.csv"), absolutePath: "/\(folder)/expenses.csv",
                                    bytes: 1, sha256: folder)
            for (i, v) in versions.enumerated() { try s.insert(v, file: e, line: i + 2) }
            try s.finishFile(e, read: versions.count, rejected: 0, superseded: 0, unknownFields: [])
            let c = try s.beginFile(file(.checkins, "\(folder)/checkins.ndjson"), absolutePath: "/\(folder)/checkins.ndjson",
                                    bytes: 1, sha256: folder)
            for (i, k) in checkins.enumerated() { try s.insert(k, file: c, line: i + 1) }
            #expect(try s.removeRepeatedCheckins(file: c).isEmpty)
            try s.finishFile(c, read: checkins.count, rejected: 0, superseded: 0, unknownFields: [])
        }
    }

    @Test(arguments: Array(1...24) as [UInt64])
    func eachMonthsWinnersEqualAFullDerivations(seed: UInt64) throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        var random = SplitMix64(seed: seed)
        for month in 1...8 {
            // Now and then a month's folder is exported again: its files are replaced.
            let folder = month > 2 && Int.random(in: 0..<4, using: &random) == 0
                ? "m\(Int.random(in: 1..<month, using: &random))" : "m\(month)"
            try loadMonth(warehouse, folder: folder, random: &random)
            let incremental = try derived(warehouse)
            #expect(try derivedFromScratch(warehouse) == incremental, "seed \(seed), month \(month) (\(folder))")
        }
        #expect(try warehouse.integrityCheck() == "ok")
    }

    @Test func anAppendOnlyIngestLeavesTheOtherKeysEntriesAsTheyAre() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        var random = SplitMix64(seed: 7)
        try loadMonth(warehouse, folder: "m1", random: &random)
        #expect(try marks(warehouse).keys.sorted() == ["check-in winners", "expense winners"])
        // An entry no derivation made: only a derivation from scratch lists the winners anew.
        try warehouse.ingest { s in
            try s.db.execute(sql: "INSERT INTO expense_winner (couple_id, id, version_row) VALUES ('c9', 'stale', 1)")
        }
        try loadMonth(warehouse, folder: "m2", random: &random)
        #expect(try derived(warehouse).contains("e c9/stale@1"))
        #expect(try !derivedFromScratch(warehouse).contains("e c9/stale@1"))
    }

    @Test func replacingOrRemovingAFileForgetsTheMarks() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        var random = SplitMix64(seed: 8)
        try loadMonth(warehouse, folder: "m1", random: &random)
        try loadMonth(warehouse, folder: "m2", random: &random)
        try warehouse.ingestLeavingDerivations { s in _ = try s.unloadVanished(under: "/m2", present: []) }
        #expect(try marks(warehouse).isEmpty)
        _ = try warehouse.derivePending()
        #expect(try marks(warehouse).keys.sorted() == ["check-in winners", "expense winners"])
        try warehouse.ingestLeavingDerivations { s in
            _ = try s.beginFile(file(.expenses, "m1/expenses.csv"), absolutePath: "/m1/expenses.csv", bytes: 1, sha256: "again")
        }
        #expect(try marks(warehouse).isEmpty)
    }
}
