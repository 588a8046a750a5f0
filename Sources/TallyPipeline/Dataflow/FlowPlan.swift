import Foundation
import TallyCore
import TallyIngest
import TallyReports
import TallyWire

/// What a dataflow run reads and reports, decided once before any stage
/// runs: the input files in load order (a file's sequence number is its
/// place in that order, the `loadSeq` the row rules compare), the files
/// ignored and why, and the settings every stage reads.
///
/// The plan holds no rule: the stages (``FlowStages``) call TallyCore's.
///
/// ```swift
/// let plan = try FlowPlan(data: dataFolder, config: config, period: YearMonth("2026-10")!)
/// plan.files[0]   // the input file of sequence number 1
/// ```
struct FlowPlan: Sendable {
    var dataDirectory: URL
    /// The input files, in load order: file `seq` is `files[seq - 1]`.
    var files: [InputFile]
    /// Files of the data folder not read, with why.
    var ignored: [(path: String, why: String)]
    var config: TallyConfig
    var period: YearMonth
    var timezone: ReportTimeZone
    var locale: ReportLocale
    /// `--as-of`: the day leaderboards are computed as of; nil for the period's last day.
    var asOf: LocalDate?
    /// The report folder, where the partition stages write their entities'
    /// files themselves (``staging(_:)``); set by the schedule that runs the plan.
    var outDirectory: URL?
    /// The report families the run writes.
    var families = ReportFamilies.standard
    /// The lines of the Parquet files every stage instance reads whole
    /// (``FlowBroadcast/tables``), by relative path, as the engine put them
    /// in the plan (``DataflowProcesses/Plan/sourceLines``).
    var sourceLines: [String: [String]] = [:]

    /// Where the partition stages of `family` write their entities' files
    /// (`<out>/.tally-parts/<family>/`), for the merge to move into place
    /// with the run's other reports: a couple's statement is written where it
    /// is computed, not funnelled through the merge. Throws without an out folder.
    func staging(_ family: String) throws -> URL {
        guard let outDirectory else { throw DataflowError("the plan has no report folder for the workers' files") }
        return outDirectory.appendingPathComponent(Self.stagingFolder).appendingPathComponent(family)
    }

    /// The folder, in the report folder, of files written by the workers and not yet published.
    static let stagingFolder = ".tally-parts"

    /// Scans `data` as `tally run` does: the files this version reads, in the catalogue's order.
    init(data: URL, config: TallyConfig, period: YearMonth, asOf: LocalDate? = nil) throws {
        guard let timezone = ReportTimeZone(identifier: config.timezone) else {
            throw ConfigError("timezone '\(config.timezone)' is not an IANA time zone")
        }
        guard let locale = ReportLocale(identifier: config.locale) else {
            throw ConfigError("locale '\(config.locale)' is not one of pt-BR, en-US, es-ES")
        }
        let catalog = try InputCatalog.scan(data)
        var ignored = catalog.ignored
        var files: [InputFile] = []
        for file in catalog.files {
            if InputLoaders.canLoad(file) {
                files.append(file)
            } else {
                ignored.append((file.relativePath, "dataset \(file.dataset)/ is not read by this version yet"))
            }
        }
        self.dataDirectory = data
        self.files = files
        self.ignored = ignored
        self.config = config
        self.period = period
        self.timezone = timezone
        self.locale = locale
        self.asOf = asOf
    }

    /// The file of sequence number `seq`.
    func file(_ seq: Int) -> InputFile { files[seq - 1] }

    /// Counts the row at `origin` superseded, in its file's accounting (sent to
    /// the merge, combined per file by ``FlowWorker``).
    func emitSuperseded(_ origin: RowOrigin, _ emit: FlowEmit) {
        emit(.merge, FlowKeys.file(origin.file), .superseded(file: origin.file, rows: 1))
    }

    /// Rejects the row at `origin`, named by `id`, with `reason` (sent to the merge).
    func emitReject(_ origin: RowOrigin, id: String, reason: RejectReason, _ emit: FlowEmit) {
        let file = file(origin.file)
        emit(.merge, FlowKeys.file(origin.file), .reject(Reject(dataset: file.dataset, file: file.relativePath, line: origin.line,
                                                                id: id, reason: reason)))
    }

    /// The winning version `version`, read at `origin`, as the warehouse's
    /// scans hand it over (``TallyWarehouse/WarehouseReader/winningExpenses(only:paths:)``).
    func winningExpense(_ version: ExpenseVersion, _ origin: RowOrigin) -> CoupleRows.WinningExpense {
        let source = SourceRef(file: file(origin.file).relativePath, line: origin.line)
        let fact = version.body.map { b in
            ExpenseFact(id: version.id, coupleId: b.coupleId, paidBy: b.paidBy, amount: b.amount, currency: b.currency,
                        date: b.date, description: b.description, tag: b.tag, agreementId: b.agreementId,
                        split: b.split, source: source)
        }
        return CoupleRows.WinningExpense(id: version.id, source: source, fact: fact, deleted: version.deletedAt != nil,
                                         error: version.error, written: version.written)
    }

    /// The sequence numbers of the files of `table`, in load order.
    func files(of table: TableID) -> [Int] {
        files.indices.filter { files[$0].table == table }.map { $0 + 1 }
    }

    /// The files decoded by one task, file `seq` among them, in load order:
    /// the files whose rows meet under the same keys, when their table is
    /// one file (``sharedSources``): the subscription events' file with the
    /// App Store reports, which add events to the same subscribers, and the
    /// activity's file with the Apple Health exports, which add days to the
    /// same users; every other file alone. A table in parts stays a task per
    /// part, decoded in parallel, and its rows meet in the engine's passes.
    func group(of seq: Int) -> [Int] {
        for (table, sources) in sharedSources where sources.contains(seq) {
            guard files(of: table).count <= 1, sources.count > 1 else { return [seq] }
            return sources
        }
        return [seq]
    }

    /// The key of file `seq`'s task: its group's first file's (``group(of:)``).
    func taskKey(of seq: Int) -> [UInt8] { FlowKeys.file(group(of: seq)[0]) }

    /// Each table whose keys other files add to, with every file that
    /// feeds those keys: the subscription events with the App Store
    /// reports, the activity with the Apple Health exports.
    private var sharedSources: [(table: TableID, sources: [Int])] {
        [(.events, sources(of: .events)), (.activity, sources(of: .activity))]
    }

    /// The files that feed `table`'s keys: its own and, for the events, the
    /// App Store reports, for the activity, the Apple Health exports.
    private func sources(of table: TableID) -> [Int] {
        files.indices.filter { keyTable(of: files[$0]) == table }.map { $0 + 1 }
    }

    /// The table whose keys `file`'s rows add to: its own, the events' for an
    /// App Store report, the activity's for an Apple Health export.
    private func keyTable(of file: InputFile) -> TableID {
        switch file.kind {
        case .table(let table): table
        case .appStoreConnectReport: .events
        case .appleHealthExport: .activity
        }
    }

    /// The stages, in wave order, whose every input for the keys that file
    /// `seq`'s group feeds comes from that group (``group(of:)``): the rows
    /// stage when every file of the group's tables is in it, and the stages
    /// that take only such a table's rows (``FlowStageName/onlyTable``). A
    /// dataflow worker runs them where it decodes the group
    /// (``InFileStages``): each key gets the same records either way.
    func stagesInGroup(of seq: Int) -> [FlowStageName] {
        let group = group(of: seq)
        let tables = Set(group.map { keyTable(of: file($0)) })
        guard !tables.isEmpty, tables.allSatisfy({ Set(sources(of: $0)).isSubset(of: group) }) else { return [] }
        return [.rows] + FlowStageName.allCases.filter { $0.onlyTable.map(tables.contains) ?? false }
    }
}
