import TallyCore

/// A challenge's leaderboard as text: one line per user with rank, change
/// (`▲2`, `▼1`, `=`, or the newcomer word), name (told apart with an id
/// suffix when two users share it), a bar of points, points and minutes.
/// The header says "as of" the day, or marks a challenge that ended before
/// it as final with its end date. Under the board, the check-ins that did
/// not count, one line per participant (``LeaderboardUncounted``).
public enum LeaderboardText {
    public static func render(_ board: Leaderboard, locale: ReportLocale, width: Int = 30) -> String {
        let c = board.challenge
        let when = board.isFinal
            ? "\(locale.fitness(.finalStandings)), \(locale.fitness(.endedOn)) \(locale.formatDate(c.endDate))"
            : "\(locale.fitness(.asOf)) \(locale.formatDate(board.asOf))"
        var lines = ["\(locale.fitness(.leaderboardTitle)): \(c.name) (\(c.id))",
                     "\(locale.fitness(.startDate)) \(locale.formatDate(c.startDate)) · \(locale.fitness(.endDate)) \(locale.formatDate(c.endDate)) · \(when)",
                     ""]
        guard !board.entries.isEmpty else {
            return (lines + ["(0 \(locale.fitness(.participants).lowercased()))"]
                    + LeaderboardUncounted.textLines(board, locale: locale)).joined(separator: "\n") + "\n"
        }
        let rankWidth = String(board.entries.map(\.rank).max() ?? 1).count
        let changes = board.entries.map { change($0, locale) }
        let changeWidth = changes.map { DisplayWidth.of($0) }.max() ?? 1
        let bars = TextChart.bars(zip(board.entries, board.shownNames).map { e, name in
            TextChart.Bar(label: name, value: Double(e.checkins),
                          shown: "\(e.checkins) \(locale.fitness(.points).lowercased()) · \(locale.formatInteger(Int64(e.minutes))) min")
        }, width: width)
        for (index, entry) in board.entries.enumerated() {
            lines.append("\(TextChart.padLeft(String(entry.rank), rankWidth)). \(TextChart.pad(changes[index], changeWidth)) \(bars[index])")
        }
        lines += LeaderboardUncounted.textLines(board, locale: locale)
        return lines.joined(separator: "\n") + "\n"
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
