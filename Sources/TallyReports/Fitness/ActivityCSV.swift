import TallyCore

/// The activity family's CSVs: `scores.csv` (a row per user-day: steps
/// whole, kcal up to 1 decimal, km up to 2, score 1) and `summary.csv` (a
/// row per user: avgScore and bestScore 1 decimal), users in id order.
///
/// ```swift
/// for day in days { try scores.writeRow(ActivityCSV.scoreRow(day)) }
/// try summaries.writeRow(ActivityCSV.summaryRow(summary, period: period))
/// ```
public enum ActivityCSV {
    public static let scores = CSVLayout("scores.csv", ["userId", "date", "steps", "activeCalories", "walkingDistanceKm", "score"])
    public static let summary = CSVLayout("summary.csv", ["userId", "period", "days", "avgScore", "bestScore", "daysAt10kSteps"])

    public static func scoreRow(_ day: DailyActivity) -> [String] {
        [day.userId, day.date.description, CSVNumber.trimmed(day.steps), CSVNumber.trimmed(day.activeCalories),
         CSVNumber.trimmed(day.walkingDistanceKm), ActivityScore.format(day.score, decimals: 1)]
    }

    public static func summaryRow(_ s: ActivitySummary, period: YearMonth) -> [String] {
        [s.userId, period.description, String(s.days), ActivityScore.format(s.averageScore, decimals: 1),
         ActivityScore.format(s.bestScore, decimals: 1), String(s.daysAt10kSteps)]
    }
}
