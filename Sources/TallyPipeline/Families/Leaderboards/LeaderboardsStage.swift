import Foundation
import Logging
import TallyCore
import TallyReports
import TallyWarehouse

/// Challenge leaderboards as of a day (`--as-of`, default the period's last
/// day): the family's rules, partitions, merge and finalisation are
/// ``LeaderboardsFamily`` (TallyCore); its renderers ``LeaderboardCSV``,
/// ``LeaderboardsWorkbook`` and ``LeaderboardText`` (TallyReports). The stage
/// only reads the warehouse (on the lane's read connection): a board is a
/// function of the check-ins and the as-of day, so any day's board is
/// rebuilt with `--as-of` rather than stored.
///
/// The work is spread over threads without changing a byte: challenges are
/// computed (and their text files written) in parallel batches, the workbook
/// is filled on a thread of its own, and the thread reading the warehouse
/// writes the CSV, all in challenge order.
///
/// Writes `leaderboards/leaderboard.csv`, `leaderboards.xlsx` and one
/// `<challengeId>.txt` per challenge. Check-ins of every challenge are
/// judged, started or not, so rejects do not depend on the as-of day.
struct LeaderboardsStage: ReportStage {
    let name = "leaderboards"
    let datasets: Set<String> = ["checkins"]
    let derivedTables: Set<DerivedTable> = [.checkinWinners]

    func run(_ context: ReportContext) throws -> ReportOutcome {
        let started = Date()
        let asOf = context.asOf ?? context.period.lastDay
        let keys = LeaderboardsKeys(config: context.config, locale: context.locale, asOf: asOf, timezone: context.timezone)
        let output = try LeaderboardsOutput(outDirectory: context.outDirectory, locale: context.locale, asOf: asOf,
                                            pointsRule: keys.pointsRule, outputs: context.outputs)
        context.progress.begin("leaderboards")

        // The workbook is written on a thread of its own, sheet by sheet in challenge order.
        let sheets = OrderedWriter()
        defer { sheets.waitForAll() }
        let book = HandedOver(value: output.workbook)
        let folder = output.folder
        try context.reads.read { reader in
            // Per challenge key, in parallel: the family's computation and the board's text
            // file (creating thousands of files is mostly kernel time, so on all cores);
            // in challenge order: the rows written, the sheet queued, the summary merged.
            let batches = PartitionBatches<ChallengeRows, Result<LeaderboardsKeys.Outcome, Error>>(rows: \.rowCount, compute: { rows in
                Result { try keys.compute(rows, folder: folder) }
            }, consume: { computed in
                let outcome = try computed.get()
                guard let result = outcome.result else { return output.merge(outcome.unattached) }
                try output.add(result, text: outcome.text?.value) { board in
                    try sheets.submit { try book.value.add(board) }
                }
                context.progress.update("leaderboards", bytes: 0, rows: output.summary.boards, detail: "challenges")
            })
            try reader.forEachChallengeKey { try batches.add($0) }
            try batches.flush()
            try sheets.finish()
        }
        let outcome = try output.finish(keys.family, started: started)
        context.progress.step(["stage": "leaderboards", "challenges": "\(outcome.rows)",
                               "seconds": String(format: "%.3f", Date().timeIntervalSince(started))])
        return outcome
    }
}
