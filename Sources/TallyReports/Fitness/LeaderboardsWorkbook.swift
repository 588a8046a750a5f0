import TallyCore

/// Streams challenge leaderboards into `leaderboards.xlsx`.
///
/// Sheets: an index (challenge id, the challenge's name linking to its
/// sheet, group, start, end, as-of day, status — final or in progress —,
/// participants, leader), then one sheet per challenge, named after it: a
/// title ("… as of 31/10/2026", or "final standings … ended 30/06/2026" for
/// a challenge that ended before the as-of day), then rank, change (a number
/// shown `▲2`/`▼1`/`–` by its number format, so it sorts; the newcomer word
/// when new), name (told apart with an id suffix when two users share it),
/// user id, check-ins, minutes, current and best streak; the top three rows
/// highlighted, and a native bar chart of the top ten's points, rank 1 on
/// top, its values cached in the chart. Written in constant-memory mode; the
/// creation date is the as-of day, so reruns give the same bytes.
public final class LeaderboardsWorkbook {
    /// The number format of a rank change: `▲2` up, `▼1` down, `–` unchanged.
    public static let changeFormat = "\"▲\"0;\"▼\"0;\"–\""

    public let path: String
    public let locale: ReportLocale
    private let book: XLSXWorkbook
    private let index: XLSXTable
    private let formats: Formats
    private var taken: Set<String> = []
    /// Challenges added.
    public private(set) var boardCount = 0

    private struct Formats {
        var title, header, numericHeader, centeredHeader, date, integer, change, top, topInteger, topChange, link: XLSXFormat
    }

    public init(path: String, locale: ReportLocale, asOf: LocalDate, constantMemory: Bool = true) throws {
        self.path = path
        self.locale = locale
        // Every chart is given its values, so no sheet keeps cells for chart caches (one sheet per challenge: thousands).
        book = try XLSXWorkbook(path: path, options: XLSXWorkbook.Options(
            constantMemory: constantMemory, temporaryDirectory: XLSXWorkbook.ramTemporaryDirectory, created: asOf,
            title: "\(locale.fitness(.leaderboardTitle)) — \(asOf)",
            subject: asOf.description, author: "tally", chartSourceRows: 0))
        let date = try book.format(.date(locale.excelDateFormat))
        let header = try book.format(.header)
        // Centred, so a change never touches the left-aligned name beside it.
        let change = XLSXStyle(numberFormat: Self.changeFormat, alignment: .center)
        var centeredHeader = header.style
        centeredHeader.alignment = .center
        formats = Formats(title: try book.format(.title), header: header,
                          numericHeader: try XLSXTable.rightAligned(header, in: book),
                          centeredHeader: try book.format(centeredHeader), date: date,
                          integer: try book.format(.integer), change: try book.format(change),
                          top: try book.format(.highlight), topInteger: try book.format(XLSXStyle.integer.highlighted),
                          topChange: try book.format(change.highlighted), link: try book.format(.link))
        let text = { (label: ReportLocale.FitnessLabel) in XLSXTable.Column(locale.fitness(label)) }
        index = try XLSXTable(workbook: book, name: locale.fitness(.indexSheet), columns: [
            text(.challengeId), text(.challenge), text(.groupId),
            XLSXTable.Column(locale.fitness(.startDate), format: date), XLSXTable.Column(locale.fitness(.endDate), format: date),
            XLSXTable.Column(locale.fitness(.asOf), format: date), text(.status),
            XLSXTable.Column(locale.fitness(.participants), format: formats.integer), text(.leader),
        ])
        taken.insert(locale.fitness(.indexSheet))
    }

    /// The sheet title of `board`: as of its day, or final with its end date.
    public static func title(_ board: Leaderboard, locale: ReportLocale) -> String {
        let c = board.challenge
        return board.isFinal
            ? "\(locale.fitness(.finalStandings)): \(c.name) — \(locale.fitness(.endedOn)) \(locale.formatDate(c.endDate))"
            : "\(locale.fitness(.leaderboardTitle)): \(c.name) — \(locale.fitness(.asOf)) \(locale.formatDate(board.asOf))"
    }

    /// Adds a challenge's sheet and its index row.
    public func add(_ board: Leaderboard) throws {
        let c = board.challenge
        let names = board.shownNames
        let name = XLSXSheetName.unique(XLSXSheetName.sanitize(c.name.isEmpty ? c.id : c.name), taken: taken)
        taken.insert(name)
        try index.appendRow { row in
            try row.write(c.id)
            try row.writeLink(c.name, toSheet: name, format: formats.link)
            try row.write(c.groupId)
            try row.write(c.startDate)
            try row.write(c.endDate)
            try row.write(board.asOf)
            try row.write(locale.fitness(board.isFinal ? .finalStatus : .inProgress))
            try row.write(Int64(board.entries.count))
            try row.write(zip(board.entries, names).filter { $0.0.rank == 1 }.map(\.1).joined(separator: ", "))
        }
        let sheet = try book.addWorksheet(named: name)
        sheet.fitsColumnWidths = false
        try sheet.write(Self.title(board, locale: locale), row: 0, column: 0, format: formats.title)
        sheet.fitsColumnWidths = true
        let headings: [(ReportLocale.FitnessLabel, numeric: Bool)] = [
            (.rank, true), (.change, true), (.name, false), (.userId, false), (.checkins, true), (.minutes, true),
            (.currentStreak, true), (.bestStreak, true)]
        for (column, heading) in headings.enumerated() {
            let format = heading.0 == .change ? formats.centeredHeader : heading.numeric ? formats.numericHeader : formats.header
            try sheet.write(locale.fitness(heading.0), row: 2, column: column, format: format)
        }
        try sheet.freeze(rows: 3)
        try sheet.repeatRowsWhenPrinted(0...2)
        var row = 3
        for (entry, shown) in zip(board.entries, names) {
            let top = entry.rank <= 3
            let (text, integer, change) = top ? (formats.top, formats.topInteger, formats.topChange)
                                              : (nil, formats.integer, formats.change)
            try sheet.write(Int64(entry.rank), row: row, column: 0, format: integer)
            if let delta = entry.rankChange {
                try sheet.write(Int64(delta), row: row, column: 1, format: change)
            } else {
                try sheet.write(locale.fitness(.newcomer), row: row, column: 1, format: change)
            }
            try sheet.write(shown, row: row, column: 2, format: text)
            try sheet.write(entry.userId, row: row, column: 3, format: text)
            try sheet.write(Int64(entry.checkins), row: row, column: 4, format: integer)
            try sheet.write(Int64(entry.minutes), row: row, column: 5, format: integer)
            try sheet.write(Int64(entry.streaks.current), row: row, column: 6, format: integer)
            try sheet.write(Int64(entry.streaks.best), row: row, column: 7, format: integer)
            row += 1
        }
        if !board.entries.isEmpty {
            try sheet.autofilter(firstRow: 2, firstColumn: 0, lastRow: row - 1, lastColumn: headings.count - 1)
            try addTopTenChart(board, names: names, sheet: sheet, column: headings.count + 1)
        }
        boardCount += 1
    }

    /// The top ten's points as horizontal bars, rank 1 on top, with the values cached in the chart.
    private func addTopTenChart(_ board: Leaderboard, names: [String], sheet: XLSXWorksheet, column: Int) throws {
        let shown = min(board.entries.count, 10)
        let rows = 3...(3 + shown - 1)
        let chart = try book.addChart(.bar)
        try chart.addSeries(name: locale.fitness(.points), categories: .column(2, rows: rows, of: sheet),
                            values: .column(4, rows: rows, of: sheet),
                            cache: .init(categories: names.prefix(shown).map { .text($0) },
                                         values: board.entries.prefix(shown).map { .number(Double($0.checkins)) }))
        try chart.setTitle("\(locale.fitness(.topTen)) — \(board.challenge.name)")
        try chart.setAxisNames(category: locale.fitness(.name), value: locale.fitness(.points))
        try chart.reverseCategories()
        try chart.setValueAxisMinimum(0)
        try chart.setLegend(.none)
        try sheet.insertChart(chart, row: 2, column: column, xScale: 1.3, yScale: 1.2)
    }

    /// Finishes the index and writes the file.
    public func close() throws {
        try index.finish()
        try book.close()
    }
}
