import Foundation
import TallyCore
import TallyIngest
import TallyReports
import TallyWarehouse

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
    private let kpis: KPIMerge

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
        case .kpis(let record): try kpis.add(record)
        default: preconditionFailure("not a merge record: \(record)")
        }
    }

    /// Writes every report into `outDirectory` and publishes them with rejects.csv and run.json.
    func finish(outDirectory: URL, reproducible: Bool) throws -> RunManifest {
        try FileSystemWords.createFolder(outDirectory)
        for stale in AtomicFile.removeStaleTemporaries(in: outDirectory) { _ = stale }
        let refusals = reads.values.sorted { $0.file < $1.file }.compactMap { read -> FileRefusal? in
            guard let reason = read.refusal else { return nil }
            let file = plan.file(read.file)
            return FileRefusal(path: file.url.standardizedFileURL.path, displayPath: file.relativePath, dataset: file.dataset,
                               table: file.tableName, bytes: read.bytes, reason: reason, earlierVersionKept: false)
        }
        let (families, kept) = TallyRunner.families(ReportStages.all, refusals: refusals)
        let outputs = OutputSet()
        var reports: [ReportOutcome] = []
        if families.contains(where: { $0.name == "statements" }) {
            reports.append(try writeStatements(outDirectory: outDirectory, outputs: outputs))
        }
        if families.contains(where: { $0.name == "kpis" }) {
            reports.append(try kpis.write(outDirectory: outDirectory, outputs: outputs))
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
                                     locale: plan.locale, reproducible: reproducible)
        let ignored = plan.ignored.map { RunManifest.Ignored(path: $0.path, why: $0.why) }.sorted { $0.path < $1.path }
        return try publisher.publish(reports: reports, ingestRejects: rejects, files: files, refusals: refusals, ignored: ignored,
                                     keptFamilies: kept, outputs: outputs, stages: []).manifest
    }

    private func writeStatements(outDirectory: URL, outputs: OutputSet) throws -> ReportOutcome {
        let started = Date()
        let output = try StatementsOutput(outDirectory: outDirectory, locale: plan.locale, period: plan.period, outputs: outputs,
                                          coupleWorkbooks: plan.config.statements.coupleWorkbooks)
        output.merge(statementsSummary)
        let family = try CouplesStage(plan: plan).statements()
        for result in statements.sorted(by: { $0.key < $1.key }) {
            var workbook: AtomicFile?
            if plan.config.statements.coupleWorkbooks {
                workbook = try CoupleStatementFiles.workbook(result.rows.statement, locale: plan.locale,
                                                             folder: CoupleStatementFiles.folder(in: outDirectory))
            }
            try output.add(result, workbook: workbook)
        }
        return try output.finish(family, started: started)
    }
}
