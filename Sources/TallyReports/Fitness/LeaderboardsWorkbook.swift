import TallyCore

/// Streams challenge leaderboards into `leaderboards.xlsx`.
///
/// Sheets: an index (challenge id and name, group, start, end, as-of day,
/// participants, leader), then one sheet per challenge, named after it: a
/// title, then rank, change (`▲2`/`▼1`/`=`/new), name, user id, check-ins,
/// minutes, current and best streak; the top three rows highlighted, and a
/// native bar chart of the top ten's points. Written in constant-memory mode;
/// the creation date is the as-of day, so reruns give the same bytes.
public final class LeaderboardsWorkbook {
    public let path: String
    public let locale: ReportLocale
    private let book: XLSXWorkbook
    private let index: XLSXTable
    private let formats: (title: XLSXFormat, header: XLSXFormat, date: XLSXFormat, integer: XLSXFormat,
                          top: XLSXFormat, topInteger: XLSXFormat)
    private var taken: Set<String> = []
    /// Challenges added.
    public private(set) var boardCount = 0

    public init(path: String, locale: ReportLocale, asOf: LocalDate, constantMemory: Bool = true) throws {
        self.path = path
        self.locale = locale
        book = try XLSXWorkbook(path: path, options: XLSXWorkbook.Options(
            constantMemory: constantMemory, temporaryDirectory: XLSXWorkbook.ramTemporaryDirectory, created: asOf,
            title: "\(locale.fitness(.leaderboardTitle)) — \(asOf)",
            subject: asOf.description, author: "tally"))
        let date = try book.format(.date(locale.excelDateFormat))
        formats = (try book.format(.title), try book.format(.header), date, try book.format(.integer),
                   try book.format(.highlight), try book.format(XLSXStyle.integer.highlighted))
        let text = { (label: ReportLocale.FitnessLabel) in XLSXTable.Column(locale.fitness(label)) }
        index = try XLSXTable(workbook: book, name: locale.fitness(.indexSheet), columns: [
            text(.challengeId), text(.challenge), text(.groupId),
            XLSXTable.Column(locale.fitness(.startDate), format: date), XLSXTable.Column(locale.fitness(.endDate), format: date),
            XLSXTable.Column(locale.fitness(.asOf), format: date),
            XLSXTable.Column(locale.fitness(.participants), format: formats.integer), text(.leader),
        ])
        taken.insert(locale.fitness(.indexSheet))
    }

    /// Adds a challenge's sheet and its index row.
    public func add(_ board: Leaderboard) throws {
        let c = board.challenge
        try index.appendRow { row in
            try row.write(c.id)
            try row.write(c.name)
            try row.write(c.groupId)
            try row.write(c.startDate)
            try row.write(c.endDate)
            try row.write(board.asOf)
            try row.write(Int64(board.entries.count))
            try row.write(board.entries.filter { $0.rank == 1 }.map(\.displayName).joined(separator: ", "))
        }
        let name = XLSXSheetName.unique(XLSXSheetName.sanitize(c.name.isEmpty ? c.id : c.name), taken: taken)
        taken.insert(name)
        let sheet = try book.addWorksheet(named: name)
        sheet.fitsColumnWidths = false
        try sheet.write("\(locale.fitness(.leaderboardTitle)): \(c.name) — \(locale.fitness(.asOf)) \(locale.formatDate(board.asOf))",
                        row: 0, column: 0, format: formats.title)
        sheet.fitsColumnWidths = true
        let headings: [ReportLocale.FitnessLabel] = [.rank, .change, .name, .userId, .checkins, .minutes, .currentStreak, .bestStreak]
        for (column, label) in headings.enumerated() {
            try sheet.write(locale.fitness(label), row: 2, column: column, format: formats.header)
        }
        try sheet.freeze(rows: 3)
        var row = 3
        for entry in board.entries {
            let top = entry.rank <= 3
            let (text, integer) = top ? (formats.top, formats.topInteger) : (nil, formats.integer)
            try sheet.write(Int64(entry.rank), row: row, column: 0, format: integer)
            try sheet.write(LeaderboardText.change(entry, locale), row: row, column: 1, format: text)
            try sheet.write(entry.displayName, row: row, column: 2, format: text)
            try sheet.write(entry.userId, row: row, column: 3, format: text)
            try sheet.write(Int64(entry.checkins), row: row, column: 4, format: integer)
            try sheet.write(Int64(entry.minutes), row: row, column: 5, format: integer)
            try sheet.write(Int64(entry.streaks.current), row: row, column: 6, format: integer)
            try sheet.write(Int64(entry.streaks.best), row: row, column: 7, format: integer)
            row += 1
        }
        if !board.entries.isEmpty {
            try sheet.autofilter(firstRow: 2, firstColumn: 0, lastRow: row - 1, lastColumn: headings.count - 1)
            let rows = 3...min(row - 1, 12)
            let chart = try book.addChart(.bar)
            try chart.addSeries(name: locale.fitness(.points), categories: .column(2, rows: rows, of: sheet),
                                values: .column(4, rows: rows, of: sheet))
            try chart.setTitle("\(locale.fitness(.topTen)) — \(c.name)")
            try chart.setAxisNames(category: locale.fitness(.name), value: locale.fitness(.points))
            try chart.setLegend(.none)
            try sheet.insertChart(chart, row: 2, column: headings.count + 1, xScale: 1.3, yScale: 1.2)
        }
        boardCount += 1
    }

    /// Finishes the index and writes the file.
    public func close() throws {
        try index.finish()
        try book.close()
    }
}
