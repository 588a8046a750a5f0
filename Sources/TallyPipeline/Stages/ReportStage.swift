import Foundation
import Logging
import TallyCore
import TallyReports
import TallyWarehouse

/// What every report stage is given.
struct ReportContext {
    let config: TallyConfig
    let locale: ReportLocale
    let period: YearMonth
    /// The report time zone (`config.timezone`).
    let timezone: ReportTimeZone
    let outDirectory: URL
    /// The warehouse; stages read it through `reads`.
    let warehouse: Warehouse
    /// Where a stage reads from: a read connection of its own, limited to
    /// the derived tables it declared (``DeclaredReads``, given by ``RunGraph``).
    var reads: any WarehouseReading
    let logger: Logger
    let progress: Progress
    /// Where stages put their finished files; the runner moves them all into
    /// place once every stage succeeded.
    var outputs: OutputSet
    /// `--as-of`: the day leaderboards are computed as of; nil for the period's last day.
    var asOf: LocalDate? = nil
    /// The last run published from the warehouse (its period and figures), for
    /// the families that say which of its figures changed; nil for a new warehouse.
    var previousRun: (period: YearMonth, figures: [RunFigure])? = nil
}

/// What a report stage did, for run.json and the terminal summary.
struct ReportOutcome {
    var name: String
    /// Rows refused while building the reports (with file, line and reason).
    var rejects: [Reject] = []
    /// Files written, relative to the out folder.
    var outputs: [RunManifest.Output] = []
    /// Reconciliation checks; a failed one stops the run with exit code 65.
    var checks: [RunManifest.Check] = []
    /// Lines for the terminal summary (text charts welcome).
    var summary: [String] = []
    /// Its headline figures, for run.json and the next run's comparison (``FamilyFigures``).
    var figures: [RunFigure] = []
    /// Keys whose results for a month already published differ now (a couple's opening balances).
    var restated: [RunChanges.Restated] = []
    /// The couples' closing balances, for the warehouse to keep (statements only).
    var closings: [CoupleClosing] = []
    /// The family's kept results as the run leaves them, for the warehouse to keep (``KeyStates``).
    var keyStates: [KeyStateUpdate] = []
    /// Units of work done (couples, challenges, users), for run.json.
    var rows = 0
    var seconds = 0.0
    /// Parts of the stage timed on their own (listed after it in run.json's stages).
    var detailStages: [RunManifest.Stage] = []
}

/// One family of reports (statements, leaderboards, KPIs): reads the
/// warehouse, writes its files through atomic writers, hands each finished
/// file to `context.outputs` (never commits it itself), returns its outcome.
///
/// A stage declares what it reads and how it computes, and knows nothing
/// of threads: the ``Executor`` (``RunGraph``) decides what runs beside it.
protocol ReportStage: Sendable {
    var name: String { get }
    /// How the stage computes: on every core (its partitions in parallel
    /// batches) or on one (the executor runs such stages beside the others).
    var cores: CoreUse { get }
    /// The derived tables the stage reads: it starts once they are rebuilt,
    /// and reading any other through `context.reads` throws
    /// (``TallyWarehouse/UndeclaredDerivedTable``).
    var derivedTables: Set<DerivedTable> { get }
    /// The datasets the family reads: when a file of one of them is refused
    /// with no earlier version loaded, the family keeps its previous reports.
    var datasets: Set<String> { get }
    func run(_ context: ReportContext) throws -> ReportOutcome
}

extension ReportStage {
    var cores: CoreUse { .every }
    var derivedTables: Set<DerivedTable> { [] }
    var datasets: Set<String> { [] }
}

/// The report families of a run, in the order of run.json and the terminal
/// summary: each family is one line of ``standard``; a records family
/// (``TallyCore/RecordsFamily``) joins with one ``register(_:renderer:)``,
/// and both `tally run` and the dataflow then run it.
///
/// ```swift
/// var families = ReportFamilies.standard
/// families.register(ExpensesPerTag(), renderer: ExpensesPerTagCSV())
/// ```
struct ReportFamilies: Sendable {
    /// Every family's `tally run` stage.
    private(set) var all: [any ReportStage]
    /// The records families, for the dataflow.
    private(set) var records: [AnyRecordsFamily] = []

    /// tally's families: one line each.
    static let standard: ReportFamilies = {
        var families = ReportFamilies(all: [
            StatementsStage(),
            LeaderboardsStage(),
            ActivityStage(),
            KPIStage(),
        ])
        // Records families: `families.register(MyFamily(), renderer: MyFamilyCSV())`.
        return families
    }()

    /// Adds a records family and its renderer, after the others.
    mutating func register<Renderer: RecordsFamilyCSV>(_ family: Renderer.Family, renderer: Renderer) {
        let erased = AnyRecordsFamily(RecordsFamilyRun(family: family, renderer: renderer))
        precondition(!all.contains { $0.name == erased.name }, "two report families named \(erased.name)")
        records.append(erased)
        all.append(erased.stage)
    }

    /// The records family named `name`.
    func records(named name: String) -> AnyRecordsFamily? { records.first { $0.name == name } }
}
