import Foundation
import Logging
import TallyCore
import TallyReports
import TallyWarehouse

/// Challenge leaderboards as of a day (`--as-of`, default the period's last
/// day): for each challenge (the unit of work) apply the check-in rules,
/// rank the counted check-ins, compare with the board `rankChangeDays`
/// earlier, and write every challenge started by then. The snapshots are
/// stored in the warehouse (`leaderboard_snapshot`) in one transaction once
/// every board is written: the check-ins are read on the lane's read
/// connection, so the warehouse's own stays free for the derived tables
/// rebuilt meanwhile (``RunGraph``). (A write transaction
/// storing each board as it goes would hold the warehouse's connection for
/// the whole stage, and a derivation queued behind it would delay the KPIs.)
///
/// The work is spread over threads without changing a byte: challenges are
/// computed (and their text files written) in parallel batches, the workbook
/// is filled on a thread of its own, and the thread reading the warehouse
/// writes the CSV and keeps the boards, all in challenge order.
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
        let csv = try CSVWriter(url: folder.appendingPathComponent("leaderboard.csv"), columns: [
            "challengeId", "groupId", "asOf", "rank", "userId", .text("displayName"), "checkins", "minutes", "rankChange",
            "newcomer", "currentStreak", "bestStreak"])
        let workbookFile = try AtomicFile(destination: folder.appendingPathComponent("leaderboards.xlsx"))
        let workbook = try LeaderboardsWorkbook(path: workbookFile.temporary.path, locale: context.locale, asOf: asOf)
        var rejects: [Reject] = []
        var mismatched: [String] = []
        var counted = 0, boardCount = 0, users = 0
        var biggest: Leaderboard?   // the board with the most users, for the summary
        var boards: [Leaderboard] = []   // stored as snapshots at the end, so every board is held until then
        context.progress.begin("leaderboards")

        // The workbook is written on a thread of its own, sheet by sheet in challenge order.
        let sheets = OrderedWriter()
        defer { sheets.waitForAll() }
        let book = HandedOver(value: workbook)
        try context.reads.read { reader in
            rejects = try reader.unattachedCheckinRejects()
            // Per challenge, in parallel: judge its check-ins, rank them, write its text; the rest in order.
            let minimumMinutes = settings.minimumWorkoutMinutes
            let rankChangeDays = settings.rankChangeDays
            let timezone = context.timezone
            let locale = context.locale
            let batches = PartitionBatches<ChallengePartition, ChallengeOutcome>(compute: { partition in
                let resolution = CheckinResolver.resolve(
                    challenge: partition.challenge, checkins: partition.checkins, memberships: partition.memberships,
                    minimumMinutes: minimumMinutes, timezone: timezone)
                guard partition.challenge.startDate <= asOf else { return ChallengeOutcome(resolution: resolution) }
                let board = LeaderboardBuilder.build(challenge: partition.challenge, counted: resolution.counted,
                                                     asOf: asOf, rankChangeDays: rankChangeDays)
                // Each text file is written here, on all cores: creating thousands of files is mostly kernel time.
                let text = LeaderboardText.render(board, locale: locale)
                let file = Result { () throws -> HandedOver<AtomicFile> in
                    let txt = try AtomicFile(destination: folder.appendingPathComponent(SafeFileName.stem(for: board.challenge.id) + ".txt"))
                    try txt.write(text.utf8)
                    return HandedOver(value: txt)
                }
                return ChallengeOutcome(resolution: resolution, board: board, text: file)
            }, consume: { outcome in
                rejects += outcome.resolution.rejects
                guard let board = outcome.board else { return }
                // Reconciliation: the board's points are the counted check-ins up to the as-of day.
                let expected = outcome.resolution.counted.filter { $0.day <= asOf }.count
                if board.entries.reduce(0, { $0 + $1.checkins }) != expected { mismatched.append(board.challenge.id) }
                counted += expected
                let c = board.challenge
                for e in board.entries {
                    try csv.writeRow([c.id, c.groupId, board.asOf.description, String(e.rank), e.userId, e.displayName,
                                      String(e.checkins), String(e.minutes), e.rankChange.map(String.init) ?? "",
                                      e.isNewcomer ? "true" : "false", String(e.streaks.current), String(e.streaks.best)])
                }
                try sheets.submit { try book.value.add(board) }
                if let text = outcome.text { context.outputs.add(try text.get().value) }
                boards.append(board)
                boardCount += 1
                users += board.entries.count
                if biggest.map({ (board.entries.count, $0.challenge.id) > ($0.entries.count, board.challenge.id) }) ?? true {
                    biggest = board
                }
                context.progress.update("leaderboards", bytes: 0, rows: boardCount, detail: "challenges")
            })
            try reader.forEachChallenge { try batches.add($0) }
            try batches.flush()
            try sheets.finish()
            try workbook.close()
        }
        try context.warehouse.storeLeaderboards(boards)
        try context.outputs.add(csv)
        context.outputs.add(workbookFile)

        let outputs: [RunManifest.Output] = [
            .init(path: "leaderboards/leaderboard.csv", rows: csv.rowCount),
            .init(path: "leaderboards/leaderboards.xlsx", rows: nil),
            .init(path: "leaderboards/<challengeId>.txt", rows: boardCount),
        ]
        let checks = [RunManifest.Check(
            name: "leaderboards: points add up to the counted check-ins", passed: mismatched.isEmpty,
            detail: mismatched.isEmpty ? "\(boardCount) challenges" : "does not add up for \(mismatched.prefix(10).joined(separator: ", "))")]
        // English, whatever the locale: the boards themselves are in leaderboards/.
        var summary = ["leaderboards: \(boardCount) challenges as of \(asOf), \(users) users ranked, \(counted) check-ins counted"]
        if let top = biggest, let leader = top.entries.first {
            summary.append("  largest: \(top.challenge.name) (\(top.entries.count) users), led by \(leader.displayName) "
                           + "with \(leader.checkins) check-ins, \(leader.minutes) min")
        }
        context.progress.step(["stage": "leaderboards", "challenges": "\(boardCount)",
                               "seconds": String(format: "%.3f", Date().timeIntervalSince(started))])
        return ReportOutcome(name: name, rejects: rejects, outputs: outputs, checks: checks, summary: summary,
                             rows: boardCount, seconds: Date().timeIntervalSince(started))
    }
}

/// What one challenge gave: its judged check-ins and, once it has started,
/// its board and its text file (written, not yet moved into place).
private struct ChallengeOutcome: Sendable {
    var resolution: CheckinResolver.Resolution
    var board: Leaderboard?
    var text: Result<HandedOver<AtomicFile>, Error>?
}
