import Foundation
import Testing
import TallyCore
import TallyGenerator
import TallyReports
import TallyWarehouse
@testable import TallyPipeline

/// Each report family computed as partitions split into K groups, the order
/// inside each group shuffled, each group folded into a ``FamilyPartial`` and
/// the partials merged in a shuffled order, gives the same CSV bytes as
/// `tally run` (which streams the partitions in key order), and the same
/// finalised report as the plain in-order fold: on `sample-data/` and on
/// generated data of three seeds and shapes.
@Suite("Report families: any split and merge order gives the run's reports", .serialized)
struct FamilyScheduleTests {
    static let period = YearMonth("2026-10")!
    static let seeds: [UInt64] = [1, 20_261_126]

    /// The data folders: the committed sample, and generated sets of other seeds and shapes.
    enum DataSet: String, CaseIterable, Sendable {
        case sample, seed7, seed99Skewed, seed2026ManyCouples

        func folder(in work: URL) throws -> URL {
            let generated: (UInt64, GeneratorShape)
            switch self {
            case .sample: return repositoryRoot.appendingPathComponent("sample-data")
            case .seed7: generated = (7, .default)
            case .seed99Skewed: generated = (99, .skewed)
            case .seed2026ManyCouples: generated = (20_261_126, .manyCouples)
            }
            let data = work.appendingPathComponent("data")
            _ = try DataGenerator(seed: generated.0, scale: .small, shape: generated.1, anchorMonth: FamilyScheduleTests.period)
                .generate(to: data)
            return data
        }
    }

    /// Every data set with every split: K partitions of 1, 3 and 7.
    static let cases: [(DataSet, Int)] = DataSet.allCases.flatMap { set in [1, 3, 7].map { (set, $0) } }

    /// A sample-data run and its warehouse, made once for the suite.
    final class Run: @unchecked Sendable {   // written once in init, then only read
        let work: URL
        let out: URL
        let warehouse: Warehouse
        let config: TallyConfig
        let timezone: ReportTimeZone

        init(_ set: DataSet) throws {
            // One folder per data set and process (test runs of other checkouts may run beside this one),
            // replaced by the next run of the suite (the runs live as long as the process).
            work = FileManager.default.temporaryDirectory.appendingPathComponent("tally-family-schedules-\(set.rawValue)-\(ProcessInfo.processInfo.processIdentifier)")
            try? FileManager.default.removeItem(at: work)
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            out = work.appendingPathComponent("reports")
            let db = work.appendingPathComponent("tally.sqlite")
            let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))
            let request = RunRequest(dataDirectory: try set.folder(in: work), outDirectory: out,
                                     period: FamilyScheduleTests.period, databasePath: db.path, reproducible: true)
            _ = try runner.run(request)
            config = try runner.configuration(request)
            timezone = ReportTimeZone(identifier: config.timezone)!
            warehouse = try Warehouse(path: db.path)
        }
    }

    /// One run per data set, made on first use and kept for the suite.
    static let runs = Dictionary(uniqueKeysWithValues: DataSet.allCases.map { set in (set, Result { try Run(set) }) })

    /// `partitions` split into `k` groups at random, each group's order
    /// shuffled, each folded into a partial, the partials merged in a random order.
    static func shuffledFold<F: ReportFamily>(_ family: F, _ partitions: [F.Partition], k: Int, seed: UInt64) -> FamilyPartial<F> {
        var rng = SplitMix64(seed: seed &+ UInt64(k))
        var groups = Array(repeating: [F.Partition](), count: k)
        for partition in partitions.shuffled(using: &rng) { groups[Int(rng.next() % UInt64(k))].append(partition) }
        var partials = groups.map { group in
            var partial = FamilyPartial(family)
            for partition in group.shuffled(using: &rng) { partial.add(family.compute(partition)) }
            return partial
        }
        partials.shuffle(using: &rng)
        var merged = FamilyPartial(family)
        for partial in partials { merged.merge(partial) }
        return merged
    }

    /// Writes `rows` with `layout` into `folder` and returns the file's bytes.
    static func csvBytes(_ layout: CSVLayout, _ rows: [[String]], in folder: URL) throws -> Data {
        let writer = try layout.writer(in: folder)
        for row in rows { try writer.writeRow(row) }
        try writer.commit()
        return try Data(contentsOf: folder.appendingPathComponent(layout.name))
    }

    func reported(_ path: String, _ run: Run) throws -> Data {
        try Data(contentsOf: run.out.appendingPathComponent(path))
    }

    @Test("statements: balances, transfers and categories CSVs and the totals", arguments: cases)
    func statements(set: DataSet, k: Int) throws {
        let run = try Self.runs[set]!.get()
        let (family, partitions) = try run.warehouse.read { reader in
            var partitions: [CouplePartition] = []
            try reader.forEachCoupleKey { if let p = StatementsFamily.partition($0).partition { partitions.append(p) } }
            let keys = StatementsKeys(config: run.config, locale: .ptBR, period: Self.period, fx: try reader.fxRates())
            return (keys.family, partitions)
        }
        #expect(partitions.count > 10)
        let inOrder = family.fold(partitions)
        for seed in Self.seeds {
            let merged = Self.shuffledFold(family, partitions, k: k, seed: seed)
            let report = family.finalise(merged.summary)
            #expect(report.totals == inOrder.report.totals)
            #expect(report.rejects == inOrder.report.rejects)
            #expect(report.problems == inOrder.report.problems)
            let folder = try temporaryFolder("statements-\(k)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let csv = try StatementsCSV(folder: folder)
            for result in merged.results { try csv.add(result.rows.statement, period: Self.period) }
            for writer in csv.writers { try writer.commit() }
            for name in ["balances.csv", "transfers.csv", "categories.csv", "categories_by_member.csv"] {
                #expect(try Data(contentsOf: folder.appendingPathComponent(name)) == reported("statements/" + name, run), "\(name), k = \(k)")
            }
        }
    }

    @Test("leaderboards: leaderboard.csv and the summary", arguments: cases)
    func leaderboards(set: DataSet, k: Int) throws {
        let run = try Self.runs[set]!.get()
        let partitions = try run.warehouse.read { reader in
            var partitions: [ChallengePartition] = []
            try reader.forEachChallengeKey { if let p = LeaderboardsFamily.partition($0).partition { partitions.append(p) } }
            return partitions
        }
        #expect(partitions.count > 3)
        let family = LeaderboardsFamily(settings: .init(asOf: Self.period.lastDay, timezone: run.timezone, rules: run.config.leaderboards))
        let inOrder = family.fold(partitions)
        for seed in Self.seeds {
            let merged = Self.shuffledFold(family, partitions, k: k, seed: seed)
            let report = family.finalise(merged.summary)
            #expect(report.rejects == inOrder.report.rejects)
            #expect(report.largest == inOrder.report.largest)
            #expect((report.boards, report.users, report.counted) == (inOrder.report.boards, inOrder.report.users, inOrder.report.counted))
            let folder = try temporaryFolder("leaderboards-\(k)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let rows = merged.results.compactMap(\.rows.board).flatMap(LeaderboardCSV.rows)
            #expect(try Self.csvBytes(LeaderboardCSV.layout, rows, in: folder) == reported("leaderboards/leaderboard.csv", run))
        }
    }

    @Test("activity: scores.csv, summary.csv and the averages", arguments: cases)
    func activity(set: DataSet, k: Int) throws {
        let run = try Self.runs[set]!.get()
        let partitions = try run.warehouse.read { reader in
            var partitions: [ActivityFamily.Partition] = []
            try reader.forEachActivityUser(in: ActivityFamily.window(Self.period)) { partitions.append(.init(userId: $0, days: $1)) }
            return partitions
        }
        #expect(partitions.count > 3)
        let family = ActivityFamily()
        let inOrder = family.fold(partitions)
        for seed in Self.seeds {
            let merged = Self.shuffledFold(family, partitions, k: k, seed: seed)
            let report = family.finalise(merged.summary)
            #expect(report.users == inOrder.report.users)
            #expect(report.meanOfAverages == inOrder.report.meanOfAverages)
            let folder = try temporaryFolder("activity-\(k)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let scores = merged.results.flatMap { $0.rows.days.map(ActivityCSV.scoreRow) }
            let summaries = merged.results.map { ActivityCSV.summaryRow($0.rows.summary, period: Self.period) }
            #expect(try Self.csvBytes(ActivityCSV.scores, scores, in: folder) == reported("activity/scores.csv", run))
            #expect(try Self.csvBytes(ActivityCSV.summary, summaries, in: folder) == reported("activity/summary.csv", run))
        }
    }

    @Test("kpis: every KPI CSV, with subscribers, swipes and matches split at random", arguments: cases)
    func kpis(set: DataSet, k: Int) throws {
        let run = try Self.runs[set]!.get()
        let tz = run.timezone
        let previous = Self.period.adding(months: -1)
        let (family, subscribers, swipes, matches) = try run.warehouse.read { reader in
            let family = try KPIStage.keys(reader, config: run.config, period: Self.period, timezone: tz).family
            var subscribers: [KPIsFamily.Partition] = []
            try reader.forEachSubscriber { subscribers.append(.subscriber(app: $0, userId: $1, events: $2, ids: $3)) }
            var swipes: [KPIsFamily.Swipe] = []
            try reader.forEachSwipe(from: tz.startOfDay(previous.firstDay), to: tz.endOfMonth(Self.period)) {
                swipes.append(KPIsFamily.Swipe(from: $0, action: $1, at: $2))
            }
            let matches = try reader.matchInstants(from: tz.startOfDay(previous.firstDay), to: tz.endOfMonth(Self.period))
            return (family, subscribers, swipes, matches)
        }
        #expect(subscribers.count > 10 && swipes.count > 100 && !matches.isEmpty)
        for seed in Self.seeds {
            // Swipes and matches cut into batches of random sizes (any split counts the same).
            var rng = SplitMix64(seed: seed)
            var partitions = subscribers
            var start = 0, batch = 0
            while start < swipes.count {
                let end = min(swipes.count, start + 1 + Int(rng.next() % 97))
                partitions.append(.swipes(batch: batch, Array(swipes[start..<end])))
                (start, batch) = (end, batch + 1)
            }
            start = 0
            while start < matches.count {
                let end = min(matches.count, start + 1 + Int(rng.next() % 5))
                partitions.append(.matches(batch: batch, Array(matches[start..<end])))
                (start, batch) = (end, batch + 1)
            }
            let merged = Self.shuffledFold(family, partitions, k: k, seed: seed)
            let report = family.finalise(merged.summary)
            let folder = try temporaryFolder("kpis-\(k)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let tables = KPICSV.tables(report.kpis)
            #expect(tables.count >= 10)
            for table in tables {
                #expect(try Self.csvBytes(table.layout, table.rows, in: folder) == reported("kpis/" + table.layout.name, run),
                        "\(table.layout.name), k = \(k), seed \(seed)")
            }
        }
    }
}
