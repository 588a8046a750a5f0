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
        var update: KeyStateUpdate?
        var reused = 0
        try context.reads.read { reader in
            // A settled board kept by an earlier run is taken as kept, its check-ins left unread (KeptBoards).
            let kept = try KeptBoards(reader, settings: keys.family.settings, config: context.config)
            var keptKeys = Set<String>()
            var written: [String: KeyStateSet.State] = [:]
            // Per challenge key, in parallel: the family's computation and the board's text
            // file (creating thousands of files is mostly kernel time, so on all cores);
            // in challenge order: the rows written, the sheet queued, the summary merged.
            let batches = PartitionBatches<ChallengeWork, Result<(LeaderboardsKeys.Outcome, KeptBoards.Keyed), Error>>(
                rows: \.rows.rowCount, compute: { work in
                    Result {
                        var keyed = kept.result(work.rows, taken: work.taken, family: keys.family)
                        let outcome = try keys.outcome(of: keyed.result, folder: folder)
                        keyed.result = .init(board: nil, unattached: .init())   // written: not held while it waits
                        return (outcome, keyed)
                    }
                }, consume: { computed in
                    let (outcome, keyed) = try computed.get()
                    if keyed.kept { keptKeys.insert(keyed.key) }
                    if let state = keyed.written { written[keyed.key] = state }
                    if keyed.reused { reused += 1 }
                    guard let result = outcome.result else { return output.merge(outcome.unattached) }
                    try output.add(result, text: outcome.text?.value) { board in
                        try sheets.submit { try book.value.add(board) }
                    }
                    context.progress.update("leaderboards", bytes: 0, rows: output.summary.boards, detail: "challenges")
                })
            try reader.forEachChallengeKey(selection: kept.selection) { rows, taken in
                try batches.add(ChallengeWork(rows: rows, taken: taken))
            }
            try batches.flush()
            try sheets.finish()
            update = kept.update(kept: keptKeys, written: written)
        }
        var outcome = try output.finish(keys.family, started: started)
        outcome.keyStates = update.map { [$0] } ?? []
        context.progress.step(["stage": "leaderboards", "challenges": "\(outcome.rows)", "kept": "\(reused)",
                               "seconds": String(format: "%.3f", Date().timeIntervalSince(started))])
        return outcome
    }
}

/// One challenge key as the warehouse's scan hands it over: its rows, and
/// the kept result taken instead of its check-ins, if any (``KeptBoards``).
struct ChallengeWork: Sendable {
    var rows: ChallengeRows
    var taken: LeaderboardsFamily.KeyResult?
}
