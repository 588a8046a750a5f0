import Foundation
import TallyCore
import TallyReports

/// The leaderboards family's files, written from its partition results in
/// challenge (key) order, wherever they were computed (``LeaderboardsStage``
/// from the warehouse, or a dataflow schedule): `leaderboards/leaderboard.csv`,
/// `leaderboards.xlsx` and one `<challengeId>.txt` per started challenge.
///
/// ```swift
/// let output = try LeaderboardsOutput(outDirectory: out, locale: locale, asOf: asOf,
///                                      pointsRule: PointsRule(config.leaderboards), outputs: outputs)
/// for outcome in outcomesInChallengeOrder { try output.add(outcome.result, text: outcome.text?.value) }
/// let outcome = try output.finish(family, started: started)
/// ```
final class LeaderboardsOutput {
    let folder: URL
    let asOf: LocalDate
    private let locale: ReportLocale
    /// What earns a point, explained in the workbook and the text files.
    let pointsRule: PointsRule
    private let outputs: OutputSet
    private let csv: CSVWriter
    private let workbookFile: AtomicFile
    /// The overview workbook: one sheet per board, in challenge order.
    let workbook: LeaderboardsWorkbook
    /// Every partition's summary merged, with what was merged in apart.
    private(set) var summary = LeaderboardsFamily.Summary()
    /// Boards that became final in the as-of day's month (``FamilyFigures/finishedInMonth(_:)``).
    private var finished = 0

    init(outDirectory: URL, locale: ReportLocale, asOf: LocalDate, pointsRule: PointsRule, outputs: OutputSet) throws {
        self.asOf = asOf
        self.locale = locale
        self.pointsRule = pointsRule
        self.outputs = outputs
        folder = outDirectory.appendingPathComponent("leaderboards")
        outputs.ownEntityFiles(in: folder, fileExtension: "txt")   // one <challengeId>.txt per challenge
        csv = try LeaderboardCSV.layout.writer(in: folder)
        workbookFile = try AtomicFile(destination: folder.appendingPathComponent("leaderboards.xlsx"))
        workbook = try LeaderboardsWorkbook(path: workbookFile.temporary.path, locale: locale, asOf: asOf, pointsRule: pointsRule)
    }

    /// Writes one challenge's rows: its CSV lines, its text file (written
    /// by ``LeaderboardsKeys``; a started challenge has one) and, unless
    /// `sheet` takes it to another thread, its workbook sheet; merges its summary.
    func add(_ result: PartitionResult<LeaderboardsFamily.Rows, LeaderboardsFamily.Summary>, text: AtomicFile?,
             sheet: ((Leaderboard) throws -> Void)? = nil) throws {
        summary.merge(result.summary)
        guard let board = result.rows.board else { return }
        guard let text else { preconditionFailure("challenge \(board.challenge.id): a board without its text file") }
        if FamilyFigures.finishedInMonth(board) { finished += 1 }
        for row in LeaderboardCSV.rows(board) { try csv.writeRow(row) }
        if let sheet { try sheet(board) } else { try workbook.add(board) }
        outputs.add(text)
    }

    /// Merges a summary that belongs to no challenge (the rejects of check-ins whose challenge does not exist).
    func merge(_ other: LeaderboardsFamily.Summary) { summary.merge(other) }

    /// Closes the workbook (its sheets all added), hands every file to the
    /// output set and returns the family's outcome.
    func finish(_ family: LeaderboardsFamily, started: Date) throws -> ReportOutcome {
        try workbook.close()
        try outputs.add(csv)
        outputs.add(workbookFile)
        let report = family.finalise(summary)
        let boards = report.boards
        let files: [RunManifest.Output] = [
            .init(path: "leaderboards/leaderboard.csv", rows: csv.rowCount),
            .init(path: "leaderboards/leaderboards.xlsx", rows: nil),
            .init(path: "leaderboards/<challengeId>.txt", rows: boards),
        ]
        let checks = [RunManifest.Check(
            name: "leaderboards: points add up to the counted check-ins", passed: report.mismatched.isEmpty,
            detail: report.mismatched.isEmpty ? "\(boards) challenges" : "does not add up for \(report.mismatched.prefix(10).joined(separator: ", "))")]
        return ReportOutcome(name: family.name, rejects: report.rejects, outputs: files, checks: checks,
                             summary: LeaderboardText.terminalSummary(report, asOf: asOf),
                             figures: FamilyFigures.leaderboards(report, finished: finished, asOf: asOf), rows: boards,
                             seconds: Date().timeIntervalSince(started))
    }
}
