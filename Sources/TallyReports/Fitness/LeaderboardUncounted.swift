import TallyCore

extension ReportLocale {
    /// The words of a leaderboard's check-ins that do not count.
    public enum UncountedWord: String, Sendable, Hashable, CaseIterable {
        case sheet, title, participant, workout, why, none
    }

    /// The text of `word` in this locale.
    public func uncounted(_ word: UncountedWord) -> String {
        let words: (pt: String, en: String, es: String)
        switch word {
        case .sheet: words = ("Check-ins não contados", "Check-ins not counted", "Check-ins no contados")
        case .title: words = ("Check-ins que não contaram, por participante",
                              "Check-ins that did not count, by participant",
                              "Check-ins que no contaron, por participante")
        case .participant: words = ("Participante", "Participant", "Participante")
        case .workout: words = ("Treino", "Workout", "Entrenamiento")
        case .why: words = ("Por que não contou", "Why it did not count", "Por qué no contó")
        case .none: words = ("Nenhum check-in deixou de contar.", "Every check-in counted.", "Todos los check-ins contaron.")
        }
        switch self {
        case .ptBR: return words.pt
        case .enUS: return words.en
        case .esES: return words.es
        }
    }
}

/// A leaderboard's check-ins that do not count (``Leaderboard/uncounted``),
/// for the people they concern: in the board's text, one line per
/// participant counting them by reason; in `leaderboards.xlsx`, a sheet
/// listing each (``UncountedCheckinsSheet``).
public enum LeaderboardUncounted {
    /// The text lines under a board: a heading, then one line per participant (in the board's order of
    /// ``Leaderboard/uncounted``: user id), the name (told apart when two participants share it), how many
    /// did not count and why, most frequent first:
    /// `  Ana: 2 — treino mais curto que o mínimo (1), check-in sem foto (1)`. None when all counted.
    public static func textLines(_ board: Leaderboard, locale: ReportLocale) -> [String] {
        guard !board.uncounted.isEmpty else { return [] }
        var lines = ["", "\(locale.uncounted(.title)):"]
        var groups: [ArraySlice<UncountedCheckin>] = []
        var start = board.uncounted.startIndex
        while start < board.uncounted.endIndex {
            let user = board.uncounted[start].userId
            let end = board.uncounted[start...].firstIndex { $0.userId != user } ?? board.uncounted.endIndex
            groups.append(board.uncounted[start..<end])
            start = end
        }
        let names = DistinctNames.shown(groups.map { ($0.last!.userId, $0.last!.displayName.isEmpty ? $0.last!.userId : $0.last!.displayName) })
        for (theirs, name) in zip(groups, names) {
            var counts: [RejectCode: Int] = [:]
            for c in theirs { counts[c.reason, default: 0] += 1 }
            let order = RejectCode.allCases
            let reasons = counts.sorted { a, b in
                a.value != b.value ? a.value > b.value : order.firstIndex(of: a.key)! < order.firstIndex(of: b.key)!
            }.map { "\(locale.rejectReason($0.key)) (\($0.value))" }
            lines.append("  \(name): \(theirs.count) — \(reasons.joined(separator: ", "))")
        }
        return lines
    }
}

/// The sheet of `leaderboards.xlsx` listing every board's check-ins that do
/// not count, added after the boards: challenge, participant, user id, day,
/// workout, minutes and why (in the locale), by challenge (the boards'
/// order), then participant (user id), day and check-in id; "every check-in
/// counted" when none. Rows are kept as boards are added and written when
/// the workbook closes.
///
/// ```swift
/// var sheet = UncountedCheckinsSheet()
/// sheet.add(board)                              // for each board, in order
/// try sheet.write(in: book, locale: locale, date: dateFormat, integer: integerFormat)
/// ```
struct UncountedCheckinsSheet {
    private var rows: [(challenge: Challenge, checkin: UncountedCheckin)] = []

    mutating func add(_ board: Leaderboard) {
        rows += board.uncounted.map { (board.challenge, $0) }
    }

    func write(in book: XLSXWorkbook, locale: ReportLocale, date: XLSXFormat, integer: XLSXFormat, title: XLSXFormat) throws {
        let text = { (header: String) in XLSXTable.Column(header) }
        let sheetTitle = locale.uncounted(.title)
        let layout = XLSXTable.Layout(titleRows: 2, widensForHeadings: false) { sheet, part in
            try sheet.writeSpanning(part.isContinuation ? "\(sheetTitle) \(locale.continuationNote(rows: part.rows(of: rows.count)))"
                                                        : sheetTitle, row: 0, format: title)
        }
        let table = try XLSXTable(workbook: book, name: book.availableName(for: locale.uncounted(.sheet)), columns: [
            text(locale.fitness(.challenge)), text(locale.uncounted(.participant)), text(locale.fitness(.userId)),
            XLSXTable.Column(locale.fitness(.date), format: date), text(locale.uncounted(.workout)),
            XLSXTable.Column(locale.fitness(.minutes), format: integer), text(locale.uncounted(.why)),
        ], layout: layout)
        if rows.isEmpty {
            try table.appendRow { row in try row.write(locale.uncounted(.none)) }
        }
        for (challenge, c) in rows {
            try table.appendRow { row in
                try row.write(challenge.name.isEmpty ? challenge.id : challenge.name)
                try row.write(c.displayName)
                try row.write(c.userId)
                try row.write(c.day)
                try row.write(c.workoutEntryId ?? "")
                try row.write(Int64(c.minutes))
                try row.write(locale.rejectReason(c.reason))
            }
        }
        try table.finish()
    }
}
