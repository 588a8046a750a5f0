import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Logging
import TallyCore
import TallyIngest
import TallyReports
import TallyWarehouse

/// Runs tally's stages: ingest (files → warehouse) and report (warehouse →
/// report files), and writes `run.json`.
public struct TallyRunner {
    /// tally's version, as run.json and `--version` show it.
    public static let version = "0.1.0"

    let logger: Logger
    let progress: Progress
    /// The report families a run writes.
    var families = ReportFamilies.standard

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
        var config = try request.configText.map { try ConfigLoader.parse($0.text, file: $0.file) }
            ?? ConfigLoader.load(request.resolvedConfigURL)
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
        // A data folder that holds no input, or a table only the Spark job reads, creates nothing.
        try InputCatalog.scan(data).refusingParquet()
        var request = request
        request.databasePath = try WarehouseLocation.settle(request, logger: logger)
        let warehouse = try openWarehouse(request)
        return try IngestStage(logger: logger, progress: progress, timezone: ReportTimeZone(identifier: config.timezone))
            .run(dataDirectory: data, warehouse: warehouse)
    }

    /// Ingests (when `request.dataDirectory` is set) and writes every report for the period.
    public func run(_ request: RunRequest) throws -> Outcome {
        let config = try configuration(request)
        var request = request
        guard let period = request.period else { throw ConfigError("reports need a --period YYYY-MM") }
        guard let locale = ReportLocale(identifier: config.locale) else {
            throw ConfigError("locale '\(config.locale)' is not one of pt-BR, en-US, es-ES")
        }
        // Nothing is created (out folder, warehouse) for a run that cannot
        // report: a data folder that holds no input or a table only the Spark
        // job reads, or no warehouse to report from.
        if let data = request.dataDirectory {
            try InputCatalog.scan(data).refusingParquet()
        }
        request.databasePath = try WarehouseLocation.settle(request, logger: logger)
        if request.dataDirectory == nil, !FileManager.default.fileExists(atPath: request.resolvedDatabasePath),
           // A lock without a warehouse: a run creating it (busy, exit 75).
           !FileManager.default.fileExists(atPath: request.resolvedDatabasePath + ".lock") {
            throw MissingInputError("no warehouse at \(request.resolvedDatabasePath): load the data first (tally run --data DIR, or tally ingest --data DIR) or name the warehouse with --db")
        }
        // A run killed outright leaves its temporary report files (or its staged folder) behind.
        for stale in StagedFolder.removeStale(besides: request.outDirectory) {
            logger.notice("removed \(stale), left by an interrupted run")
        }
        // A new out folder is written whole under a temporary name and moved
        // into place at the end; in an existing one, the reports are replaced
        // one by one.
        let staged = StagedFolder.begin(request.outDirectory)
        defer { staged?.discard() }
        let writeDirectory = staged?.folder ?? request.outDirectory
        if staged == nil { try FileSystemWords.createFolder(request.outDirectory) }
        let warehouse = try openWarehouse(request)
        for stale in AtomicFile.removeStaleTemporaries(in: request.outDirectory) {
            logger.notice("removed \(stale), left by an interrupted run")
        }
        var ingest: IngestStage.Outcome?
        if let data = request.dataDirectory {
            ingest = try IngestStage(logger: logger, progress: progress, timezone: ReportTimeZone(identifier: config.timezone))
                .run(dataDirectory: data, warehouse: warehouse, leavingDerivations: true)
        } else {
            // Nothing loads, but the export days still follow the report time zone.
            try warehouse.useReportTimeZone(config.timezone)
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
        // Refused files, as the warehouse records them (so `tally report`
        // after `tally ingest` knows them too). A refused file is refused
        // again by every run until it changes: such runs write the reports
        // (and say what was refused) each time.
        let refusals = try warehouse.read { try $0.refusedFiles() }
        if request.reuseReports, pending.isEmpty, refusals.isEmpty,
           let kept = try keptReports(request, config: config, period: period, warehouse: warehouse, ignored: ignored, ingest: ingest) {
            return kept
        }
        let previous = try previousRun(warehouse)
        let context = ReportContext(config: config, locale: locale, period: period, timezone: timezone,
                                    outDirectory: writeDirectory, warehouse: warehouse, reads: warehouse,
                                    logger: logger, progress: progress, outputs: OutputSet(csvDialect: config.csv.dialect), asOf: request.asOf,
                                    previousRun: previous)
        let (families, keptFamilies) = Self.families(families.all, refusals: refusals)
        for kept in keptFamilies { logger.notice("\(kept.family): not written, the reports in \(request.outDirectory.path) are kept: \(kept.why)") }
        let (reports, derivations) = try RunGraph.run(families, context: context, pending: pending)
        try ingest?.recordDerivations(derivations, from: warehouse, progress: progress)
        let (ingestRejects, files) = try warehouse.read { r in (try r.ingestRejects(), try r.inputFiles()) }
        let stages = ingestStages(ingest) + reports.flatMap { [.init(name: $0.name, seconds: $0.seconds, rows: $0.rows)] + $0.detailStages }
        let publisher = RunPublisher(outDirectory: writeDirectory, period: period, timezone: config.timezone,
                                     locale: locale, reproducible: request.reproducible,
                                     previous: previous, thresholds: config.changes, staged: staged)
        let (manifest, published, rejectCount) = try publisher.publish(
            reports: reports, ingestRejects: ingestRejects, files: files, refusals: refusals, ignored: ignored,
            keptFamilies: keptFamilies, outputs: context.outputs, stages: stages)
        // Recorded only once the reports are in place: a run stopped before
        // this point leaves the previous record, which no longer matches the folder.
        let summary = reports.flatMap(\.summary)
        try warehouse.record(Publication(
            key: try ReportReuse.key(request, config: config, period: period, warehouse: warehouse, ignored: ignored),
            files: ReportReuse.folderDigest(request.outDirectory, warehousePath: request.resolvedDatabasePath),
            manifest: published, rejects: rejectCount, summary: summary), outPath: outPath,
            run: PublishedRun(period: period.description, figures: try JSONEncoder().encode(manifest.figures ?? [])),
            closings: reports.flatMap(\.closings), keyStates: reports.flatMap(\.keyStates))
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

    /// The last run published from `warehouse`: its period and figures.
    private func previousRun(_ warehouse: Warehouse) throws -> (period: YearMonth, figures: [RunFigure])? {
        guard let run = try warehouse.lastPublishedRun(), let period = YearMonth(run.period),
              let figures = try? JSONDecoder().decode([RunFigure].self, from: run.figures) else { return nil }
        return (period, figures)
    }

    /// Opens the warehouse in effect, creating the folder that holds it.
    private func openWarehouse(_ request: RunRequest) throws -> Warehouse {
        let path = request.resolvedDatabasePath
        try FileSystemWords.createFolder(URL(fileURLWithPath: path).deletingLastPathComponent())
        return try Warehouse(path: path)
    }

    /// The report families to write, and those that keep the reports in the
    /// out folder: a family reading a dataset with a file refused that has
    /// no earlier version loaded would report without that file's rows
    /// (fewer couples, an empty leaderboard), so it writes nothing and the
    /// previous reports stay. A refused file with an earlier version loaded
    /// stops nothing: the reports use that version.
    static func families(_ all: [any ReportStage], refusals: [FileRefusal]) -> ([any ReportStage], [RunManifest.KeptFamily]) {
        var missing: [String: [String]] = [:]
        for r in refusals where !r.earlierVersionKept { missing[r.dataset, default: []].append(r.displayPath) }
        var run: [any ReportStage] = []
        var kept: [RunManifest.KeptFamily] = []
        for stage in all {
            let paths = stage.datasets.sorted().flatMap { missing[$0] ?? [] }
            if paths.isEmpty {
                run.append(stage)
            } else {
                kept.append(.init(family: stage.name, why: "\(paths.joined(separator: ", ")) refused and never loaded before"))
            }
        }
        return (run, kept)
    }

    /// run.json's stages for an ingest: the whole, then each file loaded.
    private func ingestStages(_ ingest: IngestStage.Outcome?) -> [RunManifest.Stage] {
        guard let ingest else { return [] }
        return [.init(name: "ingest", seconds: ingest.seconds, rows: ingest.rowsRead, bytes: ingest.bytesRead,
                      filesLoaded: ingest.filesLoaded, filesUnchanged: ingest.filesUnchanged)]
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
}

/// An input the run needs is not there (exit code 66, as a missing data folder).
public struct MissingInputError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A reconciliation check failed: the numbers do not add up.
public struct ReconciliationError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = "reconciliation failed: " + description }
}
