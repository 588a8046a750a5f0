import Foundation
import TallyCore
import TallyReports

/// The activity family's files, written from its partition results in user
/// (key) order, wherever they were computed (``ActivityStage`` from the
/// warehouse, or a dataflow schedule): `activity/scores.csv`,
/// `summary.csv`, `activity.xlsx` and `activity.txt`.
///
/// ```swift
/// let output = try ActivityOutput(outDirectory: out, locale: locale, period: period,
///                                  minimumDays: config.activity.minimumDaysRanked, outputs: outputs)
/// for result in resultsInUserOrder { try output.add(result) }
/// let outcome = try output.finish(family, started: started)
/// ```
final class ActivityOutput {
    private let period: YearMonth
    private let locale: ReportLocale
    /// Users with fewer days of data are not ranked in the workbook and the text.
    private let minimumDays: Int
    private let outputs: OutputSet
    private let folder: URL
    private let scores: CSVWriter
    private let summaries: CSVWriter
    private let workbookFile: AtomicFile
    private let workbook: ActivityWorkbook
    /// Every partition's summary merged.
    private(set) var summary = ActivityFamily.Summary()

    init(outDirectory: URL, locale: ReportLocale, period: YearMonth, minimumDays: Int, outputs: OutputSet) throws {
        self.period = period
        self.locale = locale
        self.minimumDays = minimumDays
        self.outputs = outputs
        folder = outDirectory.appendingPathComponent("activity")
        scores = try ActivityCSV.scores.writer(in: folder)
        summaries = try ActivityCSV.summary.writer(in: folder)
        workbookFile = try AtomicFile(destination: folder.appendingPathComponent("activity.xlsx"))
        workbook = try ActivityWorkbook(path: workbookFile.temporary.path, locale: locale, period: period, minimumDays: minimumDays)
    }

    /// Writes one user's rows (score lines, summary line, workbook rows) and merges its summary.
    func add(_ result: PartitionResult<ActivityFamily.Rows, ActivityFamily.Summary>) throws {
        for day in result.rows.days { try scores.writeRow(ActivityCSV.scoreRow(day)) }
        try summaries.writeRow(ActivityCSV.summaryRow(result.rows.summary, period: period))
        try workbook.add(result.rows.summary, days: result.rows.days)
        summary.merge(result.summary)
    }

    /// Closes the workbook, writes the text chart, hands every file to the
    /// output set and returns the family's outcome.
    func finish(_ family: ActivityFamily, started: Date) throws -> ReportOutcome {
        try workbook.close()
        let report = family.finalise(summary)
        let text = ActivityText.render(period: period, summaries: report.users, sparklines: workbook.trend, locale: locale,
                                       minimumDays: minimumDays)
        let txt = try AtomicFile(destination: folder.appendingPathComponent("activity.txt"))
        try txt.write(text.utf8)
        try outputs.add(scores)
        try outputs.add(summaries)
        outputs.add(workbookFile)
        outputs.add(txt)
        let files: [RunManifest.Output] = [
            .init(path: "activity/activity.txt", rows: nil),
            .init(path: "activity/activity.xlsx", rows: nil),
            .init(path: "activity/scores.csv", rows: scores.rowCount),
            .init(path: "activity/summary.csv", rows: summaries.rowCount),
        ]
        return ReportOutcome(name: family.name, outputs: files, summary: ActivityText.terminalSummary(report, period: period),
                             figures: FamilyFigures.activity(report, period: period), rows: report.users.count, seconds: Date().timeIntervalSince(started))
    }
}
