import TallyCore

/// `activity.txt`: a histogram of users' average scores for the month, then
/// the users ranked by average score (``ActivityRanking``), each with a
/// sparkline of the month's daily scores on the 0–100 scale, where a day
/// without data is a gap (`·`), never a low score.
public enum ActivityText {
    public static func render(period: YearMonth, summaries: [ActivitySummary], sparklines: [String: [Double?]],
                              locale: ReportLocale) -> String {
        var lines = ["\(locale.fitness(.activityTitle)) — \(locale.formatMonth(period))", "",
                     "\(locale.fitness(.scoreDistribution)) (\(summaries.count) \(locale.fitness(.users).lowercased())):"]
        lines += TextChart.histogram(summaries.map(\.averageScore), bins: 10, range: 0...100).map { "  " + $0 }
        lines += ["", "\(locale.fitness(.dailyScores)) (0–100, \(TextChart.gap) = \(locale.fitness(.noData))):"]
        let ranked = ActivityRanking.rank(summaries)
        let rankWidth = String(ranked.last?.rank ?? 1).count
        let idWidth = min(ranked.map { DisplayWidth.of($0.summary.userId) }.max() ?? 0, 28)
        for item in ranked {
            let id = TextChart.pad(TextChart.truncate(item.summary.userId, idWidth), idWidth)
            let average = TextChart.padLeft(ActivityScore.format(item.summary.averageScore, decimals: 1), 5)
            let line = TextChart.sparkline(sparklines[item.summary.userId] ?? [], range: 0...100)
            lines.append("  \(TextChart.padLeft(String(item.rank), rankWidth)). \(id) \(average) \(line)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The activity's line of the terminal summary (English, whatever the locale).
    public static func terminalSummary(_ report: ActivityFamily.Report, period: YearMonth) -> [String] {
        var line = "activity: \(report.users.count) users, \(report.userDays) user-days in \(period)"
        if let mean = report.meanOfAverages, let best = report.bestAverage {
            line += "; average score \(ActivityScore.format(mean, decimals: 1)) (0–100), best user \(ActivityScore.format(best, decimals: 1))"
        }
        return [line]
    }
}
