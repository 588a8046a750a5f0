import Foundation
import GRDB
import Testing
import TallyCore
import TallyIngest
@testable import TallyPipeline
@testable import TallyWarehouse

/// Loading `subscriptions/events`: repeated ids, replacement across data
/// folders, and warehouses made before the event log.
@Suite("Subscription events load", .serialized)
struct SubscriptionEventLoadTests {
    let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))

    func put(_ folder: URL, _ path: String, _ lines: [String]) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
    }

    func products(_ folder: URL) throws {
        try put(folder, "subscriptions/products.csv", ["productId,app,plan,period,price,currency",
                                                       "ff.silver.m,FisioFlow,silver,monthly,97.00,BRL"])
    }

    func lines(_ url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test("a repeated event id in one file: the first row counts, each repeat is a reject with its line")
    func repeatedIdInOneFile() throws {
        let work = try temporaryFolder("events-repeat")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try products(data)
        try put(data, "subscriptions/events.csv", ["id,app,userId,event,productId,context,timestamp",
                                                   "e1,FisioFlow,u1,subscribed,ff.silver.m,,2026-10-02T12:00:00Z",
                                                   "e1,FisioFlow,u1,refunded,ff.silver.m,,2026-10-03T12:00:00Z",
                                                   "e2,FisioFlow,u2,signup,,,2026-10-01T12:00:00Z",
                                                   "e2,FisioFlow,u2,signup,,,2026-10-01T12:00:00Z"])
        let out = work.appendingPathComponent("out")
        let outcome = try runner.run(RunRequest(dataDirectory: data, outDirectory: out, period: YearMonth("2026-10")!,
                                                reproducible: true))
        #expect(try lines(out.appendingPathComponent("rejects.csv")) == [
            "dataset,file,line,id,reason,reason_code",
            "subscriptions,subscriptions/events.csv,3,e1,duplicate id in this file (the first row is kept),id_repeated",
            "subscriptions,subscriptions/events.csv,5,e2,duplicate id in this file (the first row is kept),id_repeated",
        ])
        #expect(try lines(out.appendingPathComponent("kpis/mrr.csv")).contains("FisioFlow,silver,1,97.00,BRL,2026-10"))
        let input = try #require(outcome.manifest.inputs.first { $0.path == "subscriptions/events.csv" })
        #expect((input.rowsRead, input.rowsUsed, input.rowsRejected, input.rowsSuperseded) == (4, 2, 2, 0))
        #expect(outcome.manifest.checks.filter { !$0.passed }.isEmpty)
        #expect(outcome.ingest?.files.first { $0.path == "subscriptions/events.csv" }?.rowsRejected == 2)
    }

    @Test("an event of a data folder loaded later replaces the earlier folder's event of the same id")
    func laterFolderReplaces() throws {
        let work = try temporaryFolder("events-replace")
        defer { try? FileManager.default.removeItem(at: work) }
        let db = work.appendingPathComponent("tally.sqlite").path
        let (a, b) = (work.appendingPathComponent("a"), work.appendingPathComponent("b"))
        try products(a)
        try put(a, "subscriptions/events.csv", ["id,app,userId,event,productId,context,timestamp",
                                                "e1,FisioFlow,u1,subscribed,ff.silver.m,,2026-10-02T12:00:00Z"])
        try put(b, "subscriptions/events.csv", ["id,app,userId,event,productId,context,timestamp",
                                                "e1,FisioFlow,u1,signup,,,2026-10-02T12:00:00Z",
                                                "e2,FisioFlow,u2,signup,,,2026-10-02T12:00:00Z"])
        let out = work.appendingPathComponent("out")
        func run(_ data: URL) throws -> TallyRunner.Outcome {
            try runner.run(RunRequest(dataDirectory: data, outDirectory: out, period: YearMonth("2026-10")!,
                                      databasePath: db, reproducible: true))
        }
        _ = try run(a)
        #expect(try lines(out.appendingPathComponent("kpis/mrr.csv")).contains("FisioFlow,silver,1,97.00,BRL,2026-10"))
        let outcome = try run(b)
        // b's e1 (a signup) replaced a's subscription: nobody pays. (A repeat within b would be
        // a reject, see SubscriptionEventLogTests; not here: rejects are reconciled by display
        // path, which two data folders' events files share.)
        #expect(try lines(out.appendingPathComponent("kpis/mrr.csv")) == ["app,plan,subscribers,mrr,currency,period"])
        #expect(try lines(out.appendingPathComponent("kpis/conversion.csv")).contains { $0.hasPrefix("FisioFlow,2026-10,2,0,") })
        #expect(outcome.manifest.checks.filter { !$0.passed }.isEmpty)
    }

    @Test("a warehouse made before the event log loads its event files again and reports as a fresh one")
    func upgradedWarehouseReloadsEvents() throws {
        let work = try temporaryFolder("events-upgrade")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try products(data)
        try put(data, "subscriptions/events.csv", ["id,app,userId,event,productId,context,timestamp",
                                                   "e1,FisioFlow,u1,subscribed,ff.silver.m,,2026-10-02T12:00:00Z",
                                                   "e1,FisioFlow,u1,refunded,ff.silver.m,,2026-10-03T12:00:00Z"])
        let events = data.appendingPathComponent("subscriptions/events.csv")
        let (bytes, sha) = try FileFingerprint.of(url: events)
        // The events file as an earlier version stored it: known, unchanged, its rows in the keyed table.
        let old = work.appendingPathComponent("old/tally.sqlite")
        try FileManager.default.createDirectory(at: old.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            let queue = try DatabaseQueue(path: old.path)
            try WarehouseSchema.migrator.migrate(queue, upTo: "v3: swipes and subscriptions")
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO input_file (id, path, display_path, dataset, table_name, bytes, sha256, load_seq, rows_read, rows_rejected)
                    VALUES (1, ?, 'subscriptions/events.csv', 'subscriptions', 'events', ?, ?, 1, 2, 1);
                    INSERT INTO subscription_event VALUES ('e1', 'FisioFlow', 'u1', 'subscribed', 'ff.silver.m', NULL, 0, 1, 2);
                    INSERT INTO ingest_reject VALUES (1, 3, 'e1', 'duplicate id in this file (the first row is kept)');
                    """, arguments: [events.standardizedFileURL.path, bytes, sha])
            }
        }
        let upgradedOut = work.appendingPathComponent("upgraded")
        let upgraded = try runner.run(RunRequest(dataDirectory: data, outDirectory: upgradedOut, period: YearMonth("2026-10")!,
                                                 databasePath: old.path, reproducible: true))
        #expect(upgraded.ingest?.files.first { $0.path == "subscriptions/events.csv" }?.loaded == true)
        let freshOut = work.appendingPathComponent("fresh")
        _ = try runner.run(RunRequest(dataDirectory: data, outDirectory: freshOut, period: YearMonth("2026-10")!,
                                      reproducible: true))
        try expectSameReports(freshOut, upgradedOut)
    }
}
