import Foundation
import GRDB
import Testing
import TallyCore
@testable import TallyPipeline
import TallyWarehouse

/// A run takes the counts of settled subscribers kept by an earlier run
/// (``KeptSubscribers``) instead of counting them again, and its KPIs equal
/// a from-scratch run's whatever changed in between: each case below is one
/// way kept counts stop holding.
///
/// Each case loads `sample-data/` and runs September (the subscribers
/// settled by then are kept, by the month of their last event), then a
/// second folder and October into the same warehouse, and compares that
/// run's KPI tables and rejects with an October run over the same two
/// folders into a warehouse that keeps nothing.
@Suite("Kept subscribers", .serialized)
struct KeptSubscribersTests {
    let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))
    let fm = FileManager.default
    static let september = YearMonth("2026-09")!
    static let october = YearMonth("2026-10")!
    /// Signed up on 1 March, subscribed, refunded on 5 March: settled in March.
    static let settled = (app: "FisioFlow", user: "TSpTZHL3Z1R1sINskHUkFdfYnBWH")
    static let header = "id,app,userId,event,productId,context,timestamp"

    struct Setting {
        var period: YearMonth
        var config: String?
    }

    func request(_ data: URL, out: URL, db: URL, _ setting: Setting) -> RunRequest {
        var request = RunRequest(dataDirectory: data, outDirectory: out, period: setting.period, databasePath: db.path,
                                 reproducible: true)
        if let config = setting.config { request.configText = (file: "tally.yml", text: config) }
        return request
    }

    /// A month-two events file of `lines` (after the header).
    func events(_ work: URL, _ lines: [String]) throws -> URL {
        try secondMonthFolder(work, ["subscriptions/events.csv": [Self.header] + lines])
    }

    static var sampleConfig: String {
        get throws { try String(contentsOf: repositoryRoot.appendingPathComponent("sample-data/tally.yml"), encoding: .utf8) }
    }

    /// The KPI tables and rejects of two out folders, compared file by file.
    func expectSameTables(_ actual: URL, _ expected: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let paths = try reportFiles(expected).filter { ($0.hasPrefix("kpis/") && $0.hasSuffix(".csv")) || $0 == "rejects.csv" }
        #expect(paths.count > 10, sourceLocation: sourceLocation)
        for path in paths {
            let want = try Data(contentsOf: expected.appendingPathComponent(path))
            let got = try? Data(contentsOf: actual.appendingPathComponent(path))
            #expect(got == want, "\(path) differs from the from-scratch run's", sourceLocation: sourceLocation)
        }
    }

    /// Month one then `second` into one warehouse, with a run each (`first`'s then `then`'s setting);
    /// the same folders into a warehouse that keeps nothing (month one only loaded); both second
    /// runs' KPI tables and rejects compared. Returns the first warehouse's kept set and changes.
    @discardableResult
    func compare(_ work: URL, second: URL, first: Setting = .init(period: september), then: Setting = .init(period: october),
                 between: (URL) throws -> Void = { _ in },
                 sourceLocation: SourceLocation = #_sourceLocation) throws -> (KeyStateSet?, KeyChanges) {
        let sampleData = repositoryRoot.appendingPathComponent("sample-data")
        let kept = work.appendingPathComponent("kept.sqlite")
        _ = try runner.run(request(sampleData, out: work.appendingPathComponent("one"), db: kept, first))
        let months = try Warehouse(path: kept.path).read { try $0.keyStates(family: KeptSubscribers.family) }
        #expect((months?.states.count ?? 0) >= 5, "month one keeps its settled subscribers by month", sourceLocation: sourceLocation)
        try between(kept)
        _ = try runner.run(request(second, out: work.appendingPathComponent("two"), db: kept, then))

        let fresh = work.appendingPathComponent("fresh.sqlite")
        _ = try IngestStage(logger: .init(label: "test"), progress: Progress(mode: .silent))
            .run(dataDirectory: sampleData, warehouse: try Warehouse(path: fresh.path))
        _ = try runner.run(request(second, out: work.appendingPathComponent("scratch"), db: fresh, then))
        try expectSameTables(work.appendingPathComponent("two"), work.appendingPathComponent("scratch"), sourceLocation: sourceLocation)
        return try Warehouse(path: kept.path).read {
            (try $0.keyStates(family: KeptSubscribers.family), try $0.subscriptionChanges())
        }
    }

    /// The months of `set` counted again in the last refresh (`changes.seq`), and those taken as kept.
    func split(_ set: KeyStateSet?, _ changes: KeyChanges) -> (counted: Set<String>, taken: Set<String>) {
        let states = set?.states ?? [:]
        return (Set(states.filter { $0.value.seq == changes.seq }.keys), Set(states.filter { $0.value.seq < changes.seq }.keys))
    }

    @Test("a new subscriber only: every month of settled subscribers is taken as kept")
    func newSubscriberOnly() throws {
        let work = try temporaryFolder("kept-subs-new")
        defer { try? fm.removeItem(at: work) }
        let second = try events(work, [
            "kept-1,LovU,kept-new-user,signup,,,2026-10-03T10:00:00-03:00",
            "kept-2,LovU,kept-new-user,subscribed,lovu.premium.monthly,home,2026-10-04T10:00:00-03:00",
        ])
        let (set, changes) = try compare(work, second: second)
        let (counted, taken) = split(set, changes)
        #expect(taken.isSuperset(of: ["2026-03", "2026-04", "2026-05", "2026-06", "2026-07"]))
        #expect(!counted.contains("2026-03"))
        // The set is kept at the last refresh: the changes before it are read by no set, and dropped.
        #expect(set?.seq == changes.seq)
        #expect(changes.changed.isEmpty)
    }

    @Test("a late event of a settled subscriber: its month is counted again, the others are taken")
    func lateEvent() throws {
        let work = try temporaryFolder("kept-subs-late")
        defer { try? fm.removeItem(at: work) }
        let second = try events(work, [
            "kept-3,\(Self.settled.app),\(Self.settled.user),subscribed,fisioflow.silver.monthly,,2026-04-10T10:00:00-03:00",
        ])
        let (set, changes) = try compare(work, second: second)
        let (counted, taken) = split(set, changes)
        #expect(set?.states["2026-03"] == nil || counted.contains("2026-03"), "March is counted again")
        #expect(taken.contains("2026-05"))
    }

    @Test("an event repeating a settled subscriber's event id in a later file: the months of both rows are counted again")
    func repeatedId() throws {
        let work = try temporaryFolder("kept-subs-repeat")
        defer { try? fm.removeItem(at: work) }
        // The refund of 5 March, delivered again as a renewal: the later file's row counts.
        let second = try events(work, [
            "evt-000000003,\(Self.settled.app),\(Self.settled.user),renewed,fisioflow.gold.monthly,,2026-03-05T22:04:36-03:00",
        ])
        let (set, changes) = try compare(work, second: second)
        #expect(set?.states["2026-03"] == nil || split(set, changes).counted.contains("2026-03"))
    }

    /// `sample-data/`'s subscription events, as lines (after the header).
    func sampleEvents() throws -> [String] {
        try gunzipLines(repositoryRoot.appendingPathComponent("sample-data/subscriptions/events.csv.gz")).dropFirst().map { $0 }
    }

    @Test("random late events of earlier months, for subscribers settled or not, some repeating an event's id",
          arguments: 0..<6)
    func randomLateEvents(seed: UInt64) throws {
        let work = try temporaryFolder("kept-subs-random-\(seed)")
        defer { try? fm.removeItem(at: work) }
        var rng = SplitMix64(seed: 0x5eed_0000 + seed)
        let sample = try sampleEvents().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let kinds = ["subscribed", "renewed", "cancelled", "expired", "refunded", "paywall_shown", "signup", "upgraded"]
        var lines: [String] = []
        for i in 0..<Int.random(in: 1...5, using: &rng) {
            let row = sample.randomElement(using: &rng)!
            let (app, user) = (row[1], row[2])
            let products = sample.filter { $0[1] == app && !$0[4].isEmpty }.map { $0[4] }
            let kind = kinds.randomElement(using: &rng)!
            let product = kind == "signup" || kind == "paywall_shown" ? "" : products.randomElement(using: &rng) ?? ""
            let day = LocalDate(year: 2026, month: 3, day: 1)!.adding(days: Int.random(in: 0...220, using: &rng))
            // One in three repeats an event id of the sample (a later file's row counts instead).
            let id = Int.random(in: 0..<3, using: &rng) == 0 ? sample.randomElement(using: &rng)![0] : "kept-r\(seed)-\(i)"
            lines.append("\(id),\(app),\(user),\(kind),\(product),,\(day)T12:00:00-03:00")
        }
        let second = try events(work, lines)
        try compare(work, second: second)
    }

    @Test("other products, KPI windows or time zone: nothing kept is taken, and the set is kept anew")
    func settingsChanged() throws {
        let config = try Self.sampleConfig
        let cases = [
            ("retention", config.replacingOccurrences(of: "retentionDays: 30", with: "retentionDays: 45")),
            ("zone", config.replacingOccurrences(of: "timezone: America/Sao_Paulo", with: "timezone: Europe/Lisbon")),
        ]
        for (name, changed) in cases {
            #expect(changed != config, "\(name)")
            let work = try temporaryFolder("kept-subs-\(name)")
            defer { try? fm.removeItem(at: work) }
            let second = try events(work, ["kept-4,LovU,kept-new-user,signup,,,2026-10-03T10:00:00-03:00"])
            let (set, changes) = try compare(work, second: second, first: Setting(period: Self.september, config: config),
                                             then: Setting(period: Self.october, config: changed))
            #expect(split(set, changes).taken.isEmpty, "\(name): every month counted again")
        }
        let work = try temporaryFolder("kept-subs-products")
        defer { try? fm.removeItem(at: work) }
        let products = try sampleLines("subscriptions/products.csv").map {
            $0.hasPrefix("fisioflow.gold.monthly,") ? $0.replacingOccurrences(of: "197.00", with: "207.00") : $0
        }
        let second = try secondMonthFolder(work, ["subscriptions/products.csv": products])
        let (set, changes) = try compare(work, second: second)
        #expect(split(set, changes).taken.isEmpty, "products: every month counted again")
    }

    @Test("counts kept by another build of tally: every month is counted again")
    func anotherBuild() throws {
        let work = try temporaryFolder("kept-subs-build")
        defer { try? fm.removeItem(at: work) }
        let second = try events(work, ["kept-7,LovU,kept-new-user,signup,,,2026-10-03T10:00:00-03:00"])
        let (set, changes) = try compare(work, second: second, between: { try keptByAnotherBuild($0) })
        #expect(split(set, changes).taken.isEmpty)
    }

    @Test("an earlier period than the kept counts': every month is counted again")
    func earlierPeriod() throws {
        let work = try temporaryFolder("kept-subs-earlier")
        defer { try? fm.removeItem(at: work) }
        let second = try events(work, ["kept-5,LovU,kept-new-user,signup,,,2026-08-03T10:00:00-03:00"])
        let (set, changes) = try compare(work, second: second, first: Setting(period: Self.october),
                                         then: Setting(period: Self.september))
        #expect(split(set, changes).taken.isEmpty)
        #expect(set?.states.values.allSatisfy { $0.fingerprint == "2026-09" } == true)
    }

    @Test("kept counts that cannot be read back (a damaged warehouse): every month is counted again")
    func damagedState() throws {
        let work = try temporaryFolder("kept-subs-damaged")
        defer { try? fm.removeItem(at: work) }
        let second = try events(work, ["kept-6,LovU,kept-new-user,signup,,,2026-10-03T10:00:00-03:00"])
        let (set, changes) = try compare(work, second: second, between: { db in
            try DatabaseQueue(path: db.path).write { db in
                try db.execute(sql: "UPDATE key_state SET state = X'0100000000000000' || x'41' WHERE family = 'kpis' AND key = '2026-05'")
            }
        })
        #expect(split(set, changes).taken.isEmpty)
    }

    @Test("an events file delivered again, changed: the events are refreshed from scratch, nothing kept is taken")
    func fileReplaced() throws {
        let work = try temporaryFolder("kept-subs-replaced")
        defer { try? fm.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try fm.copyItem(at: repositoryRoot.appendingPathComponent("sample-data"), to: data)
        let db = work.appendingPathComponent("kept.sqlite")
        _ = try runner.run(request(data, out: work.appendingPathComponent("one"), db: db, Setting(period: Self.september)))
        // The refund of the settled subscriber removed: they stay paid.
        let events = data.appendingPathComponent("subscriptions/events.csv.gz")
        let lines = try gunzipLines(events).filter { !$0.hasPrefix("evt-000000003,") }
        try fm.removeItem(at: events)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: data.appendingPathComponent("subscriptions/events.csv"))
        _ = try runner.run(request(data, out: work.appendingPathComponent("two"), db: db, Setting(period: Self.october)))
        _ = try runner.run(request(data, out: work.appendingPathComponent("scratch"), db: work.appendingPathComponent("fresh.sqlite"),
                                   Setting(period: Self.october)))
        try expectSameTables(work.appendingPathComponent("two"), work.appendingPathComponent("scratch"))
        let (set, changes) = try Warehouse(path: db.path).read {
            (try $0.keyStates(family: KeptSubscribers.family), try $0.subscriptionChanges())
        }
        #expect(changes.allSince == changes.seq)
        #expect(split(set, changes).taken.isEmpty)
    }
}

/// The lines of a gzip file (by the system's `gzip`).
private func gunzipLines(_ file: URL) throws -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["gzip", "-dc", file.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
}
