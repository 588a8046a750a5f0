import Foundation
import TallyCore
import TallyReports
import TallyWarehouse

/// The statements family's files, written from its partition results in
/// couple (key) order, wherever they were computed: `tally run` computes
/// them from the warehouse on every core (``StatementsStage``), a dataflow
/// schedule from routed records (``Dataflow``). Both write through this
/// one type, so their files cannot differ by layout.
///
/// Writes `statements/balances.csv`, `transfers.csv`, `categories.csv`,
/// `categories_by_member.csv`, `statements.xlsx` and one `<coupleId>.txt`
/// per couple; the couple workbooks (`<coupleId>.xlsx`) come in written.
///
/// ```swift
/// let output = try StatementsOutput(outDirectory: out, locale: locale, categories: config.categoryLabels(locale),
///                                   period: period, outputs: outputs, coupleWorkbooks: false)
/// for result in resultsInCoupleOrder { try output.add(result) }
/// let outcome = try output.finish(family, started: started)
/// ```
final class StatementsOutput {
    private let period: YearMonth
    private let locale: ReportLocale
    private let categories: CategoryLabels
    private let outputs: OutputSet
    private let folder: URL
    private let csv: StatementsCSV
    private let workbookFile: AtomicFile
    private let workbook: StatementsWorkbook
    private let coupleWorkbooks: Bool
    /// Every partition's summary merged, with what was merged in apart (``merge(_:)``).
    private(set) var summary = StatementsFamily.Summary()
    private var textFiles = 0
    /// Couple workbooks written, and their writing time summed over the computing threads.
    private(set) var workbooks = 0
    private(set) var workbookSeconds = 0.0

    /// Creates the family's writers; with `coupleWorkbooks`, ``add(_:text:workbook:workbookSeconds:)``
    /// is handed each couple's workbook.
    init(outDirectory: URL, locale: ReportLocale, categories: CategoryLabels, period: YearMonth, outputs: OutputSet,
         coupleWorkbooks: Bool) throws {
        self.period = period
        self.locale = locale
        self.categories = categories
        self.outputs = outputs
        self.coupleWorkbooks = coupleWorkbooks
        folder = CoupleStatementFiles.folder(in: outDirectory)
        // One <coupleId>.txt and (when on) .xlsx per couple; statements.xlsx is written every run.
        outputs.ownEntityFiles(in: folder, fileExtension: "txt")
        outputs.ownEntityFiles(in: folder, fileExtension: "xlsx")
        csv = try StatementsCSV(folder: folder)
        workbookFile = try AtomicFile(destination: folder.appendingPathComponent("statements.xlsx"))
        workbook = try StatementsWorkbook(path: workbookFile.temporary.path, locale: locale, categories: categories, period: period)
    }

    /// Every member's closing balance, in couple order, for the warehouse to keep.
    private(set) var closings: [CoupleClosing] = []
    /// The members' closing balances of the month before that differ from
    /// those published (``RestatedOpening``), in couple order.
    private(set) var restatements: [RunChanges.Restated] = []

    /// The couples written so far.
    var couples: Int { summary.totals.couples }

    /// Writes one couple's rows: its lines of the CSVs and the overview, its
    /// text file (written already, or rendered and written here), and its
    /// workbook when given; merges its summary. Couples come in key order.
    func add(_ result: PartitionResult<StatementsFamily.Rows, StatementsFamily.Summary>,
             textFile: AtomicFile? = nil, workbook coupleWorkbook: AtomicFile? = nil, workbookSeconds seconds: Double = 0) throws {
        let statement = result.rows.statement
        if let coupleWorkbook {
            outputs.add(coupleWorkbook)
            workbooks += 1
            workbookSeconds += seconds
        }
        try csv.add(statement, period: period)
        try workbook.add(statement)
        if let textFile {
            outputs.add(textFile)
        } else {
            let rendered = StatementText.renderUTF8(statement, locale: locale, categories: categories)
            outputs.add(try CoupleStatementFiles.text(statement, rendered: rendered, folder: folder.path, folderExists: true))
        }
        textFiles += 1
        summary.merge(result.summary)
        for balance in statement.balances {
            closings.append(CoupleClosing(coupleId: statement.couple.id, memberId: balance.memberId, closing: balance.closing))
        }
        if let restated = statement.restated {
            let currency = statement.couple.currency
            for b in restated.balances where b.difference != 0 {
                restatements.append(RunChanges.Restated(
                    family: "statements", name: "closing balance \(b.memberId)", month: restated.month.description,
                    unit: currency.code, published: Money.plain(b.published, currency), now: Money.plain(b.now, currency),
                    change: (b.difference > 0 ? "+" : "") + Money.plain(b.difference, currency), key: statement.couple.id))
            }
        }
    }

    /// Writes one couple's rows whose own files a dataflow worker wrote into
    /// `staging` (``FlowPlan/staging(_:)``): they are taken from there.
    func add(_ result: PartitionResult<StatementsFamily.Rows, StatementsFamily.Summary>, stagedIn staging: URL) throws {
        let stem = CoupleFileName.stem(for: result.rows.statement.couple.id)
        func adopt(_ name: String) throws -> AtomicFile {
            let file = try AtomicFile(destination: folder.appendingPathComponent(name, isDirectory: false))
            try file.adopt(staging.appendingPathComponent(name, isDirectory: false))
            return file
        }
        try add(result, textFile: try adopt(stem + ".txt"),
                workbook: coupleWorkbooks ? try adopt(stem + ".xlsx") : nil)
    }

    /// Merges a summary that belongs to no couple (the rejects of rows whose couple does not exist).
    func merge(_ other: StatementsFamily.Summary) { summary.merge(other) }

    /// Closes the overview, hands every file to the output set and returns
    /// the family's outcome: its rejects, checks, outputs and terminal summary.
    func finish(_ family: StatementsFamily, started: Date) throws -> ReportOutcome {
        do {
            try workbook.close()
        } catch {
            throw OutputError("cannot write \(workbookFile.destination.path): \(error)")
        }
        for writer in csv.writers { try outputs.add(writer) }
        outputs.add(workbookFile)
        let report = family.finalise(summary)
        let couples = report.totals.couples
        let files: [RunManifest.Output] = [
            .init(path: "statements/balances.csv", rows: csv.balances.rowCount),
            .init(path: "statements/categories.csv", rows: csv.categories.rowCount),
            .init(path: "statements/categories_by_member.csv", rows: csv.byMember.rowCount),
            .init(path: "statements/statements.xlsx", rows: nil),
            .init(path: "statements/transfers.csv", rows: csv.transfers.rowCount),
            .init(path: "statements/<coupleId>.txt", rows: textFiles),
        ] + (coupleWorkbooks ? [.init(path: "statements/<coupleId>.xlsx", rows: workbooks)] : [])
        var details: [RunManifest.Stage] = []
        // The workbooks' cost is their writing time summed over the computing threads.
        if coupleWorkbooks {
            details.append(.init(name: "statements: couple workbooks (thread time)", seconds: workbookSeconds, rows: workbooks))
        }
        return ReportOutcome(name: family.name, rejects: report.rejects, outputs: files,
                             checks: [Reconciliation.couplesCheck(report.problems, couples: couples)],
                             summary: StatementsSummary.lines(report.totals),
                             figures: FamilyFigures.statements(report.totals, period: period),
                             restated: restatements, closings: closings, rows: couples,
                             seconds: Date().timeIntervalSince(started), detailStages: details)
    }
}
