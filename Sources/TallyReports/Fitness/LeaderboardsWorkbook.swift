import TallyCore

/// Streams challenge leaderboards into `leaderboards.xlsx`.
///
/// Sheets: an index (challenge id, the challenge's name linking to its
/// sheet, group, start, end, the standings day — the as-of day, or the end
/// date of a finished challenge —, status — final or in progress —, progress
/// ("Dia 12 de 45 · faltam 33 dias"), participants, leader), then one sheet
/// per challenge, named after it: a title ("… as of 31/10/2026", or "final
/// standings … ended 30/06/2026" for a challenge that ended before the as-of
/// day), the progress line and what a point is (``ReportLocale/pointsDefinition(_:)``,
/// from the configured rules), then rank, change (a number shown
/// `▲2`/`▼1`/`–` by its number format, so it sorts; the newcomer word when
/// new; a running board's only: ``Leaderboard/showsRankChange``), name (told
/// apart with an id suffix when two users share it), user id, points,
/// minutes, current and best streak; the top three rows highlighted, the tie
/// rule under the table, and a native bar chart of the top ten's points,
/// rank 1 on top, its values cached in the chart. Written in constant-memory
/// mode; the creation date is the as-of day, so reruns give the same bytes.
///
/// A board longer than a sheet (Excel's 1,048,576 rows) continues on sheets
/// named `<name> (2)`, `<name> (3)`, … (see ``XLSXTable``), each repeating
/// the title, marked "(continued, rows N–M)", and the header; the chart
/// stays on the first sheet, and the index names the sheet count after the
/// challenge ("Outubro Ativo (2 planilhas)"). The last sheet lists the
/// check-ins that did not count, with why (``UncountedCheckinsSheet``).
public final class LeaderboardsWorkbook {
    /// The number format of a rank change: `▲2` up, `▼1` down, `–` unchanged.
    public static let changeFormat = "\"▲\"0;\"▼\"0;\"–\""

    public let path: String
    public let locale: ReportLocale
    /// What earns a point, explained on every board.
    public let pointsRule: PointsRule
    private let book: XLSXWorkbook
    private let index: XLSXTable
    private let formats: Formats
    /// The rows under every board: a blank one, then the tie rule wrapped to the note width (the same for each board).
    private let tieRuleRows: [String]
    /// What a point is, wrapped to the note width: the same on every board.
    private let pointsLines: [String]
    /// Challenges added.
    public private(set) var boardCount = 0
    /// The boards' check-ins that do not count, written last.
    private var uncounted = UncountedCheckinsSheet()

    private struct Formats {
        var title, date, integer, change, top, topInteger, topChange, link: XLSXFormat
        /// A final board's rank, centred (no change column sits between it and the name), plain and highlighted.
        var centredRank, topCentredRank: XLSXFormat
    }

    /// Starts the workbook; `maxRowsPerSheet` is Excel's limit unless lowered (for tests).
    public init(path: String, locale: ReportLocale, asOf: LocalDate, pointsRule: PointsRule, constantMemory: Bool = true,
                maxRowsPerSheet: Int = XLSXWorkbook.excelMaxRows) throws {
        self.path = path
        self.locale = locale
        self.pointsRule = pointsRule
        tieRuleRows = [""] + XLSXWorksheet.lines(locale.tieRule, width: Self.noteWidth)
        pointsLines = XLSXWorksheet.lines(locale.pointsDefinition(pointsRule), width: Self.noteWidth)
        // Every chart is given its values, so no sheet keeps cells for chart caches (one sheet per challenge: thousands).
        book = try XLSXWorkbook(path: path, options: XLSXWorkbook.Options(
            constantMemory: constantMemory, temporaryDirectory: XLSXWorkbook.ramTemporaryDirectory, created: asOf,
            title: "\(locale.fitness(.leaderboardTitle)) — \(asOf)",
            subject: asOf.description, author: "tally", maxRowsPerSheet: maxRowsPerSheet, chartSourceRows: 0,
            printSetup: XLSXPrintSetup.standard.on(locale.paper)))
        let date = try book.format(.date(locale.excelDateFormat))
        // Centred, heading and values, so a change never touches the left-aligned name beside it.
        let change = XLSXStyle(numberFormat: Self.changeFormat, alignment: .center)
        formats = Formats(title: try book.format(.title), date: date,
                          integer: try book.format(.integer), change: try book.format(change),
                          top: try book.format(.highlight), topInteger: try book.format(XLSXStyle.integer.highlighted),
                          topChange: try book.format(change.highlighted), link: try book.format(.link),
                          centredRank: try book.format(XLSXStyle(numberFormat: XLSXStyle.integer.numberFormat, alignment: .center)),
                          topCentredRank: try book.format(XLSXStyle(numberFormat: XLSXStyle.integer.numberFormat, alignment: .center).highlighted))
        let text = { (label: ReportLocale.FitnessLabel) in XLSXTable.Column(locale.fitness(label)) }
        index = try XLSXTable(workbook: book, name: locale.fitness(.indexSheet), columns: [
            text(.challengeId), text(.challenge), text(.groupId),
            XLSXTable.Column(locale.fitness(.startDate), format: date), XLSXTable.Column(locale.fitness(.endDate), format: date),
            XLSXTable.Column(locale.fitness(.asOf), format: date), text(.status), text(.progress),
            XLSXTable.Column(locale.fitness(.participants), format: formats.integer), text(.leader),
        ])
    }

    /// The sheet title of `board`: as of its day, or final with its end date.
    public static func title(_ board: Leaderboard, locale: ReportLocale) -> String {
        let c = board.challenge
        return board.isFinal
            ? "\(locale.fitness(.finalStandings)): \(c.name) — \(locale.fitness(.endedOn)) \(locale.formatDate(c.endDate))"
            : "\(locale.fitness(.leaderboardTitle)): \(c.name) — \(locale.fitness(.asOf)) \(locale.formatDate(board.asOf))"
    }

    /// Adds a challenge's sheet (with its continuation sheets when the board is longer than one) and its index row.
    public func add(_ board: Leaderboard) throws {
        let c = board.challenge
        let names = board.shownNames
        let layout = boardLayout(board)
        // The index row comes first, so formats are first used (and numbered) in the same order on every
        // run: its link names the board's first sheet before that sheet exists.
        let name = book.availableName(for: c.name.isEmpty ? c.id : c.name)
        // The rows under the table count too: they may start a sheet of their own.
        let sheetCount = XLSXTable.sheetCount(rows: board.entries.count + tieRuleRows.count, in: book, layout: layout)
        try index.appendRow { row in
            try row.write(c.id)
            let shown = sheetCount > 1 ? "\(c.name) (\(locale.sheetCount(sheetCount)))" : c.name
            try row.writeLink(shown, toSheet: name, format: formats.link)
            try row.write(c.groupId)
            try row.write(c.startDate)
            try row.write(c.endDate)
            try row.write(board.standingsDay)
            try row.write(locale.fitness(board.isFinal ? .finalStatus : .inProgress))
            try row.write(locale.progress(board.progress))
            try row.write(Int64(board.entries.count))
            try row.write(zip(board.entries, names).filter { $0.0.rank == 1 }.map(\.1).joined(separator: ", "))
        }
        let table = try XLSXTable(workbook: book, name: name, columns: boardColumns(board), layout: layout)
        for (entry, shown) in zip(board.entries, names) {
            // The top three are highlighted; a nil format is the column's own.
            let top = entry.rank <= 3
            try table.appendRow { row in
                if board.showsRankChange {
                    try row.write(Int64(entry.rank), format: top ? formats.topInteger : nil)
                } else {
                    try row.write(Int64(entry.rank), format: top ? formats.topCentredRank : formats.centredRank)
                }
                if board.showsRankChange {
                    if let delta = entry.rankChange {
                        try row.write(Int64(delta), format: top ? formats.topChange : nil)
                    } else {
                        try row.write(locale.fitness(.newcomer), format: top ? formats.topChange : nil)
                    }
                }
                try row.write(shown, format: top ? formats.top : nil)
                try row.write(entry.userId, format: top ? formats.top : nil)
                for number in [entry.checkins, entry.minutes, entry.streaks.current, entry.streaks.best] {
                    try row.write(Int64(number), format: top ? formats.topInteger : nil)
                }
            }
        }
        try table.finish()
        try addTieRule(table)
        if !board.entries.isEmpty {
            try addTopTenChart(board, names: names, table: table)
        }
        boardCount += 1
        uncounted.add(board)
    }

    /// A board's columns: rank, the change (a running board's only), name, user id, points, minutes, streaks.
    private func boardColumns(_ board: Leaderboard) -> [XLSXTable.Column] {
        let integer = { (label: ReportLocale.FitnessLabel) in XLSXTable.Column(self.locale.fitness(label), format: self.formats.integer) }
        let change = XLSXTable.Column(locale.fitness(.change), format: formats.change, alignment: .center)
        // Without the change column, the rank is centred so it does not touch the name beside it.
        let rank = board.showsRankChange ? integer(.rank)
            : XLSXTable.Column(locale.fitness(.rank), format: formats.centredRank, alignment: .center)
        return [rank] + (board.showsRankChange ? [change] : [])
            + [XLSXTable.Column(locale.fitness(.name)), XLSXTable.Column(locale.fitness(.userId)),
               integer(.points), integer(.minutes), integer(.currentStreak), integer(.bestStreak)]
    }

    /// The width (characters) the notes of a board sheet are broken at, so they print within the table and its chart.
    static let noteWidth = 110

    /// A board's sheets: the title (saying which rows a continuation sheet holds), the challenge's
    /// progress, what a point is, a blank row, then the header.
    private func boardLayout(_ board: Leaderboard) -> XLSXTable.Layout {
        let title = Self.title(board, locale: locale)
        let progress = locale.progress(board.progress)
        let (locale, format, total, points) = (locale, formats.title, board.entries.count, pointsLines)
        return XLSXTable.Layout(titleRows: 3 + points.count, widensForHeadings: false) { sheet, part in
            let text = part.isContinuation ? "\(title) \(locale.continuationNote(rows: part.rows(of: total)))" : title
            try sheet.writeSpanning(text, row: 0, format: format)
            try sheet.writeSpanning(progress, row: 1)
            for (i, line) in points.enumerated() { try sheet.writeSpanning(line, row: 2 + i) }
        }
    }

    /// The tie rule under a board, after a blank row.
    private func addTieRule(_ table: XLSXTable) throws {
        for line in tieRuleRows {
            try table.appendBelow { sheet, row in if !line.isEmpty { try sheet.writeSpanning(line, row: row) } }
        }
    }

    /// The top ten's points as horizontal bars, rank 1 on top, with the values cached in the chart.
    /// On the first sheet, to the right of the table, from its first data row: the rows it draws are on that sheet.
    private func addTopTenChart(_ board: Leaderboard, names: [String], table: XLSXTable) throws {
        let sheet = table.sheets[0]
        let shown = min(board.entries.count, 10, table.rowsPerSheet)
        let first = table.headerRow + 1
        let rows = first...(first + shown - 1)
        let nameColumn = board.showsRankChange ? 2 : 1
        let chart = try book.addChart(.bar)
        try chart.addSeries(name: locale.fitness(.points), categories: .column(nameColumn, rows: rows, of: sheet),
                            values: .column(nameColumn + 2, rows: rows, of: sheet),
                            cache: .init(categories: names.prefix(shown).map { .text($0) },
                                         values: board.entries.prefix(shown).map { .number(Double($0.checkins)) }))
        try chart.setTitle("\(locale.fitness(.topTen)) — \(board.challenge.name)")
        try chart.setAxisNames(category: locale.fitness(.name), value: locale.fitness(.points))
        try chart.reverseCategories()
        try chart.setValueAxisMinimum(0)
        try chart.setLegend(.none)
        try sheet.insertChart(chart, row: table.headerRow, column: table.columns.count + 1, xScale: 1.3, yScale: 1.2)
    }

    /// Finishes the index and writes the file.
    public func close() throws {
        try uncounted.write(in: book, locale: locale, date: formats.date, integer: formats.integer, title: formats.title)
        try index.finish()
        try book.close()
    }
}
