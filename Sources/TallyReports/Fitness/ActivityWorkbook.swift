import TallyCore

/// Streams a month of activity scores into `activity.xlsx`.
///
/// Sheets, in this order, all written at ``close()`` but the per-day scores:
/// - a summary: the score's formula (``ReportLocale/activityScoreFormula``),
///   the distribution of users' average scores in ten bins with a column
///   chart, and the daily average score over users with data with a line
///   chart on a date axis (0–100);
/// - the users ranked by average score (``ActivityRanking/standing(_:minimumDays:)``)
///   under the ranking rule: rank, user (a short id, ``ShortIds``: health
///   data carries no names), period, days, average and best score, days at
///   10,000 steps, the full user id; then the users with fewer than
///   `minimumDays` days of data, without a rank, a note saying why;
/// - the trend, split in two half-month sheets (days 1–15 and 16–end) so each
///   prints at a readable scale: one row per user in the same order, one
///   column per day, the day's score or an empty cell for a day without data
///   (a gap, never a zero), coloured red → yellow → green on the fixed
///   0–50–100 scale, so both halves colour a score alike;
/// - the per-day scores (steps, active kcal, km, score), streamed.
///
/// Scores are numbers rounded to one decimal, as in the CSVs. Constant-memory
/// (the users' month is kept: a summary and a score per day each); the
/// creation date is the month's first day.
public final class ActivityWorkbook {
    public let path: String
    public let locale: ReportLocale
    public let period: YearMonth
    /// Users with fewer days of data are listed without a rank.
    public let minimumDays: Int
    private let book: XLSXWorkbook
    private let summarySheet: XLSXWorksheet
    private let ranking: XLSXTable
    /// The trend's half-month sheets, with the days (0-based) each holds.
    private let trendTables: [(table: XLSXTable, days: Range<Int>)]
    private let scores: XLSXTable
    private var summaries: [ActivitySummary] = []
    /// Per user id, the score of each day of the month (nil: no data), for the trend sheet and the text.
    public private(set) var trend: [String: [Double?]] = [:]
    private let formats: (date: XLSXFormat, month: XLSXFormat, integer: XLSXFormat, oneDecimal: XLSXFormat, twoDecimals: XLSXFormat)

    public init(path: String, locale: ReportLocale, period: YearMonth, minimumDays: Int, constantMemory: Bool = true) throws {
        self.path = path
        self.locale = locale
        self.period = period
        self.minimumDays = minimumDays
        book = try XLSXWorkbook(path: path, options: XLSXWorkbook.Options(
            constantMemory: constantMemory, created: period.firstDay,
            title: "\(locale.fitness(.activityTitle)) — \(locale.formatMonth(period))", subject: period.description,
            author: "tally", printSetup: XLSXPrintSetup.standard.on(locale.paper)))
        formats = (try book.format(.date(locale.excelDateFormat)), try book.format(.date(locale.excelMonthFormat)),
                   try book.format(.integer), try book.format(XLSXStyle(numberFormat: "0.0")),
                   try book.format(XLSXStyle(numberFormat: "0.00")))
        // Bounded: ten score bins and one row per day of the month.
        summarySheet = try book.addWorksheet(named: locale.fitness(.summarySheet))
        let rule = XLSXWorksheet.lines(locale.activityRankingRule(minimumDays: minimumDays), width: Self.ruleWidth)
        ranking = try XLSXTable(workbook: book, name: locale.fitness(.users), columns: [
            XLSXTable.Column(locale.fitness(.rank), format: formats.integer), XLSXTable.Column(locale.fitness(.user)),
            XLSXTable.Column(locale.label(.period), format: formats.month),
            XLSXTable.Column(locale.fitness(.days), format: formats.integer),
            XLSXTable.Column(locale.fitness(.avgScore), format: formats.oneDecimal),
            XLSXTable.Column(locale.fitness(.bestScore), format: formats.oneDecimal),
            XLSXTable.Column(locale.fitness(.daysAt10kSteps), format: formats.integer),
            XLSXTable.Column(locale.fitness(.userId)), XLSXTable.Column(locale.fitness(.note)),
        ], layout: XLSXTable.Layout(titleRows: rule.count + 1) { sheet, _ in
            for (i, line) in rule.enumerated() { try sheet.writeSpanning(line, row: i) }
        })
        var halves: [(XLSXTable, Range<Int>)] = []
        for days in Self.trendHalves(dayCount: period.dayCount) {
            var columns = [XLSXTable.Column(locale.fitness(.rank), format: formats.integer),
                           XLSXTable.Column(locale.fitness(.user)),
                           XLSXTable.Column(locale.fitness(.avgScore), format: formats.oneDecimal)]
            let oneDecimal = formats.oneDecimal
            columns += days.map { XLSXTable.Column(String($0 + 1), format: oneDecimal, minimumWidth: 5.5) }
            let name = "\(locale.fitness(.trendSheet)) \(days.lowerBound + 1)–\(days.upperBound)"
            halves.append((try XLSXTable(workbook: book, name: name, columns: columns), days))
        }
        trendTables = halves
        let column = { (label: ReportLocale.FitnessLabel, format: XLSXFormat?) in XLSXTable.Column(locale.fitness(label), format: format) }
        scores = try XLSXTable(workbook: book, name: locale.fitness(.scoresSheet), columns: [
            column(.userId, nil), column(.date, formats.date), column(.steps, formats.integer),
            column(.activeCalories, formats.oneDecimal), column(.walkingDistanceKm, formats.twoDecimals),
            column(.score, formats.oneDecimal),
        ])
    }

    /// Adds one user's month: their days and their summary.
    public func add(_ summary: ActivitySummary, days: [DailyActivity]) throws {
        var line = [Double?](repeating: nil, count: period.dayCount)
        let first = period.firstDay.daysSinceEpoch
        for day in days {
            line[Int(day.date.daysSinceEpoch - first)] = day.score
            try scores.appendRow { row in
                try row.write(day.userId)
                try row.write(day.date)
                try row.write(Int64(day.steps.rounded(.toNearestOrAwayFromZero)))
                try row.write(Self.rounded(day.activeCalories, 1))
                try row.write(Self.rounded(day.walkingDistanceKm, 2))
                try row.write(Self.rounded(day.score, 1))
            }
        }
        summaries.append(summary)
        trend[summary.userId] = line
    }

    /// The days (0-based) of each trend sheet: the first half of the month, rounded up, and the rest.
    static func trendHalves(dayCount: Int) -> [Range<Int>] {
        let half = (dayCount + 1) / 2
        return [0..<half, half..<dayCount]
    }

    /// Writes the summary, ranking and trend sheets, finishes the scores and writes the file.
    public func close() throws {
        let standing = ActivityRanking.standing(summaries, minimumDays: minimumDays)
        let listed = standing.ranked.map { (rank: Optional($0.rank), summary: $0.summary) }
            + standing.unranked.map { (rank: Int?.none, summary: $0) }
        let shortIds = ShortIds.shown(listed.map(\.summary.userId))
        try writeSummary()
        try writeRanking(listed, shortIds: shortIds)
        try writeTrend(listed, shortIds: shortIds)
        try scores.finish()
        try book.close()
        try XLSXExactNumbers.rewrite(path: path)
    }

    /// The width (characters) the summary's notes are broken at, within the tables and charts.
    static let noteWidth = 120
    /// The width (characters) the ranking rule over the users sheet is broken at, within its columns.
    static let ruleWidth = 90

    private func writeSummary() throws {
        let sheet = summarySheet
        sheet.fitsColumnWidths = false
        try sheet.write("\(locale.fitness(.activityTitle)) — \(locale.formatMonth(period))", row: 0, column: 0,
                        format: try book.format(.title))
        sheet.fitsColumnWidths = true
        // The score's formula under the title, then the tables from the row after a blank one.
        let noteRows = try sheet.writeLines(locale.activityScoreFormula, row: 1, width: Self.noteWidth)
        let head = 2 + noteRows
        let header = try book.format(.header)
        let numericHeader = try XLSXTable.rightAligned(header, in: book)
        // The distribution of average scores, and its chart beside it.
        var bins = [Int](repeating: 0, count: 10)
        for summary in summaries where summary.days > 0 { bins[min(Int(summary.averageScore / 10), 9)] += 1 }
        try sheet.write(locale.fitness(.avgScore), row: head, column: 0, format: header)
        try sheet.write(locale.fitness(.users), row: head, column: 1, format: numericHeader)
        for (i, count) in bins.enumerated() {
            try sheet.write("\(i * 10)–\(i * 10 + 10)", row: head + 1 + i, column: 0)
            try sheet.write(Int64(count), row: head + 1 + i, column: 1, format: formats.integer)
        }
        let binRows = (head + 1)...(head + 10)
        let histogram = try book.addChart(.column)
        try histogram.addSeries(name: locale.fitness(.users), categories: .column(0, rows: binRows, of: sheet),
                                values: .column(1, rows: binRows, of: sheet))
        try histogram.setTitle(locale.fitness(.scoreDistribution))
        try histogram.setAxisNames(category: locale.fitness(.avgScore), value: locale.fitness(.users))
        try histogram.setValueAxisMinimum(0)
        try histogram.setLegend(.none)
        try sheet.insertChart(histogram, row: head, column: 4, xScale: 1.4, yScale: 1.1)

        // The daily average over users with data, and its line chart beside it.
        let top = head + 18
        try sheet.write(locale.fitness(.date), row: top, column: 0, format: numericHeader)
        try sheet.write(locale.fitness(.usersWithData), row: top, column: 1, format: numericHeader)
        try sheet.write(locale.fitness(.dailyAverage), row: top, column: 2, format: numericHeader)
        for day in 0..<period.dayCount {
            let values = trend.values.compactMap { $0[day] }
            try sheet.write(period.firstDay.adding(days: day), row: top + 1 + day, column: 0, format: formats.date)
            try sheet.write(Int64(values.count), row: top + 1 + day, column: 1, format: formats.integer)
            if !values.isEmpty {
                try sheet.write(Self.rounded(values.reduce(0, +) / Double(values.count), 1), row: top + 1 + day, column: 2,
                                format: formats.oneDecimal)
            }
        }
        let days = (top + 1)...(top + period.dayCount)
        let daily = try book.addChart(.line)
        try daily.addSeries(name: locale.fitness(.dailyAverage), categories: .column(0, rows: days, of: sheet),
                            values: .column(2, rows: days, of: sheet))
        try daily.setTitle("\(locale.fitness(.dailyAverage)) — \(locale.formatMonth(period))")
        try daily.setAxisNames(category: locale.fitness(.date), value: locale.fitness(.score))
        try daily.setCategoryAxisNumberFormat(locale.excelDayMonthFormat)
        try daily.setValueAxisBounds(0...100)
        try daily.setLegend(.none)
        try sheet.insertChart(daily, row: top, column: 4, xScale: 1.4, yScale: 1.1)
    }

    /// The users sheet: the ranked users, then those under the minimum of days without a rank, with a note.
    private func writeRanking(_ listed: [(rank: Int?, summary: ActivitySummary)], shortIds: [String]) throws {
        let table = ranking
        for (item, shortId) in zip(listed, shortIds) {
            let summary = item.summary
            try table.appendRow { row in
                if let rank = item.rank { try row.write(Int64(rank)) } else { try row.skip() }
                try row.write(shortId)
                try row.write(period.firstDay)
                try row.write(Int64(summary.days))
                try row.write(Self.rounded(summary.averageScore, 1))
                try row.write(Self.rounded(summary.bestScore, 1))
                try row.write(Int64(summary.daysAt10kSteps))
                try row.write(summary.userId)
                if item.rank == nil { try row.write(locale.notRanked(days: summary.days, minimum: minimumDays)) }
            }
        }
        try table.finish()
    }

    /// The trend's half-month sheets, users in the order of the users sheet (no rank: not ranked).
    private func writeTrend(_ listed: [(rank: Int?, summary: ActivitySummary)], shortIds: [String]) throws {
        for (table, days) in trendTables {
            for (item, shortId) in zip(listed, shortIds) {
                let line = trend[item.summary.userId] ?? []
                try table.appendRow { row in
                    if let rank = item.rank { try row.write(Int64(rank)) } else { try row.skip() }
                    try row.write(shortId)
                    try row.write(Self.rounded(item.summary.averageScore, 1))
                    for day in days {
                        if day < line.count, let score = line[day] { try row.write(Self.rounded(score, 1)) } else { try row.skip() }
                    }
                }
            }
            for sheet in table.sheets where sheet.lastRow >= 1 {
                try sheet.conditionalFormat(.pinnedColorScale(low: 0xF8696B, middle: 0xFFEB84, high: 0x63BE7B, at: (0, 50, 100)),
                                            rows: 1...sheet.lastRow, columns: 3...(2 + days.count))
            }
            try table.finish()
        }
    }

    /// `value` rounded half away from zero to `decimals`, as the CSVs show it.
    static func rounded(_ value: Double, _ decimals: Int) -> Double {
        Double(ActivityScore.format(value, decimals: decimals)) ?? value
    }
}
