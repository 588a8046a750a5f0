import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Logging
import TallyCore
import TallyReports
import TallyWarehouse

/// Runs tally's stages: ingest (files → warehouse) and report (warehouse →
/// report files), and writes `run.json`.
public struct TallyRunner {
    /// tally's version, as run.json and `--version` show it.
    public static let version = "0.1.0"

    let logger: Logger
    let progress: Progress

    public init(logger: Logger, progress: Progress) {
        self.logger = logger
        self.progress = progress
    }

    /// What a run did, for the terminal summary.
    public struct Outcome: Sendable {
        public var manifest: RunManifest
        public var ingest: IngestStage.Outcome?
        public var rejects: Int
        /// The report stages' summary lines.
        public var summary: [String]
        public var outDirectory: URL
        /// True when the reports in the out folder were kept (nothing they depend on changed).
        public var reportsKept = false
    }

    /// Loads the configuration in effect, applying the time zone override.
    public func configuration(_ request: RunRequest) throws -> TallyConfig {
        var config = try ConfigLoader.load(request.resolvedConfigURL)
        if let tz = request.timezone {
            guard ReportTimeZone(identifier: tz) != nil else {
                throw ConfigError("--timezone '\(tz)' is not an IANA time zone like America/Sao_Paulo")
            }
            config.timezone = tz
        }
        return config
    }

    /// Ingests the data folder into the warehouse.
    public func ingest(_ request: RunRequest) throws -> IngestStage.Outcome {
        guard let data = request.dataDirectory else { throw ConfigError("ingest needs --data") }
        let config = try configuration(request)
        let warehouse = try Warehouse(path: request.resolvedDatabasePath)
        return try IngestStage(logger: logger, progress: progress, timezone: ReportTimeZone(identifier: config.timezone))
            .run(dataDirectory: data, warehouse: warehouse)
    }

    /// Ingests (when `request.dataDirectory` is set) and writes every report for the period.
    public func run(_ request: RunRequest) throws -> Outcome {
        let config = try configuration(request)
        guard let period = request.period else { throw ConfigError("reports need a --period YYYY-MM") }
        guard let locale = ReportLocale(identifier: config.locale) else {
            throw ConfigError("locale '\(config.locale)' is not one of pt-BR, en-US, es-ES")
        }
        try FileManager.default.createDirectory(at: request.outDirectory, withIntermediateDirectories: true)
        let warehouse = try Warehouse(path: request.resolvedDatabasePath)
        // A run killed outright leaves its temporary report files behind.
        for stale in AtomicFile.removeStaleTemporaries(in: request.outDirectory) {
            logger.notice("removed \(stale), left by an interrupted run")
        }
        var ingest: IngestStage.Outcome?
        if let data = request.dataDirectory {
            ingest = try IngestStage(logger: logger, progress: progress, timezone: ReportTimeZone(identifier: config.timezone))
                .run(dataDirectory: data, warehouse: warehouse, leavingDerivations: true)
        }
        guard let timezone = ReportTimeZone(identifier: config.timezone) else {
            throw ConfigError("timezone '\(config.timezone)' is not an IANA time zone")
        }
        let outPath = request.outDirectory.standardizedFileURL.path
        let ignored = (ingest?.ignored ?? []).map { RunManifest.Ignored(path: $0.path, why: $0.why) }.sorted { $0.path < $1.path }
        // Derived tables left pending (by this ingest, or by a run stopped
        // before rebuilding them) mean the inputs changed: the reports are
        // written again, beside the rebuild.
        let pending = try warehouse.pendingDerivations()
        if request.reuseReports, pending.isEmpty,
           let kept = try keptReports(request, config: config, period: period, warehouse: warehouse, ignored: ignored, ingest: ingest) {
            return kept
        }
        let context = ReportContext(config: config, locale: locale, period: period, timezone: timezone,
                                    outDirectory: request.outDirectory, warehouse: warehouse, reads: warehouse,
                                    logger: logger, progress: progress, outputs: OutputSet(), asOf: request.asOf)
        let (reports, derivations) = try ReportsBesideDerivations.run(ReportStages.all, context: context, pending: pending)
        try ingest?.recordDerivations(derivations, from: warehouse, progress: progress)
        let reportRejects = reports.flatMap(\.rejects)
        let (ingestRejects, files) = try warehouse.read { r in (try r.ingestRejects(), try r.inputFiles()) }
        let rejectCount = try RejectsFile.write(ingestRejects + reportRejects,
                                                to: request.outDirectory.appendingPathComponent("rejects.csv"),
                                                outputs: context.outputs)
        let inputs = accounting(files, reportRejects: reportRejects)
        var checks = reports.flatMap(\.checks)
        checks.append(Reconciliation.inputsCheck(
            inputs, storedRejects: Dictionary(ingestRejects.map { ($0.file, 1) }, uniquingKeysWith: +),
            reportRejects: Dictionary(grouping: reportRejects, by: \.file).mapValues { Set($0.map(\.line)).count }))
        let stages = ingestStages(ingest) + reports.flatMap { [.init(name: $0.name, seconds: $0.seconds, rows: $0.rows)] + $0.detailStages }
        var manifest = RunManifest(
            tally: .init(version: TallyRunner.version), period: period.description,
            timezone: config.timezone, locale: locale.identifier, inputs: inputs, ignored: ignored,
            outputs: ([.init(path: "rejects.csv", rows: rejectCount)] + reports.flatMap(\.outputs)).sorted { $0.path < $1.path },
            checks: checks, stages: nil, peakMemoryMiB: nil)
        let published = try manifest.encoded()
        if !request.reproducible {
            manifest.stages = stages
            manifest.peakMemoryMiB = TallyRunner.peakMemoryMiB()
        }
        // Every report is written in full before any is moved into place;
        // run.json goes last, as the mark of a finished run. Reports whose
        // numbers do not add up are not published: run.json alone says what
        // failed, and the previous reports stay. One syncfs makes the
        // published reports durable before run.json names them (an fsync per
        // file measured as the largest cost of writing thousands of files).
        let runFile = try AtomicFile(destination: request.outDirectory.appendingPathComponent("run.json"))
        try runFile.write(try manifest.encoded())
        if let error = Reconciliation.error(checks) {
            try runFile.commit()
            throw error
        }
        try context.outputs.commit()
        try AtomicFile.syncFileSystem(containing: request.outDirectory)
        try runFile.commit()
        try AtomicFile.syncFileSystem(containing: request.outDirectory)
        // Recorded only once the reports are in place: a run stopped before
        // this point leaves the previous record, which no longer matches the folder.
        let summary = reports.flatMap(\.summary)
        try warehouse.record(Publication(
            key: try ReportReuse.key(request, config: config, period: period, warehouse: warehouse, ignored: ignored),
            files: ReportReuse.folderDigest(request.outDirectory, warehousePath: request.resolvedDatabasePath),
            manifest: published, rejects: rejectCount, summary: summary), outPath: outPath)
        return Outcome(manifest: manifest, ingest: ingest, rejects: rejectCount, summary: summary,
                       outDirectory: request.outDirectory)
    }

    /// The reports already in the out folder, when the last run that wrote
    /// them had the same inputs, configuration, period and build and the
    /// folder is as it left it (see ``ReportReuse``): run.json is rewritten
    /// with this run's timings, every other file is kept as it is.
    private func keptReports(_ request: RunRequest, config: TallyConfig, period: YearMonth, warehouse: Warehouse,
                             ignored: [RunManifest.Ignored], ingest: IngestStage.Outcome?) throws -> Outcome? {
        let started = Date()
        guard let last = try warehouse.publication(outPath: request.outDirectory.standardizedFileURL.path),
              last.key == (try ReportReuse.key(request, config: config, period: period, warehouse: warehouse, ignored: ignored)),
              last.files == ReportReuse.folderDigest(request.outDirectory, warehousePath: request.resolvedDatabasePath),
              var manifest = try? JSONDecoder().decode(RunManifest.self, from: last.manifest) else { return nil }
        logger.notice("reports kept: inputs, configuration, period and build are those of the last run into \(request.outDirectory.path) (--rebuild-reports writes them again)")
        progress.step(["stage": "reports", "status": "unchanged"])
        if !request.reproducible {
            manifest.stages = ingestStages(ingest) + [.init(name: "reports (kept: unchanged)", seconds: Date().timeIntervalSince(started))]
            manifest.peakMemoryMiB = TallyRunner.peakMemoryMiB()
        }
        let runFile = try AtomicFile(destination: request.outDirectory.appendingPathComponent("run.json"))
        try runFile.write(try manifest.encoded())
        try runFile.commit()
        try AtomicFile.syncFileSystem(containing: request.outDirectory)
        return Outcome(manifest: manifest, ingest: ingest, rejects: last.rejects, summary: last.summary,
                       outDirectory: request.outDirectory, reportsKept: true)
    }

    /// run.json's stages for an ingest: the whole, then each file loaded.
    private func ingestStages(_ ingest: IngestStage.Outcome?) -> [RunManifest.Stage] {
        guard let ingest else { return [] }
        return [.init(name: "ingest", seconds: ingest.seconds, rows: ingest.rowsRead, bytes: ingest.bytesRead,
                      filesLoaded: ingest.filesLoaded, filesUnchanged: ingest.files.count - ingest.filesLoaded)]
            + ingest.files.filter(\.loaded).map {
                .init(name: "ingest \($0.path)", seconds: $0.seconds, rows: $0.rowsRead, bytes: $0.bytes)
            }
            + ingest.derivations.map { .init(name: "derive \($0.name)", seconds: $0.seconds) }
    }

    /// The process's peak resident set size so far (getrusage), in MiB.
    static func peakMemoryMiB() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return (Double(usage.ru_maxrss) / 1024 * 10).rounded() / 10   // ru_maxrss is in KiB on Linux
    }

    /// Per-file accounting: read and superseded as loaded, rejected = rows
    /// rejected while reading plus rows (distinct lines) rejected by reports.
    func accounting(_ files: [WarehouseReader.InputFileSummary], reportRejects: [Reject]) -> [RunManifest.Input] {
        var lines: [String: Set<Int>] = [:]
        for r in reportRejects { lines[r.file, default: []].insert(r.line) }
        return files.map { f in
            let rejected = f.rowsRejected + (lines[f.displayPath]?.count ?? 0)
            return RunManifest.Input(path: f.displayPath, dataset: f.dataset, table: f.table, bytes: f.bytes,
                                     sha256: f.sha256, rowsRead: f.rowsRead,
                                     rowsUsed: f.rowsRead - rejected - f.rowsSuperseded, rowsRejected: rejected,
                                     rowsSuperseded: f.rowsSuperseded, unknownFields: f.unknownFields)
        }
    }
}

/// A reconciliation check failed: the numbers do not add up.
public struct ReconciliationError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = "reconciliation failed: " + description }
}
