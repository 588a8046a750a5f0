import Foundation
import Testing
import TallyCore
@testable import TallyIngest

private func write(_ text: String, name: String) throws -> (URL, URL) {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tally-asc-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let url = dir.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return (dir, url)
}

private func readAll(_ text: String, name: String = "report.tsv") throws -> (AppStoreConnectReader, [AppStoreConnectReader.Row]) {
    let (dir, url) = try write(text, name: name)
    defer { try? FileManager.default.removeItem(at: dir) }
    let reader = try AppStoreConnectReader(url: url, displayPath: "subscriptions/\(name)")
    var rows: [AppStoreConnectReader.Row] = []
    try reader.read { rows.append($0) }
    return (reader, rows)
}

@Suite("App Store Connect reports")
struct AppStoreConnectReaderTests {
    @Test("the Subscriber report maps transactions onto per-user events: purchase, free trial, refund")
    func subscriberReport() throws {
        let tsv = [
            "Event Date\tApp Name\tApp Apple ID\tSubscription Name\tSubscription Apple ID\tSubscription Offer Type\tCustomer Price\tCustomer Currency\tSubscriber ID\tRefund\tUnits",
            "2026-10-03\tLovU\t111\tlovu.premium.monthly\t222\t\t19.90\tBRL\tsub-1\t\t1",
            "2026-10-04\tLovU\t111\tlovu.premium.monthly\t222\tFree Trial\t0.00\tBRL\tsub-2\t\t1",
            "10/05/2026\tLovU\t111\tlovu.premium.monthly\t222\t\t-19.90\tBRL\tsub-1\tYes\t1",
            "",
        ].joined(separator: "\r\n")
        let (reader, rows) = try readAll(tsv)
        #expect(reader.kind == .subscriber)
        #expect(reader.ignoredColumns.contains("App Apple ID"))
        let events = rows.compactMap { row -> SubscriptionEventRecord? in if case .event(let e) = row { return e } else { return nil } }
        #expect(events.map(\.event.kind) == [.subscribed, .trialStarted, .refunded])
        #expect(events.map(\.userId) == ["sub-1", "sub-2", "sub-1"])
        #expect(events[0].app == "LovU")
        #expect(events[0].event.productId == "lovu.premium.monthly")
        #expect(events[0].event.timestamp.description == "2026-10-03T12:00:00Z")
        #expect(events[2].event.timestamp.description == "2026-10-05T12:00:00Z")
        #expect(events[0].id == "appstore\tLovU\tsub-1\tlovu.premium.monthly\t2026-10-03\tsubscribed")
        #expect(Set(events.map(\.id)).count == 3)
        #expect(events[2].event.source?.line == 4)
    }

    @Test("headers match by alias, ignoring case, spaces and underscores")
    func aliases() throws {
        let tsv = "event_date\tAPP NAME\tsubscription name\tsubscriber_id\n2026-10-03\tFypMatch\tfypmatch.vip.monthly\ts9\n"
        let (reader, rows) = try readAll(tsv, name: "subscriber.txt")
        #expect(reader.kind == .subscriber)
        guard case .event(let e) = rows.first else { Issue.record("no event: \(rows)"); return }
        #expect(e.userId == "s9" && e.app == "FypMatch")
    }

    @Test("the Subscription Event report gives daily counts; Apple's names map onto contract events")
    func eventReport() throws {
        let tsv = [
            "Event Date\tEvent\tApp Name\tApp Apple ID\tSubscription Name\tSubscription Apple ID\tQuantity",
            "2026-10-03\tSubscribe\tFisioFlow\t1\tfisioflow.gold.monthly\t2\t4",
            "2026-10-03\tCrossgrade from Monthly to Yearly\tFisioFlow\t1\tfisioflow.gold.yearly\t3\t1",
            "2026-10-03\tDowngrade from Gold to Silver\tFisioFlow\t1\tfisioflow.silver.monthly\t4\t2",
            "2026-10-04\tRenew\tFisioFlow\t1\tfisioflow.gold.monthly\t2\t7",
            "2026-10-04\tCancel\tFisioFlow\t1\tfisioflow.gold.monthly\t2\t1",
            "2026-10-04\tRefund\tFisioFlow\t1\tfisioflow.gold.monthly\t2\t1",
            "",
        ].joined(separator: "\n")
        let (reader, rows) = try readAll(tsv)
        #expect(reader.kind == .subscriptionEvent)
        let counts = rows.compactMap { row -> AppStoreEventCount? in if case .count(let c, _) = row { return c } else { return nil } }
        #expect(counts.map(\.event) == [.subscribed, .upgraded, .downgraded, .renewed, .cancelled, .refunded])
        #expect(counts.map(\.quantity) == [4, 1, 2, 7, 1, 1])
        #expect(counts[1].appleEvent == "Crossgrade from Monthly to Yearly")
    }

    @Test("bad rows are rejected with their line and reason: unknown event, bad quantity, bad date, wrong field count")
    func badRows() throws {
        let tsv = [
            "Event Date\tEvent\tApp Name\tSubscription Name\tQuantity",
            "2026-10-03\tBilling Retry from Paid Subscription\tLovU\tlovu.premium.monthly\t1",
            "2026-10-03\tRenew\tLovU\tlovu.premium.monthly\tmany",
            "2026-13-03\tRenew\tLovU\tlovu.premium.monthly\t1",
            "2026-10-03\tRenew\tLovU",
            "2026-10-03\tRenew\tLovU\tlovu.premium.monthly\t3",
        ].joined(separator: "\n")
        let (_, rows) = try readAll(tsv)
        let rejects = rows.compactMap { row -> (Int, String)? in
            if case .malformed(let line, _, let reason) = row { return (line, reason.text) } else { return nil }
        }
        #expect(rejects.map(\.0) == [2, 3, 4, 5])
        #expect(rejects[0].1.contains("event 'Billing Retry from Paid Subscription' is not one of "))
        #expect(rejects[1].1.contains("Quantity 'many'"))
        #expect(rejects[2].1.contains("Event Date '2026-13-03'"))
        #expect(rejects[3].1.contains("has 3 fields, the header has 5"))
        #expect(rows.count == 5)
    }

    @Test("a header of neither report, or lacking a column, is refused naming the file")
    func badHeaders() throws {
        #expect(throws: ReaderError.self) { try readAll("Date\tApp Name\tUnits\n2026-10-03\tLovU\t1\n") }
        do {
            _ = try readAll("Event Date\tApp Name\tSubscriber ID\n2026-10-03\tLovU\ts1\n")
            Issue.record("a Subscriber report without Subscription Name was accepted")
        } catch let error as ReaderError {
            #expect(error.reason.contains("no column 'Subscription Name'"))
        }
    }

    @Test("Apple event names: exact, prefixed, case-insensitive; unknown is nil")
    func eventNames() {
        #expect(AppStoreEventNames.kind(of: " subscribe ") == .subscribed)
        #expect(AppStoreEventNames.kind(of: "Upgrade from Silver to Gold") == .upgraded)
        #expect(AppStoreEventNames.kind(of: "Paid Subscription from Free Trial") == .subscribed)
        #expect(AppStoreEventNames.kind(of: "Start Free Trial") == .trialStarted)
        #expect(AppStoreEventNames.kind(of: "Grace Period from Paid Subscription") == nil)
    }
}
