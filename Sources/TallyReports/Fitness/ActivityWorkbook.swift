import TallyCore

/// Streams a month of activity scores into `activity.xlsx`.
///
/// Sheets: a summary (the distribution of users' average scores in ten bins
/// with a native column chart, written at ``close()``), the per-user
/// month (days, average and best score, days at 10,000 steps) and the
/// per-day scores (steps, active kcal, km, score). Scores are numbers
/// rounded to one decimal, as in the CSVs. Constant-memory; the creation
/// date is the month's first day.
public final class ActivityWorkbook {
    public let path: String
    public let locale: ReportLocale
    public let period: YearMonth
    private let book: XLSXWorkbook
    private let summary: XLSXWorksheet
    private let users: XLSXTable
    private let scores: XLSXTable
    private var bins = [Int](repeating: 0, count: 10)

    public init(path: String, locale: ReportLocale, period: YearMonth, constantMemory: Bool = true) throws {
        self.path = path
        self.locale = locale
        self.period = period
        book = try XLSXWorkbook(path: path, options: XLSXWorkbook.Options(
            constantMemory: constantMemory, created: period.firstDay,
            title: "\(locale.fitness(.activityTitle)) — \(locale.formatMonth(period))", subject: period.description,
            author: "tally"))
        let date = try book.format(.date(locale.excelDateFormat))
        let month = try book.format(.date(locale.excelMonthFormat))
        let integer = try book.format(.integer)
        let oneDecimal = try book.format(XLSXStyle(numberFormat: "0.0"))
        let twoDecimals = try book.format(XLSXStyle(numberFormat: "0.00"))
        let column = { (label: ReportLocale.FitnessLabel, format: XLSXFormat?) in XLSXTable.Column(locale.fitness(label), format: format) }
        summary = try book.addWorksheet(named: locale.fitness(.summarySheet))
        users = try XLSXTable(workbook: book, name: locale.fitness(.users), columns: [
            column(.userId, nil), XLSXTable.Column(locale.label(.period), format: month), column(.days, integer),
            column(.avgScore, oneDecimal), column(.bestScore, oneDecimal), column(.daysAt10kSteps, integer),
        ])
        scores = try XLSXTable(workbook: book, name: locale.fitness(.scoresSheet), columns: [
            column(.userId, nil), column(.date, date), column(.steps, integer), column(.activeCalories, oneDecimal),
            column(.walkingDistanceKm, twoDecimals), column(.score, oneDecimal),
        ])
    }

    /// Adds one user's month: their days and their summary.
    public func add(_ summary: ActivitySummary, days: [DailyActivity]) throws {
        try users.appendRow { row in
            try row.write(summary.userId)
            try row.write(period.firstDay)
            try row.write(Int64(summary.days))
            try row.write(Self.rounded(summary.averageScore, 1))
            try row.write(Self.rounded(summary.bestScore, 1))
            try row.write(Int64(summary.daysAt10kSteps))
        }
        for day in days {
            try scores.appendRow { row in
                try row.write(day.userId)
                try row.write(day.date)
                try row.write(Int64(day.steps.rounded(.toNearestOrAwayFromZero)))
                try row.write(Self.rounded(day.activeCalories, 1))
                try row.write(Self.rounded(day.walkingDistanceKm, 2))
                try row.write(Self.rounded(day.score, 1))
            }
        }
        if summary.days > 0 { bins[min(Int(summary.averageScore / 10), 9)] += 1 }
    }

    /// Writes the summary sheet and its chart, finishes the tables and writes the file.
    public func close() throws {
        try users.finish()
        try scores.finish()
        summary.fitsColumnWidths = false
        try summary.write("\(locale.fitness(.scoreDistribution)) — \(locale.formatMonth(period))", row: 0, column: 0,
                          format: try book.format(.title))
        summary.fitsColumnWidths = true
        let header = try book.format(.header)
        try summary.write(locale.fitness(.avgScore), row: 2, column: 0, format: header)
        try summary.write(locale.fitness(.users), row: 2, column: 1, format: header)
        let integer = try book.format(.integer)
        for (i, count) in bins.enumerated() {
            try summary.write("\(i * 10)–\(i * 10 + 10)", row: 3 + i, column: 0)
            try summary.write(Int64(count), row: 3 + i, column: 1, format: integer)
        }
        let chart = try book.addChart(.column)
        try chart.addSeries(name: locale.fitness(.users), categories: .column(0, rows: 3...12, of: summary),
                            values: .column(1, rows: 3...12, of: summary))
        try chart.setTitle(locale.fitness(.scoreDistribution))
        try chart.setAxisNames(category: locale.fitness(.avgScore), value: locale.fitness(.users))
        try chart.setLegend(.none)
        try summary.insertChart(chart, row: 2, column: 3, xScale: 1.4, yScale: 1.2)
        try book.close()
    }

    /// `value` rounded half away from zero to `decimals`, as the CSVs show it.
    static func rounded(_ value: Double, _ decimals: Int) -> Double {
        Double(ActivityScore.format(value, decimals: decimals)) ?? value
    }
}
