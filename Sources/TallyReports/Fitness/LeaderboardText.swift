import TallyCore

/// A challenge's leaderboard as text: one line per user with rank, change
/// (`▲2`, `▼1`, `=`, or the newcomer word; a running board's only,
/// ``Leaderboard/showsRankChange``), name (told apart with an id suffix
/// when two users share it), a bar of points, points and minutes. The
/// header says "as of" the day, or marks a challenge that ended before it
/// as final with its end date, then the challenge's progress; under the
/// board, what a point is (from `pointsRule`) and the tie rule, then the
/// check-ins that did not count, one line per participant
/// (``LeaderboardUncounted``).
///
/// ```swift
/// LeaderboardText.render(board, locale: .ptBR, pointsRule: PointsRule(minimumWorkoutMinutes: 30))
/// ```
public enum LeaderboardText {
    /// The width (characters) the notes under a board are broken at.
    static let noteWidth = 100

    public static func render(_ board: Leaderboard, locale: ReportLocale, pointsRule: PointsRule, width: Int = 30) -> String {
        let c = board.challenge
        let when = board.isFinal
            ? "\(locale.fitness(.finalStandings)), \(locale.fitness(.endedOn)) \(locale.formatDate(c.endDate))"
            : "\(locale.fitness(.asOf)) \(locale.formatDate(board.asOf))"
        var lines = ["\(locale.fitness(.leaderboardTitle)): \(c.name) (\(c.id))",
                     "\(locale.fitness(.startDate)) \(locale.formatDate(c.startDate)) · \(locale.fitness(.endDate)) \(locale.formatDate(c.endDate)) · \(when)",
                     locale.progress(board.progress),
                     ""]
        if board.entries.isEmpty {
            lines.append("(0 \(locale.fitness(.participants).lowercased()))")
        } else {
            lines += entryLines(board, locale: locale, width: width)
        }
        lines.append("")
        lines += XLSXWorksheet.lines(locale.pointsDefinition(pointsRule), width: noteWidth)
        lines += XLSXWorksheet.lines(locale.tieRule, width: noteWidth)
        lines += LeaderboardUncounted.textLines(board, locale: locale)
        return lines.joined(separator: "\n") + "\n"
    }

    /// A line per entry: rank, the change when the board shows it, and the bar of points.
    private static func entryLines(_ board: Leaderboard, locale: ReportLocale, width: Int) -> [String] {
        let rankWidth = String(board.entries.map(\.rank).max() ?? 1).count
        let changes = board.entries.map { change($0, locale) }
        let changeWidth = changes.map { DisplayWidth.of($0) }.max() ?? 1
        let points = locale.fitness(.points).lowercased()
        let bars = TextChart.bars(zip(board.entries, board.shownNames).map { e, name in
            TextChart.Bar(label: name, value: Double(e.checkins),
                          shown: "\(e.checkins) \(points) · \(locale.formatInteger(Int64(e.minutes))) min")
        }, width: width)
        return board.entries.enumerated().map { index, entry in
            let rank = TextChart.padLeft(String(entry.rank), rankWidth)
            return board.showsRankChange ? "\(rank). \(TextChart.pad(changes[index], changeWidth)) \(bars[index])" : "\(rank). \(bars[index])"
        }
    }

    /// `▲2` moved up two, `▼1` down one, `=` unchanged, the newcomer word when new.
    public static func change(_ entry: LeaderboardEntry, _ locale: ReportLocale) -> String {
        guard let change = entry.rankChange else { return locale.fitness(.newcomer) }
        return change > 0 ? "▲\(change)" : change < 0 ? "▼\(-change)" : "="
    }

    /// The leaderboards' lines of the terminal summary (English, whatever the locale).
    public static func terminalSummary(_ report: LeaderboardsFamily.Report, asOf: LocalDate) -> [String] {
        var lines = ["leaderboards: \(report.boards) challenges as of \(asOf), \(report.users) users ranked, \(report.counted) check-ins counted"]
        if let top = report.largest, let leader = top.leader {
            lines.append("  largest: \(top.challengeName) (\(top.users) users), led by \(leader.displayName) "
                         + "with \(leader.checkins) check-ins, \(leader.minutes) min")
        }
        return lines
    }
}
