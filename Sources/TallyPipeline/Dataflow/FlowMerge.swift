import Foundation
import TallyCore
import TallyIngest
import TallyReports
import TallyWarehouse
import TallyWire

/// The last stage of a dataflow run: folds everything routed to it (in any
/// order) into the reports, `rejects.csv` and `run.json`, with the same
/// renderers, checks and publication as `tally run` (``StatementsOutput``,
/// ``RunPublisher``).
///
/// Partition results are written in key (byte) order; summaries merge in
/// any order (their merges are associative and commutative); a file's
/// accounting is what reading it gave plus its rejects and superseded rows.
final class FlowMerge {
    let plan: FlowPlan
    private var reads: [Int: FileRead] = [:]
    private var superseded: [Int: Int] = [:]
    private var rejects: [Reject] = []
    private var statements: [PartitionResult<StatementsFamily.Rows, StatementsFamily.Summary>] = []
    private var statementsSummary = StatementsFamily.Summary()
    private var boards: [PartitionResult<LeaderboardsFamily.Rows, LeaderboardsFamily.Summary>] = []
    private var leaderboardsSummary = LeaderboardsFamily.Summary()
    private var activity: [PartitionResult<ActivityFamily.Rows, ActivityFamily.Summary>] = []
    private let kpis: KPIMerge
    /// The records families' encoded partition results, by family.
    private var familyResults: [String: [[UInt8]]] = [:]

    init(plan: FlowPlan) {
        self.plan = plan
        kpis = KPIMerge(plan: plan)
    }

    /// Takes one record routed to the merge.
    func add(_ record: FlowRecord) throws {
        switch record {
        case .fileRead(let read): reads[read.file] = read
        case .superseded(let file, let rows): superseded[file, default: 0] += rows
        case .reject(let reject): rejects.append(reject)
        case .statement(let result): statements.append(result)
        case .statementsSummary(let summary): statementsSummary.merge(summary)
        case .board(let result): boards.append(result)
        case .leaderboardsSummary(let summary): leaderboardsSummary.merge(summary)
        case .activity(let result): activity.append(result)
        case .kpis(let record): try kpis.add(record)
        case .familyResult(let family, let bytes): familyResults[family, default: []].append(bytes)
        default: preconditionFailure("not a merge record: \(record)")
        }
    }

    /// Writes every report into `outDirectory` and publishes them with rejects.csv and run.json.
    func finish(outDirectory: URL, reproducible: Bool) throws -> RunManifest {
        try FileSystemWords.createFolder(outDirectory)
        // A merge killed outright leaves its temporary report files behind.
        _ = AtomicFile.removeStaleTemporaries(in: outDirectory)
        let refusals = reads.values.sorted { $0.file < $1.file }.compactMap { read -> FileRefusal? in
            guard let reason = read.refusal else { return nil }
            let file = plan.file(read.file)
            return FileRefusal(path: file.url.standardizedFileURL.path, displayPath: file.relativePath, dataset: file.dataset,
                               table: file.tableName, bytes: read.bytes, reason: reason, earlierVersionKept: false)
        }
        let (families, kept) = TallyRunner.families(plan.families.all, refusals: refusals)
        let outputs = OutputSet(csvDialect: plan.config.csv.dialect)
        var reports: [ReportOutcome] = []
        for family in families {
            switch family.name {
            case "statements": reports.append(try writeStatements(outDirectory: outDirectory, outputs: outputs))
            case "leaderboards": reports.append(try writeLeaderboards(outDirectory: outDirectory, outputs: outputs))
            case "activity": reports.append(try writeActivity(outDirectory: outDirectory, outputs: outputs))
            case "kpis": reports.append(try kpis.write(outDirectory: outDirectory, outputs: outputs))
            default:
                guard let records = plan.families.records(named: family.name) else {
                    preconditionFailure("no dataflow for the \(family.name) family")
                }
                reports.append(try records.writeLines(familyResults[family.name] ?? [], outDirectory, outputs))
            }
        }
        var files: [WarehouseReader.InputFileSummary] = []
        let stored = Dictionary(grouping: rejects, by: \.file).mapValues(\.count)
        for read in reads.values where read.refusal == nil {
            let file = plan.file(read.file)
            files.append(.init(id: Int64(read.file), displayPath: file.relativePath, dataset: file.dataset, table: file.tableName,
                               bytes: read.bytes, sha256: read.sha256, rowsRead: read.rowsRead,
                               rowsRejected: stored[file.relativePath] ?? 0, rowsSuperseded: superseded[read.file] ?? 0,
                               unknownFields: read.unknownFields))
        }
        files.sort { ByteOrder.precedes($0.displayPath, $1.displayPath) }
        let publisher = RunPublisher(outDirectory: outDirectory, period: plan.period, timezone: plan.config.timezone,
                                     locale: plan.locale, reproducible: reproducible, thresholds: plan.config.changes)
        let ignored = plan.ignored.map { RunManifest.Ignored(path: $0.path, why: $0.why) }.sorted { $0.path < $1.path }
        let manifest = try publisher.publish(reports: reports, ingestRejects: rejects, files: files, refusals: refusals,
                                             ignored: ignored, keptFamilies: kept, outputs: outputs, stages: []).manifest
        try? FileManager.default.removeItem(at: outDirectory.appendingPathComponent(FlowPlan.stagingFolder))
        return manifest
    }

    private func writeStatements(outDirectory: URL, outputs: OutputSet) throws -> ReportOutcome {
        let started = Date()
        let output = try StatementsOutput(outDirectory: outDirectory, locale: plan.locale,
                                          categories: plan.config.categoryLabels(plan.locale), period: plan.period, outputs: outputs,
                                          coupleWorkbooks: plan.config.statements.coupleWorkbooks)
        output.merge(statementsSummary)
        let family = try CouplesStage(plan: plan).statementsKeys().family
        let staging = try plan.staging("statements")
        for result in statements.sorted(by: { $0.key < $1.key }) { try output.add(result, stagedIn: staging) }
        return try output.finish(family, started: started)
    }

    private func writeLeaderboards(outDirectory: URL, outputs: OutputSet) throws -> ReportOutcome {
        let started = Date()
        let family = ChallengesStage.keys(plan).family
        let output = try LeaderboardsOutput(outDirectory: outDirectory, locale: plan.locale, asOf: family.settings.asOf,
                                            pointsRule: PointsRule(plan.config.leaderboards), outputs: outputs)
        output.merge(leaderboardsSummary)
        let staging = try plan.staging("leaderboards")
        for result in boards.sorted(by: { $0.key < $1.key }) {
            guard let board = result.rows.board else {
                try output.add(result, text: nil)
                continue
            }
            let name = SafeFileName.stem(for: board.challenge.id) + ".txt"
            let text = try AtomicFile(destination: output.folder.appendingPathComponent(name))
            try text.adopt(staging.appendingPathComponent(name))
            try output.add(result, text: text)
        }
        return try output.finish(family, started: started)
    }

    private func writeActivity(outDirectory: URL, outputs: OutputSet) throws -> ReportOutcome {
        let started = Date()
        let output = try ActivityOutput(outDirectory: outDirectory, locale: plan.locale, period: plan.period,
                                        minimumDays: plan.config.activity.minimumDaysRanked, outputs: outputs)
        for result in activity.sorted(by: { $0.key < $1.key }) { try output.add(result) }
        return try output.finish(ActivityKeys().family, started: started)
    }
}
