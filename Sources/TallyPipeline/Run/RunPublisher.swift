import Foundation
import TallyCore
import TallyReports
import TallyWarehouse

/// The end of every run, however its reports were computed (from the
/// warehouse by ``TallyRunner``, or by a dataflow schedule): `rejects.csv`,
/// the per-file row accounting, the checks and `run.json`, then every
/// report moved into place together.
///
/// Every report is written in full before any is moved into place;
/// run.json goes last, as the mark of a finished run. Reports whose numbers
/// do not add up are not published: run.json alone says what failed
/// (``ReconciliationError``), and the previous reports stay.
struct RunPublisher {
    var outDirectory: URL
    var period: YearMonth
    var timezone: String
    var locale: ReportLocale
    var reproducible: Bool
    /// The last run published from the same warehouse (its period and
    /// figures), nil for a dataflow or a new warehouse.
    var previous: (period: YearMonth, figures: [RunFigure])? = nil
    /// When a dataset's volume is flagged (`tally.yml` → `changes`).
    var thresholds = RunChanges.Thresholds()
    /// The new out folder being written whole (``outDirectory`` is its
    /// temporary name), moved into place once run.json is written; nil when
    /// the files are moved into place one by one.
    var staged: StagedFolder? = nil

    /// Writes rejects.csv and run.json and publishes `outputs`. Returns the
    /// manifest as written, its reproducible bytes and the rejects written.
    /// - Parameters:
    ///   - ingestRejects: rows refused while reading (each counts once in its file's accounting).
    ///   - files: every input file read, with its rows read, rejected while reading and superseded.
    ///   - stages: run-specific timings, written unless the run is reproducible.
    func publish(reports: [ReportOutcome], ingestRejects: [Reject], files: [WarehouseReader.InputFileSummary],
                 refusals: [FileRefusal], ignored: [RunManifest.Ignored], keptFamilies: [RunManifest.KeptFamily],
                 outputs: OutputSet, stages: [RunManifest.Stage]) throws -> (manifest: RunManifest, published: Data, rejects: Int) {
        let reportRejects = reports.flatMap(\.rejects)
        let refusalRejects = refusals.map {
            Reject(dataset: $0.dataset, file: $0.displayPath, line: 0, id: "", reason: .fileRefused($0.reason))
        }
        let rejectCount = try RejectsFile.write(ingestRejects + reportRejects + refusalRejects,
                                                to: outDirectory.appendingPathComponent("rejects.csv"), outputs: outputs)
        let inputs = Self.accounting(files, reportRejects: reportRejects)
        var checks = reports.flatMap(\.checks)
        checks.append(Reconciliation.inputsCheck(
            inputs, storedRejects: Dictionary(ingestRejects.map { ($0.file, 1) }, uniquingKeysWith: +),
            reportRejects: Dictionary(grouping: reportRejects, by: \.file).mapValues { Set($0.map(\.line)).count }))
        // By family name, so every schedule lists them in one order.
        let figures = reports.sorted { $0.name < $1.name }.flatMap(\.figures)
        var changes = RunChanges.between(figures, period: period, previous: previous, thresholds: thresholds)
        changes.restated += reports.sorted { $0.name < $1.name }.flatMap(\.restated)
        var manifest = RunManifest(
            tally: .init(version: TallyRunner.version), period: period.description,
            timezone: timezone, locale: locale.identifier, inputs: inputs, ignored: ignored,
            outputs: ([.init(path: "rejects.csv", rows: rejectCount)] + reports.flatMap(\.outputs)).sorted { $0.path < $1.path },
            checks: checks,
            figures: figures,
            changes: changes.isEmpty && changes.against == nil ? nil : changes,
            refused: refusals.isEmpty ? nil : refusals.map(RunManifest.Refused.init),
            keptReports: keptFamilies.isEmpty ? nil : keptFamilies,
            stages: nil, peakMemoryMiB: nil)
        let published = try manifest.encoded()
        if !reproducible {
            manifest.stages = stages
            manifest.peakMemoryMiB = TallyRunner.peakMemoryMiB()
        }
        // One syncfs makes the published reports durable before run.json
        // names them (an fsync per file would wait on the disk once for each
        // of thousands of files).
        let runFile = try AtomicFile(destination: outDirectory.appendingPathComponent("run.json"))
        try runFile.write(try manifest.encoded())
        if let error = Reconciliation.error(checks) {
            try runFile.commit()
            try staged?.publish(only: ["run.json"])
            throw error
        }
        try outputs.commit()
        try AtomicFile.syncFileSystem(containing: outDirectory)
        try runFile.commit()
        if let staged {
            // The folder appears whole, run.json with it.
            try staged.publish()
            try AtomicFile.syncFileSystem(containing: staged.destination)
        } else {
            try AtomicFile.syncFileSystem(containing: outDirectory)
        }
        return (manifest, published, rejectCount)
    }

    /// Per-file accounting: read and superseded as counted, rejected = rows
    /// rejected while reading plus rows (distinct lines) rejected by reports.
    static func accounting(_ files: [WarehouseReader.InputFileSummary], reportRejects: [Reject]) -> [RunManifest.Input] {
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
