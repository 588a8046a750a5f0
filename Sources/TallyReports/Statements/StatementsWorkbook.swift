import TallyCore

/// Streams couples' monthly statements into `statements.xlsx`.
///
/// Sheets, in order (names and headings in the report locale):
/// - Summary (`Resumo`): spending by category over all couples, one block
///   per currency (category, amount, share of the currency's total, couples)
///   with a total row, and a native column chart per currency. Written at
///   ``close()``. Were the blocks to pass the sheet's 1,048,576 rows, each
///   currency lists its largest tags up to a cap and adds up the rest on one
///   line ("Outras 1.204 categorias").
/// - Balances (`Saldos`): one row per member: couple id and name, period,
///   member id and name, currency, opening, paid, share, settlements sent and
///   received, closing (highlighted when not zero).
/// - Transfers (`Transferências`): one row per suggested transfer: couple,
///   period, from id/name, to id/name, amount (its format carries the
///   currency), and a note when a large group's transfers were found greedily
///   (possibly not the fewest).
/// - Categories (`Categorias`): one row per couple and tag: couple, period,
///   tag as people read it (``CategoryLabels``: `Saúde` for `saude`, the
///   untagged label for the empty tag), amount, currency.
///
/// Headers are bold and frozen with an autofilter; money is a number in the
/// couple's currency format (``ReportLocale/excelMoneyFormat(for:)``); the
/// period is a real date (the month's first day) shown as `mm/yyyy`; columns
/// are fitted to what was written. The workbook is written in constant-memory
/// mode, so memory stays flat however many couples are streamed; only the
/// per-currency category totals are kept for the summary. A sheet that would
/// pass Excel's 1,048,576 rows continues on `Saldos (2)`, … (see ``XLSXTable``).
///
/// Money is converted once from integer minor units and stored as its exact
/// decimal text (``XLSXExactNumbers``: `936.43`, never `936.4299999999999`).
///
/// Output is reproducible: the document's creation date is the period's
/// first day (00:00 UTC), never the clock.
public final class StatementsWorkbook {
    /// How the workbook is written.
    public struct Options: Sendable {
        /// Stream rows through temporary files (default true); false keeps everything in memory.
        public var constantMemory: Bool
        /// Where libxlsxwriter keeps its temporary files; nil for the system's.
        public var temporaryDirectory: String?
        /// Rows per sheet before continuing on another sheet; Excel's limit unless lowered (for tests).
        public var maxRowsPerSheet: Int
        /// The most categories drawn in each currency's chart (the largest ones; the table lists all).
        public var maxChartCategories: Int

        public init(constantMemory: Bool = true, temporaryDirectory: String? = nil,
                    maxRowsPerSheet: Int = XLSXWorkbook.excelMaxRows, maxChartCategories: Int = 25) {
            self.constantMemory = constantMemory
            self.temporaryDirectory = temporaryDirectory
            self.maxRowsPerSheet = maxRowsPerSheet
            self.maxChartCategories = maxChartCategories
        }
    }

    public let path: String
    public let locale: ReportLocale
    /// How categories are named on the Summary and Categories sheets.
    public let categoryLabels: CategoryLabels
    public let period: YearMonth
    /// Statements added so far.
    public private(set) var statementCount = 0

    private let book: XLSXWorkbook
    private let summary: XLSXWorksheet
    private let balances: XLSXTable
    private let transfers: XLSXTable
    private let categories: XLSXTable
    private let options: Options
    private let monthFormat: XLSXFormat
    private var moneyFormats: [Currency: (plain: XLSXFormat, highlighted: XLSXFormat)] = [:]
    /// Spending per currency and tag over all couples, and how many couples had the tag.
    private var spending: [Currency: [String: (amount: Int64, couples: Int)]] = [:]
    private var couplesPerCurrency: [Currency: Int] = [:]

    /// Starts `statements.xlsx` (or any `path`) for `period`, its categories named by `categories` (the
    /// locale's built-in labels when nil). The file is written by ``close()``.
    public init(path: String, locale: ReportLocale = .default, categories: CategoryLabels? = nil, period: YearMonth,
                options: Options = Options()) throws {
        self.path = path
        self.locale = locale
        categoryLabels = categories ?? CategoryLabels(locale: locale)
        self.period = period
        self.options = options
        let title = "\(locale.label(.statementTitle)) — \(locale.formatMonth(period))"
        book = try XLSXWorkbook(path: path, options: XLSXWorkbook.Options(
            constantMemory: options.constantMemory, temporaryDirectory: options.temporaryDirectory,
            created: period.firstDay, title: title, subject: period.description, author: "tally",
            maxRowsPerSheet: options.maxRowsPerSheet, printSetup: XLSXPrintSetup.standard.on(locale.paper)))
        monthFormat = try book.format(.date(locale.excelMonthFormat))
        let text = { (label: ReportLocale.Label) in XLSXTable.Column(locale.label(label)) }
        let month = XLSXTable.Column(locale.label(.period), format: monthFormat)
        // One block per currency, one row per tag: past the sheet's rows the smallest tags are added up (writeSummary).
        summary = try book.addWorksheet(named: locale.label(.summarySheet))
        balances = try XLSXTable(workbook: book, name: locale.label(.balancesSheet), columns: [
            text(.coupleId), text(.couple), month, text(.memberId), text(.displayName), text(.currency),
            text(.opening), text(.paid), text(.share), text(.settlementsSent), text(.settlementsReceived), text(.closing),
        ])
        transfers = try XLSXTable(workbook: book, name: locale.label(.transfersSheet), columns: [
            text(.coupleId), text(.couple), month, text(.from), text(.fromName), text(.to), text(.toName),
            text(.amount), XLSXTable.Column(locale.statementWord(.note), format: try book.indentedLeft(.plain)),
        ])
        self.categories = try XLSXTable(workbook: book, name: locale.label(.categoriesSheet), columns: [
            text(.coupleId), text(.couple), month, text(.tag), text(.amount), text(.currency),
        ])
    }

    /// Appends one couple's statement to the Balances, Transfers and Categories sheets.
    /// - Throws: ``XLSXError`` when writing fails or the statement is for another period.
    public func add(_ statement: CoupleStatement) throws {
        guard statement.period == period else {
            throw XLSXError.invalidArgument(file: path, reason: "statement of couple '\(statement.couple.id)' is for \(statement.period), not \(period)")
        }
        let couple = statement.couple
        let money = try moneyFormat(couple.currency)
        for line in statement.balances {
            try balances.appendRow { row in
                try row.write(couple.id)
                try row.write(couple.name)
                try row.write(period.firstDay)
                try row.write(line.memberId)
                try row.write(line.displayName)
                try row.write(couple.currency.code)
                for amount in [line.opening, line.paid, line.share, line.settlementsSent, line.settlementsReceived] {
                    try row.write(minor: amount, currency: couple.currency, format: money.plain)
                }
                try row.write(minor: line.closing, currency: couple.currency, format: line.closing == 0 ? money.plain : money.highlighted)
            }
        }
        if !statement.transfers.isEmpty {
            var names: [String: String] = [:]
            for line in statement.balances { names[line.memberId] = line.displayName }
            let note = statement.method == .greedy ? locale.statementWord(.greedyNote) : ""
            for transfer in statement.transfers {
                try transfers.appendRow { row in
                    try row.write(couple.id)
                    try row.write(couple.name)
                    try row.write(period.firstDay)
                    try row.write(transfer.from)
                    try row.write(names[transfer.from] ?? "")
                    try row.write(transfer.to)
                    try row.write(names[transfer.to] ?? "")
                    try row.write(minor: transfer.amount, currency: couple.currency, format: money.plain)
                    try row.write(note)
                }
            }
        }
        var totals = spending[couple.currency] ?? [:]
        for category in statement.categories {
            try categories.appendRow { row in
                try row.write(couple.id)
                try row.write(couple.name)
                try row.write(period.firstDay)
                try row.write(categoryLabels.name(category.tag))
                try row.write(minor: category.amount, currency: couple.currency, format: money.plain)
                try row.write(couple.currency.code)
            }
            let previous = totals[category.tag] ?? (0, 0)
            totals[category.tag] = (previous.amount + category.amount, previous.couples + 1)
        }
        spending[couple.currency] = totals
        couplesPerCurrency[couple.currency, default: 0] += 1
        statementCount += 1
    }

    /// Writes the summary sheet and its charts, finishes the tables and writes the file.
    public func close() throws {
        guard !book.isClosed else { throw XLSXError.closed(file: path) }
        try balances.finish()
        try transfers.finish()
        try categories.finish()
        try writeSummary()
        try book.close()
        try XLSXExactNumbers.rewrite(path: path)
    }

    private func moneyFormat(_ currency: Currency) throws -> (plain: XLSXFormat, highlighted: XLSXFormat) {
        if let cached = moneyFormats[currency] { return cached }
        let style = XLSXStyle.money(locale.excelMoneyFormat(for: currency))
        let formats = (try book.format(style), try book.format(style.highlighted))
        moneyFormats[currency] = formats
        return formats
    }

    private func writeSummary() throws {
        let titleFormat = try book.format(.title)
        let header = try book.format(.header)
        let percent = try book.format(.percent)
        let totalText = try book.format(XLSXStyle.highlight.bolded)
        let totalInteger = try book.format(XLSXStyle.integer.highlighted.bolded)
        let integer = try book.format(.integer)

        summary.fitsColumnWidths = false // the title spans several columns; fit only the table below it
        try summary.write("\(locale.label(.spendingByCategory)) — \(locale.formatMonth(period))", row: 0, column: 0, format: titleFormat)
        summary.fitsColumnWidths = true
        let headings: [ReportLocale.Label] = [.currency, .tag, .amount, .shareOfTotal, .couples]
        for (column, label) in headings.enumerated() {
            try summary.write(locale.label(label), row: 2, column: column, format: header)
        }
        try summary.freeze(rows: 3)

        var row = 3
        var chartIndex = 0
        let currencies = spending.keys.sorted()
        // Each currency takes its tags, a total and a blank row; past the sheet's rows, each lists its largest
        // tags up to a cap and adds up the rest on one line.
        let shown = XLSXRowBudget.cap(counts: currencies.map { spending[$0]!.count }, extraRowsEach: 2,
                                      within: summary.maxRows - 2) ?? Int.max
        for currency in currencies {
            let money = try moneyFormat(currency)
            let totalMoney = try book.format(money.plain.style.bolded.highlighted)
            let tags = spending[currency]!.sorted { a, b in
                a.value.amount != b.value.amount ? a.value.amount > b.value.amount
                    : a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
            }
            let total = tags.reduce(Int64(0)) { $0 + $1.value.amount }
            let firstRow = row
            let rest = tags.dropFirst(shown)
            let lines = tags.prefix(shown).map { (categoryLabels.name($0.key), $0.value.amount, Optional($0.value.couples)) }
                + (rest.isEmpty ? [] : [(locale.otherCategories(rest.count), rest.reduce(Int64(0)) { $0 + $1.value.amount }, nil)])
            for (name, amount, couples) in lines {
                try summary.write(currency.code, row: row, column: 0)
                try summary.write(name, row: row, column: 1)
                try summary.write(minor: amount, currency: currency, row: row, column: 2, format: money.plain)
                if total > 0 { try summary.write(Double(amount) / Double(total), row: row, column: 3, format: percent) }
                // A couple may have several of the tags added up: their couples are not counted.
                if let couples { try summary.write(Int64(couples), row: row, column: 4, format: integer) }
                row += 1
            }
            if !lines.isEmpty {
                try addChart(currency: currency, money: money.plain, rows: firstRow...min(row - 1, firstRow + options.maxChartCategories - 1), index: chartIndex)
                chartIndex += 1
            }
            try summary.write(currency.code, row: row, column: 0, format: totalText)
            try summary.write(locale.label(.total), row: row, column: 1, format: totalText)
            try summary.write(minor: total, currency: currency, row: row, column: 2, format: totalMoney)
            try summary.write(blankAt: row, column: 3, format: totalText)
            try summary.write(Int64(couplesPerCurrency[currency] ?? 0), row: row, column: 4, format: totalInteger)
            row += 2
        }
    }

    private func addChart(currency: Currency, money: XLSXFormat, rows: ClosedRange<Int>, index: Int) throws {
        let chart = try book.addChart(.column)
        try chart.addSeries(name: locale.label(.amount),
                            categories: .column(1, rows: rows, of: summary),
                            values: .column(2, rows: rows, of: summary))
        try chart.setTitle("\(locale.label(.spendingByCategory)) (\(currency.code))")
        try chart.setAxisNames(category: locale.label(.tag), value: "\(locale.label(.amount)) (\(currency.code))")
        try chart.setValueAxisNumberFormat(money.style.numberFormat ?? "General")
        try chart.setLegend(.none)
        try summary.insertChart(chart, row: 2 + index * 18, column: 6, xScale: 1.5, yScale: 1.2)
    }
}
