import Foundation
import GRDB
import Testing
import TallyCore
@testable import TallyIngest
@testable import TallyWarehouse

@Suite("Swipes in the warehouse: person numbers, repeated ids, matches")
struct SwipeLogTests {
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

    @Test func personNumbersAreDenseAndStable() {
        var index = SwipePersonIndex()
        func number(_ s: String) -> Int64 { Array(s.utf8).withUnsafeBufferPointer { index.number($0) } }
        let names = (0..<5000).map { "user-\($0)-ÿ" }
        let first = names.map(number)
        #expect(first == Array(1...5000).map(Int64.init))
        #expect(names.map(number) == first)  // same bytes, same number, after the table grew
        let added = index.takeAdded()
        #expect(added.count == 5000 && added.first! == (1, "user-0-ÿ") && added.last!.1 == "user-4999-ÿ")
        #expect(index.takeAdded().isEmpty)

        var restored = SwipePersonIndex()
        for (id, name) in added { restored.restore(id: id, name: name) }
        #expect(restored.takeAdded().isEmpty)  // restored people are already stored
        #expect(Array("user-42-ÿ".utf8).withUnsafeBufferPointer { restored.number($0) } == 43)
        #expect(Array("new".utf8).withUnsafeBufferPointer { restored.number($0) } == 5001)
        #expect(restored.takeAdded().map(\.1) == ["new"])
    }

    @Test func theIdFilterNeverMissesARepeatAndRarelyCriesWolf() {
        var filter = SwipeIdFilter(expected: 200_000)
        var falseAlarms = 0
        for n in 0..<200_000 {
            if Array("swipe-\(n)".utf8).withUnsafeBufferPointer({ filter.insert($0) }) { falseAlarms += 1 }
        }
        for n in stride(from: 0, to: 200_000, by: 997) {
            #expect(Array("swipe-\(n)".utf8).withUnsafeBufferPointer { filter.insert($0) })
        }
        #expect(falseAlarms < 200)  // under 0.1%
    }

    @Test("a sparse key set answers as its set does, for keys it holds and far more it does not")
    func sparseKeySetAnswersAsItsSet() {
        var random = SystemRandomNumberGenerator()
        // Pairs as the derivation makes them (two person numbers), and hashes spread over 64 bits.
        let pairs = Set((0..<20_000).map { _ in UInt64.random(in: 1...5_000, using: &random) << 32 | UInt64.random(in: 1...5_000, using: &random) })
        let hashes = Set((0..<3).map { _ in UInt64.random(in: 0...UInt64.max, using: &random) })
        for keys in [pairs, hashes, []] {
            let sparse = SparseKeySet(keys)
            #expect(sparse.isEmpty == keys.isEmpty)
            for key in keys { #expect(sparse.contains(key)) }
            var disagreements = 0
            for _ in 0..<200_000 {
                let key = keys.count > 3 ? UInt64.random(in: 1...5_000, using: &random) << 32 | UInt64.random(in: 1...5_000, using: &random)
                                         : UInt64.random(in: 0...UInt64.max, using: &random)
                if sparse.contains(key) != keys.contains(key) { disagreements += 1 }
            }
            #expect(disagreements == 0)
        }
    }

    @Test func aRepeatedIdCountsOnceLatestFileFirstRowWithinAFile() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        try warehouse.ingest { s in
            let a = try s.beginFile(file(.swipes, "a/swipes.ndjson"), absolutePath: "/a/swipes.ndjson", bytes: 100, sha256: "a")
            try insert(s, "s1", "ana", "bia", .like, at: 100, file: a, line: 1)
            try insert(s, "s1", "ana", "bia", .report, at: 100, file: a, line: 2)  // repeat within the file: the first row counts
            try insert(s, "s2", "bia", "ana", .superLike, at: 200, file: a, line: 3)
            try insert(s, "s3", "caio", "ana", .like, at: 300, file: a, line: 4)
            try s.finishFile(a, read: 4, rejected: 0, superseded: 0, unknownFields: [])
        }
        func accepted() throws -> [String] {
            try warehouse.read { r in
                try String.fetchAll(r.db, sql: "SELECT id || ':' || from_user || '>' || to_user || ':' || action || ':' || line FROM swipe ORDER BY id")
            }
        }
        func superseded() throws -> [String: Int] {
            try warehouse.read { r in
                Dictionary(uniqueKeysWithValues: try r.inputFiles().map { ($0.displayPath, $0.rowsSuperseded) })
            }
        }
        func matches() throws -> [Timestamp] {
            try warehouse.read { r in try r.matchInstants(from: Timestamp(seconds: 0), to: Timestamp(seconds: 10_000)) }
        }
        #expect(try accepted() == ["s1:ana>bia:like:1", "s2:bia>ana:super_like:3", "s3:caio>ana:like:4"])
        #expect(try superseded() == ["a/swipes.ndjson": 1])
        #expect(try matches() == [Timestamp(seconds: 200)])

        // A later file's row of the same id replaces the earlier file's; the
        // session restores the people and ids already stored.
        try warehouse.ingest { s in
            let b = try s.beginFile(file(.swipes, "b/swipes.ndjson"), absolutePath: "/b/swipes.ndjson", bytes: 100, sha256: "b")
            try insert(s, "s1", "ana", "bia", .report, at: 150, file: b, line: 1)
            try insert(s, "s4", "ana", "caio", .like, at: 400, file: b, line: 2)
            try s.finishFile(b, read: 2, rejected: 0, superseded: 0, unknownFields: [])
        }
        #expect(try accepted() == ["s1:ana>bia:report:1", "s2:bia>ana:super_like:3", "s3:caio>ana:like:4", "s4:ana>caio:like:2"])
        #expect(try superseded() == ["a/swipes.ndjson": 2, "b/swipes.ndjson": 0])
        // ana reported bia: that pair no longer matches; ana and caio now do.
        #expect(try matches() == [Timestamp(seconds: 400)])
        #expect(try warehouse.read { try Int.fetchOne($0.db, sql: "SELECT count(*) FROM swipe_person") } == 3)

        // The match pass in many partitions finds the same matches as in one,
        // and as the pass over the pairs collected by the repeats' scan.
        for budget in [1, 50, 1 << 20] {
            try warehouse.queue.write { db in
                try db.execute(sql: "DELETE FROM swipe_match")
                try SwipeLogSchema.deriveMatches(db, budget: budget)
            }
            #expect(try matches() == [Timestamp(seconds: 400)], "budget \(budget)")
            try warehouse.queue.write { db in try SwipeLogSchema.derive(db, budget: budget) }
            #expect(try matches() == [Timestamp(seconds: 400)], "budget \(budget)")
            // Dropped before the matches are stored, built again after them.
            #expect(try warehouse.read { try Int.fetchOne($0.db, sql: """
                SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'swipe_match_formed'
                """) } == 1, "budget \(budget)")
        }

        var counted: [(Int64, SwipeAction, Timestamp)] = []
        try warehouse.read { r in
            try r.forEachSwipe(from: Timestamp(seconds: 0), to: Timestamp(seconds: 1000)) { counted.append(($0, $1, $2)) }
        }
        #expect(counted.count == 4)
        #expect(Set(counted.map(\.0)).count == 3)

        // Unloading the later file brings the first file's row of s1 back.
        try warehouse.ingest { s in _ = try s.unloadVanished(under: "/b", present: []) }
        #expect(try accepted() == ["s1:ana>bia:like:1", "s2:bia>ana:super_like:3", "s3:caio>ana:like:4"])
        #expect(try matches() == [Timestamp(seconds: 200)])
    }

    @Test("a window's swipes read through the files' spans are those of the whole log: monthly files, a late row, an unloaded file, a file without a span")
    func windowsReadThroughSpans() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        // Four "monthly" files of 100 s each, the third with a late row from the first month, and an empty one.
        for month in 0..<4 {
            try warehouse.ingest { s in
                let f = try s.beginFile(file(.swipes, "m\(month)/swipes.ndjson"), absolutePath: "/m\(month)/swipes.ndjson",
                                        bytes: 1, sha256: "m\(month)")
                for i in 0..<5 {
                    try insert(s, "m\(month)-\(i)", "u\(i)", "v\(month)", i % 2 == 0 ? .like : .pass,
                               at: Int64(month * 100 + i * 20), file: f, line: i + 1)
                }
                if month == 2 { try insert(s, "late", "u9", "v9", .like, at: 10, file: f, line: 6) }
                try s.finishFile(f, read: month == 2 ? 6 : 5, rejected: 0, superseded: 0, unknownFields: [])
            }
        }
        try warehouse.ingest { s in
            let f = try s.beginFile(file(.swipes, "empty/swipes.ndjson"), absolutePath: "/empty/swipes.ndjson", bytes: 1, sha256: "e")
            try s.finishFile(f, read: 0, rejected: 0, superseded: 0, unknownFields: [])
        }
        _ = try warehouse.derivePending()
        func window(_ from: Int64, _ to: Int64) throws -> [Int64] {
            try warehouse.read { r in
                var instants: [Int64] = []
                try r.forEachSwipe(from: Timestamp(seconds: from), to: Timestamp(seconds: to)) { _, _, at in
                    instants.append(at.microseconds / 1_000_000)
                }
                return instants.sorted()
            }
        }
        func expected(_ from: Int64, _ to: Int64, months: [Int] = [0, 1, 2, 3]) -> [Int64] {
            var instants: [Int64] = months.contains(2) ? [10] : []
            for month in months {
                for i in 0..<5 { instants.append(Int64(month * 100 + i * 20)) }
            }
            return instants.filter { $0 >= from && $0 < to }.sorted()
        }
        let windows: [(Int64, Int64)] = [(0, 400), (100, 300), (200, 300), (0, 100), (300, 400), (90, 110), (400, 500)]
        for (from, to) in windows { #expect(try window(from, to) == expected(from, to), "\(from)..<\(to)") }
        #expect(try warehouse.read { r in try SwipeSpans.ranges(r.db, from: 300 * 1_000_000, to: 400 * 1_000_000) }?.count == 1)
        // The late row makes the third file cover the first month: its rows are read for it too, once.
        #expect(try warehouse.read { r in try SwipeSpans.ranges(r.db, from: 0, to: 100 * 1_000_000) }?.count == 2)

        // Unloading the second month's file takes its rows and its span.
        try warehouse.ingest { s in _ = try s.unloadVanished(under: "/m1", present: []) }
        _ = try warehouse.derivePending()
        for (from, to) in windows { #expect(try window(from, to) == expected(from, to, months: [0, 2, 3]), "\(from)..<\(to)") }
        #expect(try warehouse.read { try Int.fetchOne($0.db, sql: "SELECT count(*) FROM swipe_span") } == 4)

        // A swipes file without a span (stored without one): the whole log is read.
        try warehouse.queue.write { db in try db.execute(sql: "DELETE FROM swipe_span WHERE file_id = (SELECT min(file_id) FROM swipe_span WHERE first_row <= last_row)") }
        #expect(try warehouse.read { r in try SwipeSpans.ranges(r.db, from: 0, to: 1) } == nil)
        for (from, to) in windows { #expect(try window(from, to) == expected(from, to, months: [0, 2, 3]), "\(from)..<\(to)") }
    }

    @Test("the spans of the swipes files loaded before spans are found from the log")
    func spansOfEarlierFiles() throws {
        let path = try legacyWarehouse(upTo: "v29: expense versions by date", twoLoads(of: "swipes.ndjson", dataset: "swipes", table: "swipes") + """
            INSERT INTO swipe_row (id, from_person, to_person, action, at, file_id, line) VALUES
                ('a', 1, 2, 'like', 500, 1, 1), ('b', 1, 2, 'like', 100, 1, 2), ('c', 2, 1, 'like', 300, 2, 1);
            """)
        let warehouse = try Warehouse(path: path)
        let spans = try warehouse.read { try Row.fetchAll($0.db, sql: "SELECT * FROM swipe_span ORDER BY file_id") }
        #expect(spans.map { [$0[0], $0[1], $0[2], $0[3], $0[4]] as [Int64] } == [[1, 1, 2, 100, 500], [2, 3, 3, 300, 300]])
    }

    @Test func theMatchScanReadsExactlyTheActionsTheRuleDeclares() throws {
        #expect(SwipeLogSchema.matchActionFilter == "action NOT IN ('pass')")
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE swipe_row (action TEXT NOT NULL)")
            for action in SwipeAction.allCases {
                try db.execute(sql: "INSERT INTO swipe_row (action) VALUES (?)", arguments: [action.rawValue])
            }
        }
        #expect(try queue.read { db in
            Set(try String.fetchAll(db, sql: "SELECT action FROM swipe_row WHERE \(SwipeLogSchema.matchActionFilter)"))
        } == Set(MatchRule.matchActions.map(\.rawValue)))
        // Whatever set a rule declares, the condition keeps exactly it.
        let all = SwipeAction.allCases
        for mask in 0..<(1 << all.count) {
            let kept = Set(all.indices.filter { mask & (1 << $0) != 0 }.map { all[$0] })
            let read = try queue.read { db in
                Set(try String.fetchAll(db, sql: "SELECT action FROM swipe_row WHERE \(SwipeLogSchema.actionFilter(keeping: kept))"))
            }
            #expect(read == Set(kept.map(\.rawValue)), "\(kept)")
        }
    }

    @Test func aSupersededLikeOrReportNeverCountsForAMatchWhateverThePass() throws {
        // bia's like of ana is superseded by a later file's pass of the same id:
        // no match, by every way the pass reads the swipes.
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        try warehouse.ingest { s in
            let a = try s.beginFile(file(.swipes, "a/swipes.ndjson"), absolutePath: "/a/swipes.ndjson", bytes: 100, sha256: "a")
            try insert(s, "s1", "ana", "bia", .like, at: 100, file: a, line: 1)
            try insert(s, "s2", "bia", "ana", .like, at: 200, file: a, line: 2)
            try s.finishFile(a, read: 2, rejected: 0, superseded: 0, unknownFields: [])
            let b = try s.beginFile(file(.swipes, "b/swipes.ndjson"), absolutePath: "/b/swipes.ndjson", bytes: 100, sha256: "b")
            try insert(s, "s2", "bia", "ana", .pass, at: 250, file: b, line: 1)
            try s.finishFile(b, read: 1, rejected: 0, superseded: 0, unknownFields: [])
        }
        func matches() throws -> [Timestamp] {
            try warehouse.read { r in try r.matchInstants(from: Timestamp(seconds: 0), to: Timestamp(seconds: 10_000)) }
        }
        #expect(try matches() == [])
        for budget in [1, 1 << 20] {
            try warehouse.queue.write { db in try SwipeLogSchema.derive(db, budget: budget) }
            #expect(try matches() == [], "budget \(budget)")
            try warehouse.queue.write { db in
                try db.execute(sql: "DELETE FROM swipe_match")
                try SwipeLogSchema.deriveMatches(db, budget: budget)
            }
            #expect(try matches() == [], "budget \(budget)")
        }
    }

    /// The matches, the superseded rows and each swipes file's superseded count.
    func derivedSwipes(_ warehouse: Warehouse) throws -> [String] {
        try warehouse.read { r in
            try String.fetchAll(r.db, sql: """
                SELECT 'm ' || p.name || '/' || q.name || '@' || m.formed_at FROM swipe_match m
                JOIN swipe_person p ON p.id = m.user_a JOIN swipe_person q ON q.id = m.user_b
                UNION ALL SELECT 's ' || row FROM swipe_superseded
                UNION ALL SELECT 'f ' || display_path || ' ' || rows_superseded FROM input_file WHERE table_name = 'swipes'
                ORDER BY 1
                """)
        }
    }

    @Test("after each month's ingest, the matches brought up to date for the month's pairs equal a derivation from scratch",
          arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func incrementalMatchesEqualAFullDerivation(seed: UInt64) throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        var random = SplitMix64(seed: seed &* 7919)
        let users = ["ana", "bia", "caio", "dani", "edu", "fer"]
        let actions: [SwipeAction] = [.like, .like, .superLike, .pass, .report]
        var nextId = 0
        for month in 1...12 {
            // Now and then a month's folder is exported again: its file is replaced (a derivation from scratch).
            let folder = month > 2 && Int.random(in: 0..<5, using: &random) == 0
                ? "m\(Int.random(in: 1..<month, using: &random))" : "m\(month)"
            try warehouse.ingest { s in
                let f = try s.beginFile(file(.swipes, "\(folder)/swipes.ndjson"), absolutePath: "/\(folder)/swipes.ndjson",
                                        bytes: 100, sha256: "\(folder)-\(month)")
                var ids = Set<String>()
                let count = Int.random(in: 0...14, using: &random)
                for line in 1...max(count, 1) where count > 0 {
                    // Mostly new ids; some repeat an earlier month's (a re-sent row).
                    let id = nextId > 0 && Int.random(in: 0..<3, using: &random) == 0
                        ? "s\(Int.random(in: 0..<nextId, using: &random))" : "s\(nextId)"
                    if id == "s\(nextId)" { nextId += 1 }
                    guard ids.insert(id).inserted else { continue }
                    let from = users[Int.random(in: 0..<users.count, using: &random)]
                    let to = users[Int.random(in: 0..<users.count, using: &random)]
                    try insert(s, id, from, to, actions[Int.random(in: 0..<actions.count, using: &random)],
                               at: Int64(month * 100 + Int.random(in: 0..<90, using: &random)), file: f, line: line)
                }
                try s.finishFile(f, read: ids.count, rejected: 0, superseded: 0, unknownFields: [])
            }
            let incremental = try derivedSwipes(warehouse)
            try warehouse.queue.write { db in
                try db.execute(sql: "DELETE FROM derivation_mark")
                try SwipeLogSchema.derive(db, budget: 1 << 20)
            }
            #expect(try derivedSwipes(warehouse) == incremental, "seed \(seed), month \(month) (\(folder))")
        }
        #expect(try warehouse.integrityCheck() == "ok")
    }

    @Test func aWarehouseOfTheTextLayoutReloadsItsSwipes() throws {
        let path = try legacyWarehouse(upTo: "v3: swipes and subscriptions", """
            INSERT INTO input_file (id, path, display_path, dataset, table_name, bytes, sha256, load_seq)
            VALUES (1, '/d/swipes/swipes.ndjson', 'swipes/swipes.ndjson', 'swipes', 'swipes', 10, 'x', 1),
                   (2, '/d/swipes/users.jsonl', 'swipes/users.jsonl', 'swipes', 'swipeUsers', 10, 'y', 2);
            INSERT INTO swipe_row VALUES ('s1', 'ana', 'bia', 'like', 0, 1, 1);
            """)
        let warehouse = try Warehouse(path: path)
        let files = try warehouse.read { try $0.inputFiles().map(\.displayPath) }
        #expect(files == ["swipes/users.jsonl"])  // swipes/swipes.ndjson loads again, into the new layout
        #expect(try warehouse.read { try Int.fetchOne($0.db, sql: "SELECT count(*) FROM swipe") } == 0)
    }

    @Test func aBatchStoresEveryRowWhateverItsSize() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        try warehouse.ingest { s in
            let f = try s.beginFile(file(.swipes, "s/swipes.ndjson"), absolutePath: "/s/swipes.ndjson", bytes: 100, sha256: "s")
            var batch = SwipeBatch()
            let stager = try s.swipeStager()
            for n in 0..<150 {   // two statements of 64 rows, then 22 rows one by one
                let (i, from, to) = (Array("id\(n)".utf8), Array("u\(n % 7)".utf8), Array("v\(n % 5)".utf8))
                i.withUnsafeBufferPointer { i in
                    from.withUnsafeBufferPointer { from in
                        to.withUnsafeBufferPointer { to in
                            stager.stage(SwipeFields(id: i, fromUserId: from, toUserId: to, action: .like,
                                                     timestamp: Timestamp(seconds: Int64(n))), line: n + 2, into: &batch)
                        }
                    }
                }
            }
            stager.seal(&batch)   // users numbered (a user repeats within the batch), ids flagged
            try s.store(batch, file: f)
            try s.finishFile(f, read: 150, rejected: 0, superseded: 0, unknownFields: [])
        }
        let rows = try warehouse.read { r in
            try String.fetchAll(r.db, sql: "SELECT id || ' ' || from_user || ' ' || to_user || ' ' || at || ' ' || line FROM swipe ORDER BY line")
        }
        #expect(rows == (0..<150).map { n in "id\(n) u\(n % 7) v\(n % 5) \(Int64(n) * 1_000_000) \(n + 2)" })
    }

    /// The id filter is kept in the warehouse between ingests: the next
    /// ingest's stager starts from it, not from hashing every stored id,
    /// and still finds a repeat of an id stored earlier. A kept filter of
    /// another layout, or too small for the swipes to come, is not used.
    @Test func theKeptIdFilterFindsRepeatsOfEarlierIngests() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        func load(_ name: String, ids: [String], bytes: Int64 = 100) throws -> Bool {
            try warehouse.ingest { s in
                let f = try s.beginFile(file(.swipes, "\(name)/swipes.ndjson"), absolutePath: "/\(name)/swipes.ndjson",
                                        bytes: bytes, sha256: name)
                for (line, id) in ids.enumerated() { try insert(s, id, "ana", "bia", .like, at: 100, file: f, line: line + 1) }
                try s.finishFile(f, read: ids.count, rejected: 0, superseded: 0, unknownFields: [])
                return try s.swipeStager().restoredFilter
            }
        }
        func superseded() throws -> [String] {
            try warehouse.read { r in
                try String.fetchAll(r.db, sql: """
                    SELECT r.id || '@' || f.display_path FROM swipe_superseded s JOIN swipe_row r ON r.rowid = s.row
                    JOIN input_file f ON f.id = r.file_id ORDER BY 1
                    """)
            }
        }
        #expect(try load("a", ids: ["s1", "s2"]) == false)   // nothing kept yet
        #expect(try load("b", ids: ["s3", "s1"]) == true)
        #expect(try superseded() == ["s1@a/swipes.ndjson"])

        // Another layout: made again from the stored ids, which it must hold to find s2.
        try warehouse.queue.write { db in try db.execute(sql: "UPDATE swipe_id_filter SET layout = layout + 1") }
        #expect(try load("c", ids: ["s2"]) == false)
        #expect(try superseded() == ["s1@a/swipes.ndjson", "s2@a/swipes.ndjson"])
        #expect(try warehouse.read { try Int64.fetchOne($0.db, sql: "SELECT layout FROM swipe_id_filter") } == SwipeIdFilter.layout)

        // Swipes to come that outgrow the kept filter: a new generation beside it, the stored ids not
        // hashed again; a repeat of an id of the older generation is still found, and so is one of the newer.
        let grown = Int64(SwipeIdFilter.bits(expected: 1) / 16 * 40 * 2)
        #expect(try load("d", ids: ["s3", "s5"], bytes: grown) == true)
        #expect(try warehouse.read { try Int.fetchOne($0.db, sql: "SELECT count(*) FROM swipe_id_filter") } == 2)
        #expect(try superseded() == ["s1@a/swipes.ndjson", "s2@a/swipes.ndjson", "s3@b/swipes.ndjson"])
        #expect(try load("e", ids: ["s4", "s5"]) == true)
        #expect(try superseded() == ["s1@a/swipes.ndjson", "s2@a/swipes.ndjson", "s3@b/swipes.ndjson", "s5@d/swipes.ndjson"])
        #expect(try warehouse.read { try Int.fetchOne($0.db, sql: "SELECT count(*) FROM swipe_id_filter") } == 2)
    }

    /// A filter kept by a warehouse of the single-filter layout (v19) becomes the first generation.
    @Test func aKeptFilterOfTheSingleLayoutBecomesTheFirstGeneration() throws {
        let path = temporaryWarehousePath()
        let queue = try DatabaseQueue(path: path)
        try WarehouseSchema.migrator.migrate(queue, upTo: "v26: key changes and key states")
        let bits = SwipeIdFilter.bits(expected: 1)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO swipe_id_filter (id, layout, bits) VALUES (1, ?, zeroblob(?))",
                           arguments: [SwipeIdFilter.layout, bits / 8])
        }
        try WarehouseSchema.migrator.migrate(queue)
        let row = try queue.read { try Row.fetchOne($0, sql: "SELECT generation, layout, ids, length(bits) FROM swipe_id_filter") }
        #expect(row?[0] == 1 && row?[1] == SwipeIdFilter.layout && row?[2] == 0 && row?[3] == bits / 8)
        let kept = try queue.read { try SwipeIdFilters.stored($0) }
        #expect(kept?.generations == 1)
    }
}
