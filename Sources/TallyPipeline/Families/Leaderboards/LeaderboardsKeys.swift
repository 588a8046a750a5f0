import Foundation
import TallyCore
import TallyReports

/// The leaderboards family's work on one challenge key, whichever transport
/// brought the key's rows (a warehouse scan for `tally run`, routed records
/// for a dataflow worker): the family's computation
/// (``LeaderboardsFamily/compute(key:)``, called here and nowhere else) and,
/// once the challenge has started, its board's text file, written under a
/// temporary name in `folder` for the caller to place.
///
/// ```swift
/// let keys = LeaderboardsKeys(config: config, locale: locale, asOf: asOf, timezone: timezone)
/// let outcome = try keys.compute(challengeRows, folder: folder)
/// ```
struct LeaderboardsKeys: Sendable {
    let family: LeaderboardsFamily
    let locale: ReportLocale
    /// What earns a point, explained in the workbook and the text files.
    let pointsRule: PointsRule

    /// The boards as of `asOf` under `config`, days counted in `timezone`.
    init(config: TallyConfig, locale: ReportLocale, asOf: LocalDate, timezone: ReportTimeZone) {
        family = LeaderboardsFamily(settings: .init(asOf: asOf, timezone: timezone, rules: config.leaderboards))
        self.locale = locale
        pointsRule = PointsRule(config.leaderboards)
    }

    /// What one challenge key gives.
    struct Outcome: Sendable {
        /// The challenge's board and its part of the family's summary (its
        /// unattached rows merged in); nil for a key no challenge has.
        var result: PartitionResult<LeaderboardsFamily.Rows, LeaderboardsFamily.Summary>?
        /// The rejects of a key no challenge has.
        var unattached = LeaderboardsFamily.Summary()
        /// The board's text, written under its temporary name; nil before the challenge starts.
        var text: HandedOver<AtomicFile>?
    }

    /// Computes the challenge key of `rows` and writes its board's text into `folder`.
    func compute(_ rows: ChallengeRows, folder: URL) throws -> Outcome {
        try outcome(of: family.compute(key: rows), folder: folder)
    }

    /// What a key's result gives, computed or kept from an earlier run
    /// (``KeptBoards``): the board's text written into `folder`.
    func outcome(of computed: LeaderboardsFamily.KeyResult, folder: URL) throws -> Outcome {
        // Check-ins whose challenge does not exist join the family's rejects.
        guard var result = computed.board else { return Outcome(unattached: computed.unattached) }
        result.summary.merge(computed.unattached)
        guard let board = result.rows.board else { return Outcome(result: result) }
        return Outcome(result: result, text: HandedOver(value: try Self.textFile(board, locale: locale, pointsRule: pointsRule, folder: folder)))
    }

    /// A board's text file, written to its temporary name.
    static func textFile(_ board: Leaderboard, locale: ReportLocale, pointsRule: PointsRule, folder: URL) throws -> AtomicFile {
        let txt = try AtomicFile(destination: folder.appendingPathComponent(SafeFileName.stem(for: board.challenge.id) + ".txt", isDirectory: false))
        try txt.write(LeaderboardText.render(board, locale: locale, pointsRule: pointsRule).utf8)
        return txt
    }
}
