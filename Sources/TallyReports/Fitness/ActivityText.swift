import TallyCore

/// `activity.txt`: a histogram of users' average scores for the month and a
/// sparkline of each user's daily scores (a day without data draws as 0).
public enum ActivityText {
    public static func render(period: YearMonth, summaries: [ActivitySummary], sparklines: [(userId: String, scores: [Double])],
                              locale: ReportLocale) -> String {
        var lines = ["\(locale.fitness(.activityTitle)) — \(locale.formatMonth(period))", "",
                     "\(locale.fitness(.scoreDistribution)) (\(summaries.count) \(locale.fitness(.users).lowercased())):"]
        lines += TextChart.histogram(summaries.map(\.averageScore), bins: 10, range: 0...100).map { "  " + $0 }
        lines += ["", "\(locale.fitness(.dailyScores)) (0–100):"]
        let idWidth = min(sparklines.map { DisplayWidth.of($0.userId) }.max() ?? 0, 28)
        for (userId, scores) in sparklines {
            lines.append("  \(TextChart.pad(TextChart.truncate(userId, idWidth), idWidth)) \(TextChart.sparkline(scores, range: 0...100))")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
