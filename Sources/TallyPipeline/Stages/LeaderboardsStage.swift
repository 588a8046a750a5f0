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
        let settings = context.config.leaderboards
        let folder = context.outDirectory.appendingPathComponent("leaderboards")
        context.outputs.ownEntityFiles(in: folder, fileExtension: "txt")   // one <challengeId>.txt per challenge
        let csv = try LeaderboardCSV.layout.writer(in: folder)
        let workbookFile = try AtomicFile(destination: folder.appendingPathComponent("leaderboards.xlsx"))
        let workbook = try LeaderboardsWorkbook(path: workbookFile.temporary.path, locale: context.locale, asOf: asOf)
        let family = LeaderboardsFamily(settings: .init(asOf: asOf, timezone: context.timezone, rules: settings))
        var summary = family.emptySummary()
        context.progress.begin("leaderboards")

        // The workbook is written on a thread of its own, sheet by sheet in challenge order.
        let sheets = OrderedWriter()
        defer { sheets.waitForAll() }
        let book = HandedOver(value: workbook)
        try context.reads.read { reader in
            // Check-ins whose challenge does not exist belong to no partition: they join the family's rejects.
            summary.rejects.merge(RejectList(try reader.unattachedCheckinRejects()))
            // Per challenge, in parallel: the family's computation and the board's text
            // file; in challenge order: the rows written, the sheet queued, the summary merged.
            let locale = context.locale
            let batches = PartitionBatches<ChallengePartition, ChallengeOutcome>(compute: { partition in
                let result = family.compute(partition)
                guard let board = result.rows.board else { return ChallengeOutcome(family: result) }
                // Each text file is written here, on all cores: creating thousands of files is mostly kernel time.
                let text = LeaderboardText.render(board, locale: locale)
                let file = Result { () throws -> HandedOver<AtomicFile> in
                    let txt = try AtomicFile(destination: folder.appendingPathComponent(SafeFileName.stem(for: board.challenge.id) + ".txt"))
                    try txt.write(text.utf8)
                    return HandedOver(value: txt)
                }
                return ChallengeOutcome(family: result, text: file)
            }, consume: { outcome in
                summary.merge(outcome.family.summary)
                guard let board = outcome.family.rows.board else { return }
                for row in LeaderboardCSV.rows(board) { try csv.writeRow(row) }
                try sheets.submit { try book.value.add(board) }
                if let text = outcome.text { context.outputs.add(try text.get().value) }
                context.progress.update("leaderboards", bytes: 0, rows: summary.boards, detail: "challenges")
            })
            try reader.forEachChallenge { try batches.add($0) }
            try batches.flush()
            try sheets.finish()
            try workbook.close()
        }
        try context.outputs.add(csv)
        context.outputs.add(workbookFile)

        let report = family.finalise(summary)
        let boardCount = report.boards
        let outputs: [RunManifest.Output] = [
            .init(path: "leaderboards/leaderboard.csv", rows: csv.rowCount),
            .init(path: "leaderboards/leaderboards.xlsx", rows: nil),
            .init(path: "leaderboards/<challengeId>.txt", rows: boardCount),
        ]
        let checks = [RunManifest.Check(
            name: "leaderboards: points add up to the counted check-ins", passed: report.mismatched.isEmpty,
            detail: report.mismatched.isEmpty ? "\(boardCount) challenges" : "does not add up for \(report.mismatched.prefix(10).joined(separator: ", "))")]
        context.progress.step(["stage": "leaderboards", "challenges": "\(boardCount)",
                               "seconds": String(format: "%.3f", Date().timeIntervalSince(started))])
        return ReportOutcome(name: name, rejects: report.rejects, outputs: outputs, checks: checks,
                             summary: LeaderboardText.terminalSummary(report, asOf: asOf), rows: boardCount, seconds: Date().timeIntervalSince(started))
    }
}

/// What one challenge gave: the family's result and, once the challenge
/// has started, its text file (written, not yet moved into place).
private struct ChallengeOutcome: Sendable {
    var family: PartitionResult<LeaderboardsFamily.Rows, LeaderboardsFamily.Summary>
    var text: Result<HandedOver<AtomicFile>, Error>? = nil
}
