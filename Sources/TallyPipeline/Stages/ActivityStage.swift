import Foundation
import Logging
import TallyCore
import TallyReports
import TallyWarehouse

/// Daily activity scores for the period month: per user (the unit of work)
/// the winning day rows of the month, each day's score, and the month's
/// summary.
///
/// Writes `activity/scores.csv` (steps whole, kcal 1 decimal, km 2, score
/// 1), `activity/summary.csv` (avgScore and bestScore 1 decimal),
/// `activity/activity.xlsx` and `activity/activity.txt` (a histogram of
/// users' average scores, then the users ranked by average score, each with
/// a sparkline over the month's days where a day without data is a gap).
struct ActivityStage: ReportStage {
    let name = "activity"
    let datasets: Set<String> = ["health"]
    let cores = CoreUse.one

    func run(_ context: ReportContext) throws -> ReportOutcome {
        let started = Date()
        let period = context.period
        let p = period.description
        let folder = context.outDirectory.appendingPathComponent("activity")
        let scores = try CSVWriter(url: folder.appendingPathComponent("scores.csv"), columns: [
            "userId", "date", "steps", "activeCalories", "walkingDistanceKm", "score"])
        let summaries = try CSVWriter(url: folder.appendingPathComponent("summary.csv"), columns: [
            "userId", "period", "days", "avgScore", "bestScore", "daysAt10kSteps"])
        let workbookFile = try AtomicFile(destination: folder.appendingPathComponent("activity.xlsx"))
        let workbook = try ActivityWorkbook(path: workbookFile.temporary.path, locale: context.locale, period: period)
        var userSummaries: [ActivitySummary] = []
        context.progress.begin("activity")

        try context.reads.read { reader in
            try reader.forEachActivityUser(in: period.firstDay...period.lastDay) { userId, days in
                for day in days {
                    try scores.writeRow([userId, day.date.description,
                                         CSVNumber.trimmed(day.steps),
                                         CSVNumber.trimmed(day.activeCalories),
                                         CSVNumber.trimmed(day.walkingDistanceKm),
                                         ActivityScore.format(day.score, decimals: 1)])
                }
                let summary = ActivitySummary(userId: userId, days: days)
                try summaries.writeRow([userId, p, String(summary.days), ActivityScore.format(summary.averageScore, decimals: 1),
                                        ActivityScore.format(summary.bestScore, decimals: 1), String(summary.daysAt10kSteps)])
                try workbook.add(summary, days: days)
                userSummaries.append(summary)
                context.progress.update("activity", bytes: 0, rows: userSummaries.count, detail: "users")
            }
        }
        try workbook.close()
        let text = ActivityText.render(period: period, summaries: userSummaries, sparklines: workbook.trend, locale: context.locale)
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
        var summary = ["activity: \(userSummaries.count) users, \(scores.rowCount) user-days in \(p)"]
        if !userSummaries.isEmpty {
            let averages = userSummaries.map(\.averageScore)
            summary[0] += "; average score \(ActivityScore.format(averages.reduce(0, +) / Double(averages.count), decimals: 1))"
                + " (0–100), best user \(ActivityScore.format(averages.max() ?? 0, decimals: 1))"
        }
        context.progress.step(["stage": "activity", "users": "\(userSummaries.count)",
                               "seconds": String(format: "%.3f", Date().timeIntervalSince(started))])
        return ReportOutcome(name: name, outputs: outputs, summary: summary, rows: userSummaries.count,
                             seconds: Date().timeIntervalSince(started))
    }
}
