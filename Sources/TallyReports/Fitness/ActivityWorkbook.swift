import TallyCore

/// Streams a month of activity scores into `activity.xlsx`.
///
/// Sheets, in this order, all written at ``close()`` but the per-day scores:
/// - a summary: the distribution of users' average scores in ten bins with
///   a column chart, and the daily average score over users with data with a
///   line chart on a date axis (0–100);
/// - the users ranked by average score (``ActivityRanking``): rank, days,
///   average and best score, days at 10,000 steps;
/// - the trend: one row per ranked user, one column per day of the month,
///   the day's score or an empty cell for a day without data (a gap, never
///   a zero), coloured red → yellow → green;
/// - the per-day scores (steps, active kcal, km, score), streamed.
///
/// Scores are numbers rounded to one decimal, as in the CSVs. Constant-memory
/// (the users' month is kept: a summary and a score per day each); the
/// creation date is the month's first day.
public final class ActivityWorkbook {
    public let path: String
    public let locale: ReportLocale
    public let period: YearMonth
    private let book: XLSXWorkbook
    private let summarySheet: XLSXWorksheet
    private let ranking: XLSXTable
    private let trendTable: XLSXTable
    private let scores: XLSXTable
    private var summaries: [ActivitySummary] = []
    /// Per user id, the score of each day of the month (nil: no data), for the trend sheet and the text.
    public private(set) var trend: [String: [Double?]] = [:]
    private let formats: (date: XLSXFormat, month: XLSXFormat, integer: XLSXFormat, oneDecimal: XLSXFormat, twoDecimals: XLSXFormat)

    public init(path: String, locale: ReportLocale, period: YearMonth, constantMemory: Bool = true) throws {
        self.path = path
        self.locale = locale
        self.period = period
        book = try XLSXWorkbook(path: path, options: XLSXWorkbook.Options(
            constantMemory: constantMemory, created: period.firstDay,
            title: "\(locale.fitness(.activityTitle)) — \(locale.formatMonth(period))", subject: period.description,
            author: "tally", printSetup: XLSXPrintSetup.standard.on(locale.paper)))
        formats = (try book.format(.date(locale.excelDateFormat)), try book.format(.date(locale.excelMonthFormat)),
                   try book.format(.integer), try book.format(XLSXStyle(numberFormat: "0.0")),
                   try book.format(XLSXStyle(numberFormat: "0.00")))
        // Bounded: ten score bins and one row per day of the month.
        summarySheet = try book.addWorksheet(named: locale.fitness(.summarySheet))
        ranking = try XLSXTable(workbook: book, name: locale.fitness(.users), columns: [
            XLSXTable.Column(locale.fitness(.rank), format: formats.integer), XLSXTable.Column(locale.fitness(.userId)),
            XLSXTable.Column(locale.label(.period), format: formats.month),
            XLSXTable.Column(locale.fitness(.days), format: formats.integer),
            XLSXTable.Column(locale.fitness(.avgScore), format: formats.oneDecimal),
            XLSXTable.Column(locale.fitness(.bestScore), format: formats.oneDecimal),
            XLSXTable.Column(locale.fitness(.daysAt10kSteps), format: formats.integer),
        ])
        var trendColumns = [XLSXTable.Column(locale.fitness(.rank), format: formats.integer),
                            XLSXTable.Column(locale.fitness(.userId)),
                            XLSXTable.Column(locale.fitness(.avgScore), format: formats.oneDecimal)]
        let oneDecimal = formats.oneDecimal
        trendColumns += (1...period.dayCount).map { XLSXTable.Column(String($0), format: oneDecimal, minimumWidth: 5.5) }
        trendTable = try XLSXTable(workbook: book, name: locale.fitness(.trendSheet), columns: trendColumns)
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

    /// Writes the summary, ranking and trend sheets, finishes the scores and writes the file.
    public func close() throws {
        let ranked = ActivityRanking.rank(summaries)
        try writeSummary()
        try writeRanking(ranked)
        try writeTrend(ranked)
        try scores.finish()
        try book.close()
        try XLSXExactNumbers.rewrite(path: path)
    }

    private func writeSummary() throws {
        let sheet = summarySheet
        sheet.fitsColumnWidths = false
        try sheet.write("\(locale.fitness(.activityTitle)) — \(locale.formatMonth(period))", row: 0, column: 0,
                        format: try book.format(.title))
        sheet.fitsColumnWidths = true
        let header = try book.format(.header)
        let numericHeader = try XLSXTable.rightAligned(header, in: book)
        // The distribution of average scores, and its chart beside it.
        var bins = [Int](repeating: 0, count: 10)
        for summary in summaries where summary.days > 0 { bins[min(Int(summary.averageScore / 10), 9)] += 1 }
        try sheet.write(locale.fitness(.avgScore), row: 2, column: 0, format: header)
        try sheet.write(locale.fitness(.users), row: 2, column: 1, format: numericHeader)
        for (i, count) in bins.enumerated() {
            try sheet.write("\(i * 10)–\(i * 10 + 10)", row: 3 + i, column: 0)
            try sheet.write(Int64(count), row: 3 + i, column: 1, format: formats.integer)
        }
        let histogram = try book.addChart(.column)
        try histogram.addSeries(name: locale.fitness(.users), categories: .column(0, rows: 3...12, of: sheet),
                                values: .column(1, rows: 3...12, of: sheet))
        try histogram.setTitle(locale.fitness(.scoreDistribution))
        try histogram.setAxisNames(category: locale.fitness(.avgScore), value: locale.fitness(.users))
        try histogram.setValueAxisMinimum(0)
        try histogram.setLegend(.none)
        try sheet.insertChart(histogram, row: 2, column: 4, xScale: 1.4, yScale: 1.1)

        // The daily average over users with data, and its line chart beside it.
        let top = 20
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

    private func writeRanking(_ ranked: [ActivityRanking.Ranked]) throws {
        let table = ranking
        for item in ranked {
            let summary = item.summary
            try table.appendRow { row in
                try row.write(Int64(item.rank))
                try row.write(summary.userId)
                try row.write(period.firstDay)
                try row.write(Int64(summary.days))
                try row.write(Self.rounded(summary.averageScore, 1))
                try row.write(Self.rounded(summary.bestScore, 1))
                try row.write(Int64(summary.daysAt10kSteps))
            }
        }
        try table.finish()
    }

    private func writeTrend(_ ranked: [ActivityRanking.Ranked]) throws {
        let table = trendTable
        for item in ranked {
            try table.appendRow { row in
                try row.write(Int64(item.rank))
                try row.write(item.summary.userId)
                try row.write(Self.rounded(item.summary.averageScore, 1))
                for score in trend[item.summary.userId] ?? [] {
                    if let score { try row.write(Self.rounded(score, 1)) } else { try row.skip() }
                }
            }
        }
        if table.rowCount > 0 {
            for sheet in table.sheets where sheet.lastRow >= 1 {
                try sheet.conditionalFormat(.colorScale(low: 0xF8696B, middle: 0xFFEB84, high: 0x63BE7B),
                                            rows: 1...sheet.lastRow, columns: 3...(2 + period.dayCount))
            }
        }
        try table.finish()
    }

    /// `value` rounded half away from zero to `decimals`, as the CSVs show it.
    static func rounded(_ value: Double, _ decimals: Int) -> Double {
        Double(ActivityScore.format(value, decimals: decimals)) ?? value
    }
}
