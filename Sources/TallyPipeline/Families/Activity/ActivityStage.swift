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
        let output = try ActivityOutput(outDirectory: context.outDirectory, locale: context.locale, period: period,
                                        minimumDays: context.config.activity.minimumDaysRanked, outputs: context.outputs)
        let keys = ActivityKeys()
        context.progress.begin("activity")

        // Per user, in id order: the family's computation, the rows written, the summary merged.
        try context.reads.read { reader in
            try reader.forEachActivityUser(in: ActivityFamily.window(period)) { userId, days in
                try output.add(keys.compute(userId: userId, days: days))
                context.progress.update("activity", bytes: 0, rows: output.summary.users.count, detail: "users")
            }
        }
        let outcome = try output.finish(keys.family, started: started)
        context.progress.step(["stage": "activity", "users": "\(outcome.rows)",
                               "seconds": String(format: "%.3f", Date().timeIntervalSince(started))])
        return outcome
    }
}
