import Foundation
import GRDB
import Testing
import TallyCore
@testable import TallyIngest
@testable import TallyWarehouse

/// After an ingest that only appended swipes, the matches are replaced for
/// the pairs of the new swipes alone (`SwipeLogSchema`); the result is
/// always the one a derivation from scratch gives.
@Suite("Incremental matches")
struct IncrementalMatchesTests {
    let users = ["ana", "bia", "caio", "dani", "edu"]

    func insert(_ s: IngestSession, _ id: String, _ from: String, _ to: String, _ action: SwipeAction,
                at seconds: Int64, file: Int64, line: Int) throws {
        let (i, f, t) = (Array(id.utf8), Array(from.utf8), Array(to.utf8))
        try i.withUnsafeBufferPointer { i in
            try f.withUnsafeBufferPointer { f in
                try t.withUnsafeBufferPointer { t in
                    try s.insert(SwipeFields(id: i, fromUserId: f, toUserId: t, action: action,
                                             timestamp: Timestamp(seconds: seconds)), file: file, line: line)
                }
            }
        }
    }

    /// The matches, the superseded rows and each file's superseded count.
    func derived(_ warehouse: Warehouse) throws -> [String] {
        try warehouse.read { (r: WarehouseReader) throws in
            try String.fetchAll(r.db, sql: """
                SELECT 'm ' || p.name || '-' || q.name || '@' || m.formed_at
                FROM swipe_match m JOIN swipe_person p ON p.id = m.user_a JOIN swipe_person q ON q.id = m.user_b
                UNION ALL SELECT 's ' || row FROM swipe_superseded
                UNION ALL SELECT 'f ' || display_path || ' ' || rows_superseded FROM input_file
                ORDER BY 1
                """)
        }
    }

    func derivedFromScratch(_ warehouse: Warehouse) throws -> [String] {
        try warehouse.ingest { s in
            try s.db.execute(sql: """
                DELETE FROM derivation_mark;
                INSERT OR IGNORE INTO derivation_pending (name) VALUES ('swipe repeats and matches');
                """)
        }
        return try derived(warehouse)
    }

    func marked(_ warehouse: Warehouse) throws -> Bool {
        try warehouse.read { try Int.fetchOne($0.db, sql: "SELECT count(*) FROM derivation_mark WHERE name = 'swipe repeats and matches'") } == 1
    }

    /// A month of random swipes among a few users, so that pairs gather
    /// swipes across months: likes both ways, reports, passes, and ids
    /// sent again (some with another action or between other users).
    func loadMonth(_ warehouse: Warehouse, folder: String, month: Int, random: inout SeededRandom) throws {
        let count = Int.random(in: 0...14, using: &random)
        let actions: [SwipeAction] = [.like, .like, .superLike, .pass, .pass, .report]
        try warehouse.ingest { s in
            let f = try s.beginFile(file(.swipes, "\(folder)/swipes.ndjson"), absolutePath: "/\(folder)/swipes.ndjson",
                                    bytes: 100, sha256: folder)
            for line in 1...max(count, 1) where count > 0 {
                let from = users.randomElement(using: &random)!
                let to = users.filter { $0 != from }.randomElement(using: &random)!
                // Most ids are new; one in five repeats an earlier month's (or this one's) id.
                let id = Int.random(in: 0..<5, using: &random) == 0
                    ? "s\(Int.random(in: 1...month, using: &random))-\(Int.random(in: 1...3, using: &random))"
                    : "s\(month)-\(line)"
                try insert(s, id, from, to, actions.randomElement(using: &random)!,
                           at: Int64(month * 1000 + Int.random(in: 0..<1000, using: &random)), file: f, line: line)
            }
            try s.finishFile(f, read: count, rejected: 0, superseded: 0, unknownFields: [])
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func eachMonthsMatchesEqualAFullDerivations(seed: UInt64) throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        var random = SeededRandom(seed)
        for month in 1...10 {
            // Now and then a month's folder is exported again: its file is replaced.
            let folder = month > 2 && Int.random(in: 0..<5, using: &random) == 0
                ? "m\(Int.random(in: 1..<month, using: &random))" : "m\(month)"
            try loadMonth(warehouse, folder: folder, month: month, random: &random)
            #expect(try marked(warehouse))
            let incremental = try derived(warehouse)
            #expect(try derivedFromScratch(warehouse) == incremental, "seed \(seed), month \(month) (\(folder))")
        }
        #expect(try warehouse.integrityCheck() == "ok")
    }

    @Test func anAppendOnlyIngestLeavesTheOtherPairsMatchesAsTheyAre() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        try warehouse.ingest { s in
            let f = try s.beginFile(file(.swipes, "a/swipes.ndjson"), absolutePath: "/a/swipes.ndjson", bytes: 100, sha256: "a")
            try insert(s, "s1", "ana", "bia", .like, at: 100, file: f, line: 1)
            try insert(s, "s2", "bia", "ana", .like, at: 200, file: f, line: 2)
            try insert(s, "s3", "caio", "dani", .like, at: 300, file: f, line: 3)
            try s.finishFile(f, read: 3, rejected: 0, superseded: 0, unknownFields: [])
        }
        #expect(try derived(warehouse).filter { $0.hasPrefix("m ") } == ["m ana-bia@200000000"])
        // An entry no derivation made, for a pair the next month does not touch.
        try warehouse.ingest { s in
            try s.db.execute(sql: "INSERT INTO swipe_match (user_a, user_b, formed_at) VALUES (3, 4, 1)")
        }
        try warehouse.ingest { s in
            let f = try s.beginFile(file(.swipes, "b/swipes.ndjson"), absolutePath: "/b/swipes.ndjson", bytes: 100, sha256: "b")
            try insert(s, "s4", "ana", "bia", .report, at: 400, file: f, line: 1)   // unmakes ana and bia's match
            try s.finishFile(f, read: 1, rejected: 0, superseded: 0, unknownFields: [])
        }
        #expect(try derived(warehouse).filter { $0.hasPrefix("m ") } == ["m caio-dani@1"])
        #expect(try derivedFromScratch(warehouse).filter { $0.hasPrefix("m ") }.isEmpty)
    }
}
