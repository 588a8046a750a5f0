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
/// users' average scores and a sparkline per user over the month's days).
struct ActivityStage: ReportStage {
    let name = "activity"
    let readsOnOneCore = true

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
        var sparklines: [(userId: String, scores: [Double])] = []
        let first = period.firstDay.daysSinceEpoch
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
                var line = [Double](repeating: 0, count: period.dayCount)
                for day in days { line[Int(day.date.daysSinceEpoch - first)] = day.score }
                userSummaries.append(summary)
                sparklines.append((userId, line))
                context.progress.update("activity", bytes: 0, rows: userSummaries.count, detail: "users")
            }
        }
        try workbook.close()
        let text = ActivityText.render(period: period, summaries: userSummaries, sparklines: sparklines, locale: context.locale)
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
            summary += ["", "average activity score per user (0–100):"]
            summary += TextChart.histogram(userSummaries.map(\.averageScore), bins: 10, range: 0...100, width: 24).map { "  " + $0 }
        }
        context.progress.step(["stage": "activity", "users": "\(userSummaries.count)",
                               "seconds": String(format: "%.3f", Date().timeIntervalSince(started))])
        return ReportOutcome(name: name, outputs: outputs, summary: summary, rows: userSummaries.count,
                             seconds: Date().timeIntervalSince(started))
    }
}
