import Foundation
import Logging
import TallyCore
import TallyReports
import TallyWarehouse

/// Daily activity scores for the period month: the family's partitions,
/// rules, merge and finalisation are ``ActivityFamily`` (TallyCore); its
/// renderers ``ActivityCSV``, ``ActivityWorkbook`` and ``ActivityText``
/// (TallyReports).
///
/// Writes `activity/scores.csv` (steps whole, kcal 1 decimal, km 2, score
/// 1), `activity/summary.csv` (avgScore and bestScore 1 decimal),
/// `activity/activity.xlsx` and `activity/activity.txt` (a histogram of
/// users' average scores, then the users ranked by average score, each with
/// a sparkline over the month's days where a day without data is a gap).
struct ActivityStage: ReportStage {
    let name = "activity"
    let datasets: Set<String> = ["health"]
    let derivedTables: Set<DerivedTable> = [.activityRepeats]
    let cores = CoreUse.one

    func run(_ context: ReportContext) throws -> ReportOutcome {
        let started = Date()
        let period = context.period
        let folder = context.outDirectory.appendingPathComponent("activity")
        let scores = try ActivityCSV.scores.writer(in: folder)
        let summaries = try ActivityCSV.summary.writer(in: folder)
        let workbookFile = try AtomicFile(destination: folder.appendingPathComponent("activity.xlsx"))
        let workbook = try ActivityWorkbook(path: workbookFile.temporary.path, locale: context.locale, period: period)
        let family = ActivityFamily()
        var summary = family.emptySummary()
        context.progress.begin("activity")

        // Per user, in id order: the family's computation, the rows written, the summary merged.
        try context.reads.read { reader in
            try reader.forEachActivityUser(in: period.firstDay...period.lastDay) { userId, days in
                let result = family.compute(.init(userId: userId, days: days))
                for day in result.rows.days { try scores.writeRow(ActivityCSV.scoreRow(day)) }
                try summaries.writeRow(ActivityCSV.summaryRow(result.rows.summary, period: period))
                try workbook.add(result.rows.summary, days: result.rows.days)
                summary.merge(result.summary)
                context.progress.update("activity", bytes: 0, rows: summary.users.count, detail: "users")
            }
        }
        try workbook.close()
        let report = family.finalise(summary)
        let text = ActivityText.render(period: period, summaries: report.users, sparklines: workbook.trend, locale: context.locale)
        let txt = try AtomicFile(destination: folder.appendingPathComponent("activity.txt"))
        try txt.write(text.utf8)
        try context.outputs.add(scores)
        try context.outputs.add(summaries)
        context.outputs.add(workbookFile)
        context.outputs.add(txt)

        let outputs: [RunManifest.Output] = [
            .init(path: "activity/activity.txt", rows: nil),
            .init(path: "activity/activity.xlsx", rows: nil),
            .init(path: "activity/scores.csv", rows: scores.rowCount),
            .init(path: "activity/summary.csv", rows: summaries.rowCount),
        ]
        context.progress.step(["stage": "activity", "users": "\(report.users.count)",
                               "seconds": String(format: "%.3f", Date().timeIntervalSince(started))])
        return ReportOutcome(name: name, outputs: outputs, summary: ActivityText.terminalSummary(report, period: period),
                             rows: report.users.count, seconds: Date().timeIntervalSince(started))
    }
}
