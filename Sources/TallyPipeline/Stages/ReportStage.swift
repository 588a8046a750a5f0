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
    /// The warehouse, read in a snapshot with `read`.
    let warehouse: Warehouse
    /// Where a stage that only reads reads from: the warehouse, or a
    /// connection of its own when it runs beside other stages (``ReportLanes``).
    var reads: any WarehouseReading
    let logger: Logger
    let progress: Progress
    /// Where stages put their finished files; the runner moves them all into
    /// place once every stage succeeded.
    var outputs: OutputSet
    /// `--as-of`: the day leaderboards are computed as of; nil for the period's last day.
    var asOf: LocalDate? = nil
    /// When the derived tables are still being rebuilt beside the reports:
    /// what a stage waits on for those it reads (``ReportStage/derivedTables``).
    var derived: DerivedTablesGate? = nil
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
    /// Units of work done (couples, challenges, users), for run.json.
    var rows = 0
    var seconds = 0.0
    /// Parts of the stage timed on their own (listed after it in run.json's stages).
    var detailStages: [RunManifest.Stage] = []
}

/// One family of reports (statements, leaderboards, KPIs): reads the
/// warehouse, writes its files through atomic writers, hands each finished
/// file to `context.outputs` (never commits it itself), returns its outcome.
protocol ReportStage: Sendable {
    var name: String { get }
    /// Whether the stage computes on one thread and only reads the
    /// warehouse (through `context.reads`): such stages run beside the others
    /// (``ReportLanes``).
    var readsOnOneCore: Bool { get }
    /// The derived tables the stage reads: it starts once they are rebuilt
    /// (``DerivedTablesGate``).
    var derivedTables: Set<DerivedTable> { get }
    /// The datasets the family reads: when a file of one of them is refused
    /// with no earlier version loaded, the family keeps its previous reports.
    var datasets: Set<String> { get }
    func run(_ context: ReportContext) throws -> ReportOutcome
}

extension ReportStage {
    var readsOnOneCore: Bool { false }
    var derivedTables: Set<DerivedTable> { [] }
    var datasets: Set<String> { [] }
}

/// Every report family, in the order of run.json and the terminal summary.
/// A family adds itself here once.
enum ReportStages {
    static let all: [any ReportStage] = [StatementsStage(), LeaderboardsStage(), ActivityStage(), KPIStage()]
}
