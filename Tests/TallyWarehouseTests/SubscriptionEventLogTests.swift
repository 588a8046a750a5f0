import Foundation
import GRDB
import Testing
import TallyCore
@testable import TallyIngest
@testable import TallyWarehouse

/// Subscription events are appended as read and settled after the load
/// (`SubscriptionLogSchema.events`) with the rules the keyed upsert had.
@Suite("Subscription events: append-only log and winners")
struct SubscriptionEventLogTests {
    func event(_ id: String, user: String, _ kind: SubscriptionEventKind, at seconds: Int64, product: String? = "p.m")
        -> SubscriptionEventRecord {
        SubscriptionEventRecord(id: id, app: "FisioFlow", userId: user,
                                event: SubscriptionEvent(kind: kind, timestamp: Timestamp(seconds: seconds), productId: product))
    }

    /// Every stored event as "user kind file:line", in read order.
    func stored(_ warehouse: Warehouse) throws -> [String] {
        try warehouse.read { (r: WarehouseReader) throws in
            var out: [String] = []
            try r.forEachSubscriber { _, user, events, ids in
                #expect(ids.count == events.count)
                for e in events { out.append("\(user) \(e.kind.rawValue) \(e.source?.file ?? ""):\(e.source?.line ?? 0)") }
            }
            return out
        }
    }

    @Test func aRepeatedIdInOneFileKeepsTheFirstRowAndRejectsTheRepeat() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        try warehouse.ingest { s in
            let f = try s.beginFile(file(.events, "a/events.csv"), absolutePath: "/a/events.csv", bytes: 1, sha256: "a")
            try s.insert(event("e1", user: "u1", .subscribed, at: 100), file: f, line: 2)
            try s.insert(event("e2", user: "u1", .renewed, at: 200), file: f, line: 3)
            try s.insert(event("e1", user: "u2", .refunded, at: 50), file: f, line: 4)    // repeat: rejected
            try s.insert(event("e1", user: "u1", .expired, at: 300), file: f, line: 5)    // and again
            try s.finishFile(f, read: 4, rejected: 0, superseded: 0, unknownFields: [])
        }
        #expect(try stored(warehouse) == ["u1 subscribed a/events.csv:2", "u1 renewed a/events.csv:3"])
        try warehouse.read { (r: WarehouseReader) throws in
            let rejects = try r.ingestRejects()
            #expect(rejects.map { "\($0.file):\($0.line) \($0.id) \($0.reason)" } == [
                "a/events.csv:4 e1 duplicate id in this file (the first row is kept)",
                "a/events.csv:5 e1 duplicate id in this file (the first row is kept)",
            ])
            let file = try #require(try r.inputFiles().first)
            #expect((file.rowsRead, file.rowsRejected, file.rowsSuperseded) == (4, 2, 0))
        }

        // A later ingest of another file neither counts nor rejects the repeats again.
        try warehouse.ingest { s in
            let g = try s.beginFile(file(.events, "b/events.csv"), absolutePath: "/b/events.csv", bytes: 1, sha256: "b")
            try s.insert(event("e9", user: "u3", .signup, at: 10, product: nil), file: g, line: 2)
            try s.finishFile(g, read: 1, rejected: 0, superseded: 0, unknownFields: [])
        }
        try warehouse.read { (r: WarehouseReader) throws in
            #expect(try r.ingestRejects().count == 2)
            #expect(try r.inputFiles().map(\.rowsRejected) == [2, 0])
        }
    }

    @Test func aRepeatInAnAppStoreReportIsRejectedAsItsLoaderWordedIt() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        let report = InputFile(url: URL(fileURLWithPath: "/data/Subscriber_Report.txt"), relativePath: "subscriptions/Subscriber_Report.txt",
                               kind: .appStoreConnectReport)
        try warehouse.ingest { s in
            let f = try s.beginFile(report, absolutePath: "/d/Subscriber_Report.txt", bytes: 1, sha256: "r")
            try s.insert(event("appstore:x:2", user: "sub-1", .subscribed, at: 100), file: f, line: 2)
            try s.insert(event("appstore:x:2", user: "sub-2", .subscribed, at: 100), file: f, line: 3)
            try s.finishFile(f, read: 2, rejected: 0, superseded: 0, unknownFields: [])
        }
        try warehouse.read { (r: WarehouseReader) throws in
            #expect(try r.ingestRejects().map { "\($0.line) \($0.id) \($0.reason)" } == ["3 sub-2 duplicate row in this file"])
        }
    }

    @Test func aRejectKeepsTheFirst200CharactersOfAnId() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        let id = String(repeating: "e\u{301}", count: 250)   // 250 characters, 500 scalars
        try warehouse.ingest { s in
            let f = try s.beginFile(file(.events, "events.csv"), absolutePath: "/d/events.csv", bytes: 1, sha256: "a")
            try s.insert(event(id, user: "u1", .subscribed, at: 100), file: f, line: 2)
            try s.insert(event(id, user: "u1", .subscribed, at: 100), file: f, line: 3)
            try s.finishFile(f, read: 2, rejected: 0, superseded: 0, unknownFields: [])
        }
        try warehouse.read { (r: WarehouseReader) throws in
            #expect(try r.ingestRejects().map(\.id) == [String(repeating: "e\u{301}", count: 200)])
        }
    }

    @Test func aLaterLoadedFileReplacesAnEarlierFilesEventOfTheSameId() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        try warehouse.ingest { s in
            let f = try s.beginFile(file(.events, "a/events.csv"), absolutePath: "/a/events.csv", bytes: 1, sha256: "a")
            try s.insert(event("e1", user: "u1", .subscribed, at: 100), file: f, line: 2)
            try s.insert(event("e2", user: "u1", .renewed, at: 200), file: f, line: 3)
            try s.finishFile(f, read: 2, rejected: 0, superseded: 0, unknownFields: [])
            // In the same ingest, a later file: its first e1 wins, its repeat is still a reject.
            let g = try s.beginFile(file(.events, "b/events.csv"), absolutePath: "/b/events.csv", bytes: 1, sha256: "b")
            try s.insert(event("e1", user: "u1", .trialStarted, at: 90), file: g, line: 2)
            try s.insert(event("e1", user: "u1", .refunded, at: 95), file: g, line: 3)
            try s.finishFile(g, read: 2, rejected: 0, superseded: 0, unknownFields: [])
        }
        #expect(try stored(warehouse) == ["u1 trial_started b/events.csv:2", "u1 renewed a/events.csv:3"])
        func superseded() throws -> [String] {
            try warehouse.read { try $0.inputFiles().map { "\($0.displayPath) \($0.rowsSuperseded)" }.sorted() }
        }
        #expect(try superseded() == ["a/events.csv 1", "b/events.csv 0"])
        // A file loaded in a later ingest replaces the winner again.
        try warehouse.ingest { s in
            let h = try s.beginFile(file(.events, "c/events.csv"), absolutePath: "/c/events.csv", bytes: 1, sha256: "c")
            try s.insert(event("e2", user: "u1", .cancelled, at: 250), file: h, line: 7)
            try s.finishFile(h, read: 1, rejected: 0, superseded: 0, unknownFields: [])
        }
        #expect(try stored(warehouse) == ["u1 trial_started b/events.csv:2", "u1 cancelled c/events.csv:7"])
        try warehouse.read { (r: WarehouseReader) throws in
            #expect(try r.ingestRejects().map { "\($0.file):\($0.line)" } == ["b/events.csv:3"])
            #expect(try r.inputFiles().map(\.rowsRejected) == [0, 1, 0])
        }
        #expect(try superseded() == ["a/events.csv 2", "b/events.csv 0", "c/events.csv 0"])
        // Reloading the first file (a new version) makes its rows the latest again.
        try warehouse.ingest { s in
            let f = try s.beginFile(file(.events, "a/events.csv"), absolutePath: "/a/events.csv", bytes: 1, sha256: "a2")
            try s.insert(event("e1", user: "u1", .subscribed, at: 100), file: f, line: 2)
            try s.finishFile(f, read: 1, rejected: 0, superseded: 0, unknownFields: [])
        }
        #expect(try stored(warehouse) == ["u1 subscribed a/events.csv:2", "u1 cancelled c/events.csv:7"])
        #expect(try superseded() == ["a/events.csv 0", "b/events.csv 1", "c/events.csv 0"])
    }

    @Test func eventsOfOneInstantComeInTheRulesOrderLoadOrderThenLine() throws {
        #expect(WarehouseReader.subscriptionEventOrder == "at, load_seq, line")
        // z/ is loaded before a/: at the same instant its events come first, whatever the paths or lines.
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        try warehouse.ingest { s in
            let z = try s.beginFile(file(.events, "z/events.csv"), absolutePath: "/z/events.csv", bytes: 1, sha256: "z")
            try s.insert(event("e3", user: "u1", .cancelled, at: 100), file: z, line: 9)
            try s.insert(event("e2", user: "u1", .subscribed, at: 100), file: z, line: 4)
            try s.finishFile(z, read: 2, rejected: 0, superseded: 0, unknownFields: [])
        }
        try warehouse.ingest { s in
            let a = try s.beginFile(file(.events, "a/events.csv"), absolutePath: "/a/events.csv", bytes: 1, sha256: "a")
            try s.insert(event("e1", user: "u1", .renewed, at: 100), file: a, line: 2)
            try s.insert(event("e0", user: "u1", .signup, at: 50, product: nil), file: a, line: 3)
            try s.finishFile(a, read: 2, rejected: 0, superseded: 0, unknownFields: [])
        }
        #expect(try stored(warehouse) == ["u1 signup a/events.csv:3", "u1 subscribed z/events.csv:4",
                                          "u1 cancelled z/events.csv:9", "u1 renewed a/events.csv:2"])
    }

    @Test("the scan leaving subscribers out gives every other one as the full scan does, sorted by SQLite or grouped in memory")
    func skippingScans() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        try warehouse.ingest { s in
            let z = try s.beginFile(file(.events, "z/events.csv"), absolutePath: "/z/events.csv", bytes: 1, sha256: "z")
            for (i, user) in ["u3", "u1", "u2", "u10", "u1"].enumerated() {
                try s.insert(event("z\(i)", user: user, .subscribed, at: 100), file: z, line: 9 - i)
            }
            try s.finishFile(z, read: 5, rejected: 0, superseded: 0, unknownFields: [])
        }
        try warehouse.ingest { s in
            let a = try s.beginFile(file(.events, "a/events.csv"), absolutePath: "/a/events.csv", bytes: 1, sha256: "a")
            for (i, user) in ["u2", "u1", "u3", "u1"].enumerated() {
                try s.insert(event("a\(i)", user: user, .renewed, at: 100 - Int64(i % 2) * 60), file: a, line: i + 2)
            }
            try s.finishFile(a, read: 4, rejected: 0, superseded: 0, unknownFields: [])
        }
        func scan(skipping: Set<String>, gather: Bool) throws -> [String] {
            try warehouse.read { (r: WarehouseReader) throws in
                var out: [String] = []
                let hashes = Set(skipping.map { WarehouseReader.subscriberKeyHash(WarehouseReader.subscriberKey(app: "FisioFlow", userId: $0)) })
                try r.forEachSubscriber(skipping: hashes, gather: gather) { _, user, events, ids in
                    out.append("\(user): " + zip(events, ids).map { "\($1)@\($0.timestamp.microseconds / 1_000_000)" }.joined(separator: " "))
                }
                return out
            }
        }
        let all = try scan(skipping: [], gather: false)
        // Users in byte order; events by instant, then load order (z/ first), then line.
        #expect(all == ["u1: a1@40 a3@40 z4@100 z1@100", "u10: z3@100", "u2: z2@100 a0@100", "u3: z0@100 a2@100"])
        // Gathered, the subscribers come in the order of their first row in the log, each one's events in order.
        #expect(try scan(skipping: [], gather: true) == ["u3: z0@100 a2@100", "u1: a1@40 a3@40 z4@100 z1@100", "u2: z2@100 a0@100",
                                                         "u10: z3@100"])
        for gather in [false, true] {
            #expect(try scan(skipping: ["u1", "u3"], gather: gather).sorted() == all.filter { $0.hasPrefix("u10:") || $0.hasPrefix("u2:") }.sorted())
            #expect(try scan(skipping: ["u1", "u10", "u2", "u3"], gather: gather).isEmpty)
            #expect(try scan(skipping: ["u9"], gather: gather).sorted() == all.sorted())
        }
    }

    @Test("a subscriber's key hash from its names is that of its key, whatever the names hold")
    func keyHashFromNames() {
        for (app, user) in [("FisioFlow", "u1"), ("LovU", "1:LovUu1"), ("", "x"), ("Fyp", ""), ("Café", "usuário-ñ"), ("A", "1:Bc")] {
            #expect(WarehouseReader.subscriberKeyHash(app: app, userId: user)
                    == WarehouseReader.subscriberKeyHash(WarehouseReader.subscriberKey(app: app, userId: user)), "\(app) \(user)")
        }
        // The key keeps apart names that concatenate alike.
        #expect(WarehouseReader.subscriberKeyHash(app: "ab", userId: "c") != WarehouseReader.subscriberKeyHash(app: "a", userId: "bc"))
    }

    @Test("each refresh records the subscribers it changed: appended rows' and those whose rows' verdicts moved; a vanished file, every one")
    func keyChanges() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        func key(_ user: String) -> String { WarehouseReader.subscriberKey(app: "FisioFlow", userId: user) }
        func changes() throws -> KeyChanges { try warehouse.read { try $0.subscriptionChanges() } }
        try warehouse.ingest { s in
            let f = try s.beginFile(file(.events, "a/events.csv"), absolutePath: "/a/events.csv", bytes: 1, sha256: "a")
            try s.insert(event("e1", user: "u1", .subscribed, at: 100), file: f, line: 2)
            try s.insert(event("e2", user: "u2", .subscribed, at: 100), file: f, line: 3)
            try s.finishFile(f, read: 2, rejected: 0, superseded: 0, unknownFields: [])
        }
        let first = try changes()
        #expect(first.allSince == first.seq)
        try warehouse.ingest { s in
            let f = try s.beginFile(file(.events, "b/events.csv"), absolutePath: "/b/events.csv", bytes: 1, sha256: "b")
            try s.insert(event("e3", user: "u3", .subscribed, at: 100), file: f, line: 2)
            // e2 again, for another user: u2's row is superseded, u4's counts.
            try s.insert(event("e2", user: "u4", .renewed, at: 200), file: f, line: 3)
            try s.finishFile(f, read: 2, rejected: 0, superseded: 0, unknownFields: [])
        }
        let second = try changes()
        #expect(second.seq == first.seq + 1 && second.allSince == first.seq)
        #expect(second.changed.filter { $0.value == second.seq }.keys.sorted() == [key("u2"), key("u3"), key("u4")])
        #expect(second.unchanged(key("u1"), since: first.seq))
        #expect(try warehouse.read { try $0.subscriptionChanges(since: second.seq) }.changed.isEmpty)
        try warehouse.ingest { s in _ = try s.unloadVanished(under: "/b", present: []) }
        let third = try changes()
        #expect(third.allSince == third.seq)
        #expect(!third.unchanged(key("u1"), since: second.seq))
    }

    @Test("the first event: the earliest counted one, or with a bound any counted one before it")
    func firstEvent() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        try warehouse.ingest { s in
            let f = try s.beginFile(file(.events, "a/events.csv"), absolutePath: "/a/events.csv", bytes: 1, sha256: "a")
            try s.insert(event("e1", user: "u1", .subscribed, at: 300), file: f, line: 2)
            try s.insert(event("e2", user: "u2", .subscribed, at: 100), file: f, line: 3)
            try s.insert(event("e3", user: "u3", .subscribed, at: 200), file: f, line: 4)
            try s.finishFile(f, read: 3, rejected: 0, superseded: 0, unknownFields: [])
        }
        try warehouse.ingest { s in
            // e2 again, later: the row at 100 no longer counts.
            let g = try s.beginFile(file(.events, "b/events.csv"), absolutePath: "/b/events.csv", bytes: 1, sha256: "b")
            try s.insert(event("e2", user: "u2", .renewed, at: 400), file: g, line: 2)
            try s.finishFile(g, read: 1, rejected: 0, superseded: 0, unknownFields: [])
        }
        try warehouse.read { (r: WarehouseReader) throws in
            #expect(try r.firstSubscriptionEvent() == Timestamp(seconds: 200))
            #expect(try r.firstSubscriptionEvent(before: Timestamp(seconds: 350)).map { $0 < Timestamp(seconds: 350) } == true)
            #expect(try r.firstSubscriptionEvent(before: Timestamp(seconds: 350)) != Timestamp(seconds: 100))
            #expect(try r.firstSubscriptionEvent(before: Timestamp(seconds: 150)) == Timestamp(seconds: 200))
        }
    }

    @Test func aVanishedFileTakesItsEventsAlong() throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        try warehouse.ingest { s in
            let f = try s.beginFile(file(.events, "events.csv"), absolutePath: "/d/events.csv", bytes: 1, sha256: "a")
            try s.insert(event("e1", user: "u1", .subscribed, at: 100), file: f, line: 2)
            try s.finishFile(f, read: 1, rejected: 0, superseded: 0, unknownFields: [])
        }
        try warehouse.ingest { s in _ = try s.unloadVanished(under: "/d", present: []) }
        #expect(try stored(warehouse).isEmpty)
        try warehouse.read { (r: WarehouseReader) throws in
            #expect(try Int.fetchOne(r.db, sql: "SELECT count(*) FROM subscription_event_row") == 0)
        }
    }

    @Test("a warehouse made before the event log forgets its event files, so they load again")
    func upgradeForgetsEventFiles() throws {
        let path = try legacyWarehouse(upTo: "v3: swipes and subscriptions", """
            INSERT INTO input_file (id, path, display_path, dataset, table_name, bytes, sha256, load_seq) VALUES
                (1, '/d/subscriptions/products.csv', 'subscriptions/products.csv', 'subscriptions', 'products', 1, 'p', 1),
                (2, '/d/subscriptions/events.csv', 'subscriptions/events.csv', 'subscriptions', 'events', 1, 'e', 2),
                (3, '/d/subscriptions/Subscriber_Report.txt', 'subscriptions/Subscriber_Report.txt', 'subscriptions',
                 'appStoreConnectReport', 1, 's', 3);
            INSERT INTO product VALUES ('p.m', 'FisioFlow', 'gold', 'monthly', 100, 'BRL', 1, 2);
            INSERT INTO subscription_event VALUES ('e1', 'FisioFlow', 'u1', 'subscribed', 'p.m', NULL, 5, 2, 2);
            INSERT INTO ingest_reject VALUES (2, 3, 'e1', 'duplicate id in this file (the first row is kept)');
            """)
        let warehouse = try Warehouse(path: path)
        try warehouse.read { (r: WarehouseReader) throws in
            #expect(try r.inputFiles().map(\.displayPath) == ["subscriptions/products.csv"])
            #expect(try r.ingestRejects().isEmpty)
            #expect(try r.products().map(\.productId) == ["p.m"])
        }
        #expect(try stored(warehouse).isEmpty)
        try warehouse.ingest { s in
            let f = try s.beginFile(file(.events, "subscriptions/events.csv"), absolutePath: "/d/subscriptions/events.csv",
                                    bytes: 1, sha256: "e")
            try s.insert(event("e1", user: "u1", .subscribed, at: 5), file: f, line: 2)
            try s.finishFile(f, read: 1, rejected: 0, superseded: 0, unknownFields: [])
        }
        #expect(try stored(warehouse) == ["u1 subscribed subscriptions/events.csv:2"])
        #expect(try warehouse.integrityCheck() == "ok")
    }

    @Test("a warehouse made before the event view forgets its event files, so they load again and the rule settles them")
    func upgradeToTheEventViewReloadsTheEvents() throws {
        let path = try legacyWarehouse(upTo: "v7: report publications", twoLoads(of: "events.csv", dataset: "subscriptions", table: "events") + """
            INSERT INTO subscription_event_row (id, app, user_id, event, product_id, context, at, file_id, line) VALUES
                ('e1', 'FisioFlow', 'u1', 'subscribed', 'p.m', NULL, 5000000, 1, 2),
                ('e2', 'FisioFlow', 'u1', 'renewed', 'p.m', NULL, 6000000, 1, 3),
                ('e1', 'FisioFlow', 'u1', 'trial_started', 'p.m', NULL, 4000000, 2, 2);
            """)
        let warehouse = try Warehouse(path: path)
        // No migration decides which row of e1 counts: the files load again and the derivation's rule does.
        try warehouse.read { (r: WarehouseReader) throws in
            #expect(try r.inputFiles().isEmpty)
            #expect(try Int.fetchOne(r.db, sql: "SELECT count(*) FROM subscription_event_row") == 0)
            #expect(try Int.fetchOne(r.db, sql: "SELECT count(*) FROM subscription_event_superseded") == 0)
        }
        #expect(try stored(warehouse).isEmpty)
        #expect(try warehouse.integrityCheck() == "ok")
    }

    /// The repeated ids' rows are found by hashing the log in passes, one
    /// residue of the hash each when the log is large: any number of passes
    /// finds every row of every repeated id.
    @Test(arguments: [1, 3, 7, 100])
    func repeatsAreFoundInAnyNumberOfHashPasses(perPass: Int) throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        try warehouse.ingest { s in
            for name in ["a", "b"] {
                let f = try s.beginFile(file(.events, "\(name)/events.csv"), absolutePath: "/\(name)/events.csv", bytes: 1, sha256: name)
                for i in 0..<20 {
                    // a's ids e0…e19, b's e10…e29: ten repeated across the files.
                    let n = name == "a" ? i : i + 10
                    try s.insert(event("e\(n)", user: "u\(n)", .renewed, at: Int64(100 + n)), file: f, line: i + 2)
                }
                try s.finishFile(f, read: 20, rejected: 0, superseded: 0, unknownFields: [])
            }
        }
        let repeated = try warehouse.ingest { s in
            try SubscriptionLogSchema.listRepeatCandidates(s.db, perPass: perPass)
            defer { try? s.db.execute(sql: "DROP TABLE temp.event_candidate") }
            return try String.fetchAll(s.db, sql: """
                SELECT r.id FROM subscription_event_row r JOIN temp.event_candidate c ON c.row = r.rowid
                WHERE r.id IN (SELECT id FROM subscription_event_row GROUP BY id HAVING count(*) > 1)
                ORDER BY r.id
                """)
        }
        #expect(repeated == (10..<20).flatMap { ["e\($0)", "e\($0)"] }.sorted())   // both rows of each
        try warehouse.read { (r: WarehouseReader) throws in
            #expect(try r.inputFiles().map(\.rowsSuperseded) == [10, 0])
        }
    }

    /// Everything the derivation decides, as stored: the counted events, the
    /// rows set aside, and each file's counts and rejects.
    func settled(_ warehouse: Warehouse) throws -> [String] {
        try stored(warehouse) + warehouse.read { (r: WarehouseReader) throws in
            try String.fetchAll(r.db, sql: """
                SELECT 'superseded ' || f.display_path || ':' || e.line FROM subscription_event_superseded s
                JOIN subscription_event_row e ON e.rowid = s.row JOIN input_file f ON f.id = e.file_id
                UNION ALL
                SELECT 'file ' || display_path || ' ' || rows_read || '/' || rows_rejected || '/' || rows_superseded FROM input_file
                ORDER BY 1
                """) + r.ingestRejects().map { "reject \($0.file):\($0.line) \($0.id)" }.sorted()
        }
    }

    /// Month after month of random events whose ids repeat within and across
    /// files (and now and then a month's folder delivered again, replacing
    /// its file): after each ingest, what the derivation after an
    /// append-only ingest stored (only the appended rows' ids judged again)
    /// equals what a derivation from scratch stores.
    @Test(arguments: Array(1...16) as [UInt64])
    func eachMonthsVerdictsEqualAFullDerivations(seed: UInt64) throws {
        let warehouse = try Warehouse(path: temporaryWarehousePath())
        var random = SplitMix64(seed: seed)
        let kinds: [SubscriptionEventKind] = [.subscribed, .renewed, .cancelled, .expired, .refunded]
        for month in 1...8 {
            let folder = month > 2 && Int.random(in: 0..<4, using: &random) == 0
                ? "m\(Int.random(in: 1..<month, using: &random))" : "m\(month)"
            let count = Int.random(in: 0...10, using: &random)
            try warehouse.ingest { s in
                let f = try s.beginFile(file(.events, "\(folder)/events.csv"), absolutePath: "/\(folder)/events.csv",
                                        bytes: 1, sha256: "\(folder)-\(month)")
                for line in 0..<count {
                    try s.insert(event("e\(Int.random(in: 1...14, using: &random))", user: "u\(Int.random(in: 1...3, using: &random))",
                                       kinds[Int.random(in: 0..<kinds.count, using: &random)],
                                       at: Int64(month * 100 + Int.random(in: 0...99, using: &random))),
                                 file: f, line: line + 2)
                }
                try s.finishFile(f, read: count, rejected: 0, superseded: 0, unknownFields: [])
            }
            let incremental = try settled(warehouse)
            try warehouse.ingest { s in
                try s.db.execute(sql: """
                    DELETE FROM derivation_mark;
                    INSERT OR IGNORE INTO derivation_pending (name) VALUES ('subscription event winners');
                    """)
            }
            #expect(try settled(warehouse) == incremental, "seed \(seed), month \(month) (\(folder))")
        }
        #expect(try warehouse.integrityCheck() == "ok")
    }
}
