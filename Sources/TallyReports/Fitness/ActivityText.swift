import TallyCore

/// `activity.txt`: the score's formula, a histogram of users' average
/// scores for the month, then the users ranked by average score
/// (``ActivityRanking/standing(_:minimumDays:)``) under the ranking rule,
/// each shown by a short id (``ShortIds``: health data carries no names)
/// with a sparkline of the month's daily scores on the 0–100 scale, where a
/// day without data is a gap (`·`), never a low score; then the users with
/// fewer than `minimumDays` days of data, not ranked, each saying so.
///
/// ```swift
/// ActivityText.render(period: period, summaries: report.users, sparklines: trend, locale: .ptBR, minimumDays: 7)
/// ```
public enum ActivityText {
    /// The width (characters) the notes are broken at.
    static let noteWidth = 100

    public static func render(period: YearMonth, summaries: [ActivitySummary], sparklines: [String: [Double?]],
                              locale: ReportLocale, minimumDays: Int) -> String {
        var lines = ["\(locale.fitness(.activityTitle)) — \(locale.formatMonth(period))", ""]
        lines += XLSXWorksheet.lines(locale.activityScoreFormula, width: noteWidth)
        lines += ["", "\(locale.fitness(.scoreDistribution)) (\(summaries.count) \(locale.fitness(.users).lowercased())):"]
        lines += TextChart.histogram(summaries.map(\.averageScore), bins: 10, range: 0...100).map { "  " + $0 }
        lines.append("")
        lines += XLSXWorksheet.lines(locale.activityRankingRule(minimumDays: minimumDays), width: noteWidth)
        lines.append("\(locale.fitness(.dailyScores)) (0–100, \(TextChart.gap) = \(locale.fitness(.noData))):")
        let standing = ActivityRanking.standing(summaries, minimumDays: minimumDays)
        let shortIds = ShortIds.shown(standing.ranked.map(\.summary.userId) + standing.unranked.map(\.userId))
        let idWidth = shortIds.map { DisplayWidth.of($0) }.max() ?? 0
        let rankWidth = String(standing.ranked.last?.rank ?? 1).count
        func line(_ summary: ActivitySummary, _ shortId: String) -> String {
            let average = TextChart.padLeft(ActivityScore.format(summary.averageScore, decimals: 1), 5)
            return "\(TextChart.pad(shortId, idWidth)) \(average) \(TextChart.sparkline(sparklines[summary.userId] ?? [], range: 0...100))"
        }
        for (item, shortId) in zip(standing.ranked, shortIds) {
            lines.append("  \(TextChart.padLeft(String(item.rank), rankWidth)). \(line(item.summary, shortId))")
        }
        if !standing.unranked.isEmpty {
            lines += ["", "\(locale.notRankedHeading(minimum: minimumDays)):"]
            for (summary, shortId) in zip(standing.unranked, shortIds.dropFirst(standing.ranked.count)) {
                lines.append("  \(String(repeating: " ", count: rankWidth))  \(line(summary, shortId)) "
                             + "(\(locale.notRanked(days: summary.days, minimum: minimumDays)))")
            }
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
