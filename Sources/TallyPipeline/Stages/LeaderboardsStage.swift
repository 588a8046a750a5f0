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
        let output = try LeaderboardsOutput(outDirectory: context.outDirectory, locale: context.locale, asOf: asOf,
                                            pointsRule: PointsRule(context.config.leaderboards), outputs: context.outputs)
        let family = LeaderboardsFamily(settings: .init(asOf: asOf, timezone: context.timezone, rules: context.config.leaderboards))
        context.progress.begin("leaderboards")

        // The workbook is written on a thread of its own, sheet by sheet in challenge order.
        let sheets = OrderedWriter()
        defer { sheets.waitForAll() }
        let book = HandedOver(value: output.workbook)
        let (folder, locale, pointsRule) = (output.folder, context.locale, output.pointsRule)
        try context.reads.read { reader in
            // Per challenge key, in parallel: the family's computation and the board's text
            // file; in challenge order: the rows written, the sheet queued, the summary merged.
            let batches = PartitionBatches<ChallengeRows, ChallengeOutcome>(compute: { rows in
                let computed = family.compute(key: rows)
                // Check-ins whose challenge does not exist join the family's rejects.
                guard var result = computed.board else { return ChallengeOutcome(unattached: computed.unattached) }
                result.summary.merge(computed.unattached)
                guard let board = result.rows.board else { return ChallengeOutcome(family: result) }
                // Each text file is written here, on all cores: creating thousands of files is mostly kernel time.
                let file = Result { HandedOver(value: try LeaderboardsOutput.textFile(board, locale: locale, pointsRule: pointsRule, folder: folder)) }
                return ChallengeOutcome(family: result, text: file)
            }, consume: { outcome in
                guard let result = outcome.family else { return output.merge(outcome.unattached) }
                try output.add(result, text: try outcome.text?.get().value) { board in
                    try sheets.submit { try book.value.add(board) }
                }
                context.progress.update("leaderboards", bytes: 0, rows: output.summary.boards, detail: "challenges")
            })
            try reader.forEachChallengeKey { try batches.add($0) }
            try batches.flush()
            try sheets.finish()
        }
        let outcome = try output.finish(family, started: started)
        context.progress.step(["stage": "leaderboards", "challenges": "\(outcome.rows)",
                               "seconds": String(format: "%.3f", Date().timeIntervalSince(started))])
        return outcome
    }
}

/// What one challenge gave: the family's result and, once the challenge
/// has started, its text file (written, not yet moved into place).
private struct ChallengeOutcome: Sendable {
    /// The challenge's result; nil for a key no challenge has.
    var family: PartitionResult<LeaderboardsFamily.Rows, LeaderboardsFamily.Summary>?
    /// The rejects of a key no challenge has.
    var unattached = LeaderboardsFamily.Summary()
    var text: Result<HandedOver<AtomicFile>, Error>? = nil
}
