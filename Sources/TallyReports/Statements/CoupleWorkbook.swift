import TallyCore

/// One couple's statement as a workbook (`statements/<coupleId>.xlsx`): the
/// file a couple (or a group sharing a space) is sent, in the report locale.
///
/// Sheets:
/// - Statement (`Extrato`): the title ("Extrato do casal …", or "… do grupo …"
///   for more than two members) over the facts (currency, members, expenses
///   counted, rows left out); first who owes whom as sentences ("Ana deve
///   R$ 10,00 a Bia", or "Tudo acertado") with what a balance's sign means,
///   and each member's net for the month (paid − share); the month's rows
///   that did not count, each with its date, amount and why in the locale
///   (up to 100, then a line counting the rest); what is worth checking
///   ("Vale conferir": the same expense twice, a settlement larger than what
///   its payer owed); the balances per member with a total row; spending by
///   category (named by ``CategoryLabels``) with each member's share (past
///   the sheet's rows, the smallest categories added up on one line: "Outras
///   1.204 categorias"); the spending trend; the recurring agreements in
///   force (amount, payer, split, next date, end date or "sem data de
///   término", occurrences and amount remaining); the month's exchange rates
///   (per currency and rate: amount as entered, rate, the date of its fx
///   row, expenses, converted amount); and two native charts (spending by
///   category, the trend), one below the other under the tables.
/// - Expenses (`Despesas`): every expense counted in the month, by date:
///   date, description, category, payer, amount, the original amount and the
///   fx rate when it was converted, each member's share, the split in words
///   (`igual`, `62,5/37,5`, `partes 3/2`, `exato`, `integral (Ana)`), and a
///   note for refunds and recurring agreements; a total row (the shares' totals are
///   the balances' share column); then the month's settlements. Past Excel's
///   1,048,576 rows they continue on `Despesas (2)`, `Despesas (3)`, … each
///   with the title (marked "continuação, linhas N–M") and the header.
///
/// Money is a number in the couple's currency format (the original amount
/// in its own currency's format), so no currency column is needed, converted
/// once from integer minor units and stored as its exact decimal text
/// (``XLSXExactNumbers``: `936.43`, never `936.4299999999999`). Both
/// sheets print landscape, one page wide, the expenses' heading repeated on
/// every page. The creation date is the period's first day: the same
/// statement gives the same bytes.
///
/// ```swift
/// let statement = StatementBuilder.build(ledger, period: october, fx: fx, itemised: true)
/// try CoupleWorkbook.write(statement, to: "out/statements/c1.xlsx", locale: .ptBR)
/// ```
public enum CoupleWorkbook {
    /// Writes `statement` (built with `itemised: true`) to `path`, its categories named by `categories`
    /// (the locale's built-in labels when nil); `maxRowsPerSheet` is Excel's limit unless lowered (for tests).
    /// - Throws: ``XLSXError`` when the statement has no itemised month or writing fails.
    public static func write(_ statement: CoupleStatement, to path: String, locale: ReportLocale,
                             categories: CategoryLabels? = nil, maxRowsPerSheet: Int = XLSXWorkbook.excelMaxRows) throws {
        guard let month = statement.itemised else {
            throw XLSXError.invalidArgument(file: path, reason: "statement of couple '\(statement.couple.id)' was built without its itemised month")
        }
        let name = statement.couple.name.isEmpty ? statement.couple.id : statement.couple.name
        let title = locale.statementTitle(spaceName: name, members: statement.balances.count, period: statement.period)
        // Thousands of small workbooks: their parts' temporary files are cheapest in RAM (see ramTemporaryDirectory).
        let book = try XLSXWorkbook(path: path, options: XLSXWorkbook.Options(
            temporaryDirectory: XLSXWorkbook.ramTemporaryDirectory, created: statement.period.firstDay,
            title: title, subject: statement.period.description, author: "tally", maxRowsPerSheet: maxRowsPerSheet,
            printSetup: XLSXPrintSetup.standard.on(locale.paper)))
        let writer = try Writer(book: book, statement: statement, month: month, locale: locale,
                                labels: categories ?? CategoryLabels(locale: locale), spaceName: name)
        try writer.writeStatementSheet(title: title)
        try writer.writeExpensesSheet()
        try book.close()
        try XLSXExactNumbers.rewrite(path: path)
    }

    /// The formats and helpers of one workbook.
    private struct Writer {
        let book: XLSXWorkbook
        let statement: CoupleStatement
        let month: ItemisedMonth
        let locale: ReportLocale
        let labels: CategoryLabels
        let spaceName: String
        let currency: Currency
        let names: [String: String]
        /// The members' ids in the order of the balances (and of each expense's shares).
        let memberIds: [String]
        let title, subtitle, section, header, headerRight, text, date, rate: XLSXFormat
        let money, moneyHighlighted, moneyTotal, totalText: XLSXFormat
        /// Text (and a date) after a right-aligned amount, indented so the two never touch (and its heading).
        let textAfterAmount, dateAfterAmount, headerAfterAmount: XLSXFormat
        /// An amount as a row wrote it (text, right-aligned as amounts are).
        let writtenAmount: XLSXFormat

        init(book: XLSXWorkbook, statement: CoupleStatement, month: ItemisedMonth, locale: ReportLocale, labels: CategoryLabels,
             spaceName: String) throws {
            self.book = book
            self.statement = statement
            self.month = month
            self.locale = locale
            self.labels = labels
            self.spaceName = spaceName
            currency = statement.couple.currency
            names = Dictionary(statement.balances.map { ($0.memberId, $0.displayName) }, uniquingKeysWith: { a, _ in a })
            memberIds = statement.balances.map(\.memberId)
            title = try book.format(.title)
            subtitle = try book.format(XLSXStyle(italic: true))
            section = try book.format(XLSXStyle(bold: true, fontSize: 12))
            header = try book.format(.header)
            var right = XLSXStyle.header
            right.alignment = .right
            headerRight = try book.format(right)
            text = try book.format(.plain)
            // Left-aligned, so a date never touches the description beside it.
            date = try book.format(XLSXStyle(numberFormat: locale.excelDateFormat, alignment: .left))
            // Every digit of a rate (up to 12 decimals), at least 2.
            rate = try book.format(XLSXStyle(numberFormat: "0.00##########"))
            let moneyStyle = XLSXStyle.money(locale.excelMoneyFormat(for: currency))
            money = try book.format(moneyStyle)
            moneyHighlighted = try book.format(moneyStyle.highlighted)
            moneyTotal = try book.format(moneyStyle.bolded.highlighted)
            totalText = try book.format(XLSXStyle.highlight.bolded)
            textAfterAmount = try book.indentedLeft(.plain)
            dateAfterAmount = try book.indentedLeft(XLSXStyle(numberFormat: locale.excelDateFormat, alignment: .left))
            headerAfterAmount = try book.indentedLeft(.header)
            writtenAmount = try book.format(XLSXStyle(alignment: .right))
        }

        func moneyFormat(_ other: Currency) throws -> XLSXFormat {
            other == currency ? money : try book.format(.money(locale.excelMoneyFormat(for: other)))
        }

        func name(_ memberId: String) -> String { names[memberId] ?? memberId }

        /// A table's heading row; the headings of `numeric` columns are right-aligned, like their numbers.
        func writeHeader(_ headings: [String], on sheet: XLSXWorksheet, row: Int, numeric: Range<Int>) throws {
            for (column, heading) in headings.enumerated() {
                try sheet.write(heading, row: row, column: column, format: numeric.contains(column) ? headerRight : header)
            }
        }

        // MARK: Statement sheet

        func writeStatementSheet(title heading: String) throws {
            // Bounded but for the categories: a row per member (each member is also a column of the expenses, which
            // Excel's 16,384 columns bound), per transfer (fewer than the members) and per trend month (at most 36);
            // the categories past what fits are added up on one line (categoryLines(from:)).
            let sheet = try book.addWorksheet(named: locale.statementWord(.statementSheet))
            let balances = statement.balances
            try sheet.writeSpanning(heading, row: 0, format: title)
            try sheet.writeSpanning(locale.statementFacts(statement), row: 1, format: subtitle)

            // Who owes whom first, in words: what a member reads the statement for.
            var row = 3
            try sheet.writeSpanning(locale.statementWord(.whoOwesWhom), row: row, format: section)
            row += 1
            for sentence in locale.owesLines(statement) {
                try sheet.writeSpanning(sentence, row: row, format: text)
                row += 1
            }
            if statement.method == .greedy, !statement.transfers.isEmpty {
                try sheet.writeSpanning("(\(locale.statementWord(.greedyNote)))", row: row, format: subtitle)
                row += 1
            }
            try sheet.writeSpanning(locale.statementWord(.balanceSign), row: row, format: subtitle)
            row += 2

            // The month's net per member: what the month alone adds to each balance.
            try writeHeader([locale.label(.member), locale.statementWord(.monthNet)], on: sheet, row: row, numeric: 1..<2)
            row += 1
            for line in balances {
                try sheet.write(line.displayName, row: row, column: 0)
                try sheet.write(minor: line.paid - line.share, currency: currency, row: row, column: 1, format: money)
                row += 1
            }
            row += 1

            // What did not count: the month's rows sent but left out, each with why.
            if statement.notCounted > 0 {
                row = try writeLeftOut(on: sheet, row: row)
            }

            // What looks like a mistake: the same expense twice, a settlement larger than what its payer owed.
            if !statement.auditNotes.isEmpty {
                row = try writeAuditNotes(on: sheet, row: row)
            }

            // Opening balances that differ from the closing balances sent the month before, and why.
            if let restated = statement.restated {
                row = try writeRestated(restated, on: sheet, row: row)
            }

            // Balances.
            try sheet.writeSpanning(locale.label(.balancesSheet), row: row, format: section)
            row += 1
            try writeHeader([locale.label(.member), locale.label(.opening), locale.label(.paid), locale.label(.share),
                             locale.label(.settlementsSent), locale.label(.settlementsReceived), locale.label(.closing)],
                            on: sheet, row: row, numeric: 1..<7)
            row += 1
            var totals = [Int64](repeating: 0, count: 6)
            for line in balances {
                let amounts = [line.opening, line.paid, line.share, line.settlementsSent, line.settlementsReceived, line.closing]
                try sheet.write(line.displayName, row: row, column: 0)
                for (i, amount) in amounts.enumerated() {
                    let format = i == 5 && amount != 0 ? moneyHighlighted : money
                    try sheet.write(minor: amount, currency: currency, row: row, column: i + 1, format: format)
                    totals[i] += amount
                }
                row += 1
            }
            try sheet.write(locale.label(.total), row: row, column: 0, format: totalText)
            for (i, amount) in totals.enumerated() {
                try sheet.write(minor: amount, currency: currency, row: row, column: i + 1, format: moneyTotal)
            }
            row += 2

            // Spending by category, with each member's share.
            try sheet.writeSpanning(locale.label(.spendingByCategory), row: row, format: section)
            row += 1
            var categoryRows: ClosedRange<Int>?
            if statement.categories.isEmpty {
                try sheet.writeSpanning(locale.statementWord(.noSpending), row: row, format: text)
                row += 1
            } else {
                try writeHeader([locale.label(.tag), locale.label(.amount)] + balances.map(\.displayName),
                                on: sheet, row: row, numeric: 1..<(2 + balances.count))
                row += 1
                let first = row
                var total: Int64 = 0
                var shareTotals = [Int64](repeating: 0, count: balances.count)
                for (name, category) in categoryLines(from: row) {
                    try sheet.write(name, row: row, column: 0)
                    try sheet.write(minor: category.amount, currency: currency, row: row, column: 1, format: money)
                    total += category.amount
                    for (i, line) in balances.enumerated() {
                        let share = category.shareByMember[line.memberId] ?? 0
                        try sheet.write(minor: share, currency: currency, row: row, column: i + 2, format: money)
                        shareTotals[i] += share
                    }
                    row += 1
                }
                categoryRows = first...(row - 1)
                try sheet.write(locale.label(.total), row: row, column: 0, format: totalText)
                try sheet.write(minor: total, currency: currency, row: row, column: 1, format: moneyTotal)
                for (i, share) in shareTotals.enumerated() {
                    try sheet.write(minor: share, currency: currency, row: row, column: i + 2, format: moneyTotal)
                }
                row += 1
            }
            row += 1

            // The trend.
            var trendRows: ClosedRange<Int>?
            if !statement.trend.isEmpty {
                try sheet.writeSpanning(locale.statementWord(.trend), row: row, format: section)
                row += 1
                try writeHeader([locale.statementWord(.month), locale.label(.amount)], on: sheet, row: row, numeric: 1..<2)
                row += 1
                let first = row
                for point in statement.trend {
                    try sheet.write(locale.formatShortMonth(point.month), row: row, column: 0)
                    try sheet.write(minor: point.amount, currency: currency, row: row, column: 1, format: money)
                    row += 1
                }
                trendRows = first...(row - 1)
                row += 1
            }

            // The agreements in force, then the month's exchange rates.
            if !statement.agreementsInForce.isEmpty {
                row = try writeAgreements(on: sheet, row: row)
            }
            if !statement.conversions.isEmpty {
                row = try writeConversions(on: sheet, row: row)
            }

            // Charts under the tables, one below the other: the columns' widths are fitted when the
            // workbook closes, so a chart beside another could reach into it. (Only a sheet of a few
            // rows, a lowered limit in tests, has no row for the second chart: it is left out.)
            if let rows = categoryRows {
                try insertChart(.column, title: locale.label(.spendingByCategory), rows: rows, on: sheet, row: row, column: 0)
                row += Self.chartRows + 1
            }
            if let rows = trendRows, row < book.options.maxRowsPerSheet {
                try insertChart(.line, title: locale.statementWord(.trend), rows: rows, on: sheet, row: row, column: 0)
            }
        }

        /// The rows a chart of the statement sheet covers: its height (libxlsxwriter's 288 pixels) over
        /// default rows, rounded up.
        static let chartRows = Int((288 / XLSXPrintSetup.rowHeight).rounded(.up))

        /// The month's rows that do not count from `row` on: a heading, a note, then date, amount (in the
        /// currency entered) and what the row was with why it does not count, then the rows that could
        /// not be read (date and amount as written, as text), up to ``leftOutShown`` rows and a line
        /// counting the rest; returns the row after a blank one.
        func writeLeftOut(on sheet: XLSXWorksheet, row first: Int) throws -> Int {
            var row = first
            try sheet.writeSpanning(locale.statementWord(.leftOut), row: row, format: section)
            row += 1
            try sheet.writeSpanning(locale.statementWord(.leftOutNote), row: row, format: subtitle)
            row += 1
            try writeHeader([locale.statementWord(.date), locale.label(.amount)], on: sheet, row: row, numeric: 1..<2)
            try sheet.write(locale.statementWord(.description), row: row, column: 2, format: headerAfterAmount)
            row += 1
            row = try writeCapped(statement.notCountedRows, total: statement.notCounted, on: sheet, from: row) { notCounted, row in
                switch notCounted {
                case .leftOut(let left):
                    try sheet.write(left.date, row: row, column: 0, format: date)
                    try sheet.write(minor: left.amount, currency: left.currency, row: row, column: 1,
                                    format: try moneyFormat(left.currency))
                case .refused(let refused):
                    if let day = refused.date {
                        try sheet.write(day, row: row, column: 0, format: date)
                    } else {
                        try sheet.write(locale.refusedDate(refused), row: row, column: 0, format: text)
                    }
                    try sheet.write(locale.refusedAmount(refused), row: row, column: 1, format: writtenAmount)
                }
                try sheet.writeSpanning(locale.notCountedLine(notCounted), row: row, column: 2, format: textAfterAmount)
            }
            return row + 1
        }

        /// The most rows the statement sheet lists as not counted, and the most notes worth checking and
        /// agreements in force: the couple's text statement lists them all.
        static let leftOutShown = 100

        /// Writes the first ``leftOutShown`` of `items` with `writeRow`, a row each from `first` on, then a line
        /// counting the rest of the `total` and naming the text statement that lists them all
        /// (``ReportLocale/otherRows(_:allIn:)``); returns the row after the last one written.
        func writeCapped<Items: Collection>(_ items: Items, total: Int, on sheet: XLSXWorksheet, from first: Int,
                                            _ writeRow: (Items.Element, Int) throws -> Void) throws -> Int {
            var row = first
            for item in items.prefix(Self.leftOutShown) {
                try writeRow(item, row)
                row += 1
            }
            if total > Self.leftOutShown {
                let textFile = CoupleFileName.stem(for: statement.couple.id) + ".txt"
                try sheet.writeSpanning(locale.otherRows(total - Self.leftOutShown, allIn: textFile), row: row, format: subtitle)
                row += 1
            }
            return row
        }

        /// The month's notes worth checking from `row` on: a heading, a note saying nothing was changed, then one
        /// sentence per note (up to ``leftOutShown``, then a line counting the rest); returns the row after a blank one.
        func writeAuditNotes(on sheet: XLSXWorksheet, row first: Int) throws -> Int {
            var row = first
            try sheet.writeSpanning(locale.statementWord(.checkThese), row: row, format: section)
            row += 1
            try sheet.writeSpanning(locale.statementWord(.checkTheseNote), row: row, format: subtitle)
            row += 1
            row = try writeCapped(statement.auditNotes, total: statement.auditNotes.count, on: sheet, from: row) { note, row in
                try sheet.writeSpanning(locale.auditSentence(note, currency: currency, names: names), row: row, format: text)
            }
            return row + 1
        }

        /// A restated opening from `row` on: a heading, why, each member's balance as sent and now, then the rows
        /// dated before the month that were delivered since (up to ``leftOutShown``, then a line counting the rest);
        /// returns the row after a blank one.
        func writeRestated(_ restated: RestatedOpening, on sheet: XLSXWorksheet, row first: Int) throws -> Int {
            var row = first
            try sheet.writeSpanning(locale.restatedHeading, row: row, format: section)
            row += 1
            try sheet.writeSpanning(locale.restatedNote(restated.month), row: row, format: subtitle)
            row += 1
            try writeHeader(locale.restatedHeadings(restated.month), on: sheet, row: row, numeric: 1..<4)
            row += 1
            for b in restated.balances {
                try sheet.write(b.displayName, row: row, column: 0)
                try sheet.write(minor: b.published, currency: currency, row: row, column: 1, format: money)
                try sheet.write(minor: b.now, currency: currency, row: row, column: 2, format: money)
                try sheet.write(minor: b.difference, currency: currency, row: row, column: 3,
                                format: b.difference != 0 ? moneyHighlighted : money)
                row += 1
            }
            row += 1
            guard !restated.rows.isEmpty else {
                try sheet.writeSpanning(locale.restatedNoRows, row: row, format: text)
                return row + 2
            }
            try sheet.writeSpanning(locale.restatedRowsHeading, row: row, format: subtitle)
            row += 1
            try writeHeader(locale.restatedRowHeadings, on: sheet, row: row, numeric: 4..<5)
            // The file, indented: its text never touches the amount beside it.
            try sheet.write(locale.restatedRowHeadings[5], row: row, column: 5, format: headerAfterAmount)
            row += 1
            row = try writeCapped(restated.rows, total: restated.rows.count, on: sheet, from: row) { item, row in
                let cells = locale.restatedRowCells(item)
                if let date = item.date {
                    try sheet.write(date, row: row, column: 0, format: self.date)
                }
                for column in [1, 2, 3] { try sheet.write(cells[column], row: row, column: column, format: text) }
                try sheet.write(cells[5], row: row, column: 5, format: textAfterAmount)
                if let amount = item.amount, let itemCurrency = item.currency {
                    try sheet.write(minor: amount, currency: itemCurrency, row: row, column: 4, format: try moneyFormat(itemCurrency))
                }
            }
            return row + 1
        }

        /// The rows ``writeAgreements(on:row:)`` takes, the blank one after included.
        static func agreementRows(_ statement: CoupleStatement) -> Int {
            let count = statement.agreementsInForce.count
            return count == 0 ? 0 : 3 + min(count, leftOutShown) + (count > leftOutShown ? 1 : 0)
        }

        /// The agreements in force from `row` on: a heading, then per agreement its description, amount (in its own
        /// currency), payer, split, next date (or `termina neste mês`), end date (or `sem data de término`) and, when it
        /// has an end, the occurrences and amount remaining after the month (columns left out when none has an end),
        /// up to ``leftOutShown`` agreements and a line counting the rest; returns the row after a blank one.
        func writeAgreements(on sheet: XLSXWorksheet, row first: Int) throws -> Int {
            var row = first
            try sheet.writeSpanning(locale.statementWord(.agreementsInForce), row: row, format: section)
            row += 1
            // What remains only when some agreement has an end date.
            let ends = statement.agreementsInForce.contains { $0.remainingOccurrences != nil }
            let headings = [locale.statementWord(.description), locale.label(.amount), locale.statementWord(.paidBy),
                            locale.statementWord(.split), locale.statementWord(.nextDate), locale.statementWord(.endDate)]
                + (ends ? [locale.statementWord(.remaining), locale.statementWord(.remainingAmount)] : [])
            for (column, heading) in headings.enumerated() {
                let format = [1, 6, 7].contains(column) ? headerRight : column == 2 ? headerAfterAmount : header
                try sheet.write(heading, row: row, column: column, format: format)
            }
            row += 1
            let integer = try book.format(.integer)
            row = try writeCapped(statement.agreementsInForce, total: statement.agreementsInForce.count, on: sheet, from: row) { item, row in
                let agreement = item.agreement
                let amountFormat = try moneyFormat(agreement.currency)
                try sheet.write(TextLines.oneLine(agreement.description), row: row, column: 0)
                try sheet.write(minor: agreement.amount, currency: agreement.currency, row: row, column: 1, format: amountFormat)
                try sheet.write(name(agreement.paidBy), row: row, column: 2, format: textAfterAmount)
                try sheet.write(locale.splitWords(agreement.split, memberIds: memberIds, names: names), row: row, column: 3)
                if let next = item.nextDate {
                    try sheet.write(next, row: row, column: 4, format: date)
                } else {
                    try sheet.write(locale.statementWord(.endsThisMonth), row: row, column: 4)
                }
                if let end = agreement.endDate {
                    try sheet.write(end, row: row, column: 5, format: date)
                } else {
                    try sheet.write(locale.statementWord(.noEndDate), row: row, column: 5)
                }
                if let remaining = item.remainingOccurrences {
                    try sheet.write(Int64(remaining), row: row, column: 6, format: integer)
                }
                if let amount = item.remainingAmount {
                    try sheet.write(minor: amount, currency: agreement.currency, row: row, column: 7, format: amountFormat)
                }
            }
            return row + 1
        }

        /// The rows ``writeConversions(on:row:)`` takes, the blank one after included.
        static func conversionRows(_ statement: CoupleStatement) -> Int {
            statement.conversions.isEmpty ? 0
                : 4 + statement.conversions.reduce(0) { $0 + $1.rates.count + ($1.rates.count > 1 ? 1 : 0) }
        }

        /// The month's exchange rates from `row` on: a heading, a note on the rule, then per currency and rate the
        /// amount as entered, the rate, the date of its fx row, the expenses it converted and what they came to (a
        /// currency converted at several rates gets a total line); returns the row after a blank one.
        func writeConversions(on sheet: XLSXWorksheet, row first: Int) throws -> Int {
            var row = first
            try sheet.writeSpanning(locale.statementWord(.exchangeRates), row: row, format: section)
            row += 1
            try sheet.writeSpanning(locale.statementWord(.exchangeRatesNote), row: row, format: subtitle)
            row += 1
            let headings = [locale.label(.currency), locale.statementWord(.originalAmount), locale.statementWord(.rate),
                            locale.statementWord(.rateDate), locale.statementWord(.expensesColumn), locale.statementWord(.convertedAmount)]
            for (column, heading) in headings.enumerated() {
                try sheet.write(heading, row: row, column: column, format: column == 0 ? header : column == 3 ? headerAfterAmount : headerRight)
            }
            row += 1
            let integer = try book.format(.integer)
            let totalInteger = try book.format(XLSXStyle.integer.bolded.highlighted)
            for currencyLines in statement.conversions {
                let original = try moneyFormat(currencyLines.currency)
                for use in currencyLines.rates {
                    try sheet.write(currencyLines.currency.code, row: row, column: 0)
                    try sheet.write(minor: use.original, currency: currencyLines.currency, row: row, column: 1, format: original)
                    try sheet.write(Double(use.rate.description) ?? 0, row: row, column: 2, format: rate)
                    try sheet.write(use.rateDate, row: row, column: 3, format: dateAfterAmount)
                    try sheet.write(Int64(use.count), row: row, column: 4, format: integer)
                    try sheet.write(minor: use.converted, currency: currency, row: row, column: 5, format: money)
                    row += 1
                }
                if currencyLines.rates.count > 1 {
                    let originalTotal = try book.format(original.style.bolded.highlighted)
                    try sheet.write("\(locale.label(.total)) \(currencyLines.currency.code)", row: row, column: 0, format: totalText)
                    try sheet.write(minor: currencyLines.original, currency: currencyLines.currency, row: row, column: 1, format: originalTotal)
                    for column in 2...3 { try sheet.write(blankAt: row, column: column, format: totalText) }
                    try sheet.write(Int64(currencyLines.count), row: row, column: 4, format: totalInteger)
                    try sheet.write(minor: currencyLines.converted, currency: currency, row: row, column: 5, format: moneyTotal)
                    row += 1
                }
            }
            return row + 1
        }

        /// The category lines of the statement sheet from `row` on, each with its name: every category, unless
        /// with the total, the trend and the charts under them they would pass the sheet's rows; the categories
        /// past those that fit are then added up on one line, `Outras 1.204 categorias`.
        func categoryLines(from row: Int) -> [(name: String, total: CategoryTotal)] {
            let categories = statement.categories
            // Under the lines: the total, a blank row, the trend (heading, header, months, a blank row), the agreements
            // in force, the exchange rates, the first chart's row and, with a trend, the trend chart's, below the first.
            let under = 3 + (statement.trend.isEmpty ? 0 : 3 + statement.trend.count + Self.chartRows + 1)
                + Self.agreementRows(statement) + Self.conversionRows(statement)
            let room = book.options.maxRowsPerSheet - row - under
            let shown = XLSXRowBudget.cap(counts: [categories.count], extraRowsEach: 0, within: room) ?? categories.count
            var lines = categories.prefix(shown).map { (name: labels.name($0.tag), total: $0) }
            let rest = categories.dropFirst(shown)
            if !rest.isEmpty {
                var sum = CategoryTotal(tag: "", amount: 0, shareByMember: [:])
                for category in rest {
                    sum.amount += category.amount
                    sum.shareByMember.merge(category.shareByMember, uniquingKeysWith: +)
                }
                lines.append((locale.otherCategories(rest.count), sum))
            }
            return lines
        }

        /// A chart of the amounts in column B of `rows` against the labels in column A, placed at (`row`, `column`).
        func insertChart(_ kind: XLSXChart.Kind, title: String, rows: ClosedRange<Int>, on sheet: XLSXWorksheet,
                         row: Int, column: Int) throws {
            let chart = try book.addChart(kind)
            try chart.addSeries(name: locale.label(.amount), categories: .column(0, rows: rows, of: sheet),
                                values: .column(1, rows: rows, of: sheet))
            try chart.setTitle(title)
            try chart.setValueAxisNumberFormat(money.style.numberFormat ?? "General")
            try chart.setLegend(.none)
            try sheet.insertChart(chart, row: row, column: column, xScale: 1.2, yScale: 1)
        }

        // MARK: Expenses sheet

        /// The expenses, then their total, then the month's settlements. Past a sheet's rows they
        /// continue on `Despesas (2)`, … whose title says which expenses it holds.
        func writeExpensesSheet() throws {
            let balances = statement.balances
            // Dates left-aligned, so a date never touches the description beside it; the split (text after the shares) is
            // indented, heading and cells, by XLSXTable.
            let columns: [XLSXTable.Column] = [
                .init(locale.statementWord(.date), format: date, alignment: .left), .init(locale.statementWord(.description)),
                .init(locale.label(.tag)), .init(locale.statementWord(.paidBy)), .init(locale.label(.amount), format: money),
                .init(locale.statementWord(.originalAmount), alignment: .right), .init(locale.statementWord(.rate), alignment: .right),
            ] + balances.map { .init($0.displayName, format: money) }
                + [.init(locale.statementWord(.split)), .init(locale.statementWord(.note))]
            let table = try XLSXTable(workbook: book, name: locale.statementWord(.expensesSheet), columns: columns,
                                      headerFormat: header, layout: expensesLayout())

            var total: Int64 = 0
            var shareTotals = [Int64](repeating: 0, count: balances.count)
            for line in month.expenses {
                let expense = line.expense
                try table.appendRow { row in
                    try row.write(expense.date)
                    // A description with line breaks (exports have them) on one line: a cell does not grow to show more.
                    try row.write(TextLines.oneLine(expense.description))
                    try row.write(labels.name(expense.tag))
                    try row.write(name(expense.paidBy))
                    try row.write(minor: expense.amount, currency: currency)
                    try writeConversion(expense.conversion, in: &row)
                    for i in shareTotals.indices {
                        guard i < line.shares.count else { try row.skip(); continue }
                        try row.write(minor: line.shares[i], currency: currency)
                        shareTotals[i] += line.shares[i]
                    }
                    try row.write(locale.splitWords(expense.split, memberIds: memberIds, names: names))
                    try row.write(noteText(line))
                }
                total += expense.amount
            }
            try table.finish()
            if month.expenses.isEmpty {
                try table.appendBelow { sheet, row in
                    try sheet.writeSpanning(locale.statementWord(.noExpenses), row: row, format: text)
                }
            } else {
                try table.appendBelow { sheet, row in
                    try sheet.write(locale.label(.total), row: row, column: 0, format: totalText)
                    for column in 1...3 { try sheet.write(blankAt: row, column: column, format: totalText) }
                    try sheet.write(minor: total, currency: currency, row: row, column: 4, format: moneyTotal)
                    for column in 5...6 { try sheet.write(blankAt: row, column: column, format: totalText) }
                    for (i, share) in shareTotals.enumerated() {
                        try sheet.write(minor: share, currency: currency, row: row, column: 7 + i, format: moneyTotal)
                    }
                    for column in (7 + balances.count)...(8 + balances.count) {
                        try sheet.write(blankAt: row, column: column, format: totalText)
                    }
                }
            }
            try table.appendBelow { _, _ in }
            try writeSettlements(below: table)
        }

        /// Each sheet of the expenses: the title (saying which expenses a continuation sheet holds), the
        /// label over the members' shares, then the header.
        func expensesLayout() -> XLSXTable.Layout {
            let heading = locale.expensesTitle(spaceName: spaceName, members: statement.balances.count, period: statement.period)
            let (locale, title, subtitle, count) = (locale, title, subtitle, month.expenses.count)
            return XLSXTable.Layout(titleRows: 2, widensForHeadings: false) { sheet, part in
                let text = part.isContinuation ? "\(heading) \(locale.continuationNote(rows: part.rows(of: count)))" : heading
                try sheet.writeSpanning(text, row: 0, format: title)
                sheet.fittedWidthRange = 6...40   // long descriptions and notes must not shrink the printed page
                // Each member's share under one label, with the member's name as the heading.
                try sheet.write(locale.statementWord(.sharesByMember), row: 1, column: 7, format: subtitle)
            }
        }

        /// The month's settlements under the expenses, continuing on the expenses' next sheet when one is full.
        func writeSettlements(below table: XLSXTable) throws {
            try table.appendBelow { sheet, row in
                try sheet.writeSpanning(locale.statementWord(.settlements), row: row, format: section)
            }
            if month.settlements.isEmpty {
                try table.appendBelow { sheet, row in
                    try sheet.writeSpanning(locale.statementWord(.noSettlements), row: row, format: text)
                }
                return
            }
            try table.appendBelow { sheet, row in
                try writeHeader([locale.statementWord(.date), locale.label(.fromName), locale.label(.toName), "",
                                 locale.label(.amount), locale.statementWord(.originalAmount), locale.statementWord(.rate)],
                                on: sheet, row: row, numeric: 4..<7)
            }
            for settlement in month.settlements {
                try table.appendBelow { sheet, row in
                    try sheet.write(settlement.date, row: row, column: 0, format: date)
                    try sheet.write(name(settlement.fromMember), row: row, column: 1)
                    try sheet.write(name(settlement.toMember), row: row, column: 2)
                    try sheet.write(minor: settlement.amount, currency: currency, row: row, column: 4, format: money)
                    try writeConversion(settlement.conversion, on: sheet, row: row, column: 5)
                }
            }
        }

        /// The original amount (in its own currency's format) and the rate, or nothing.
        func writeConversion(_ conversion: Conversion?, on sheet: XLSXWorksheet, row: Int, column: Int) throws {
            guard let conversion else { return }
            try sheet.write(minor: conversion.amount, currency: conversion.currency, row: row, column: column,
                            format: try moneyFormat(conversion.currency))
            try sheet.write(Self.rateValue(conversion), row: row, column: column + 1, format: rate)
        }

        /// ``writeConversion(_:on:row:column:)`` for an expense row: two cells, empty without a conversion.
        func writeConversion(_ conversion: Conversion?, in row: inout XLSXTable.Row) throws {
            guard let conversion else {
                try row.skip()
                try row.skip()
                return
            }
            try row.write(minor: conversion.amount, currency: conversion.currency, format: try moneyFormat(conversion.currency))
            try row.write(Self.rateValue(conversion), format: rate)
        }

        /// The nearest double to the exact decimal rate (parsing its text rounds correctly).
        static func rateValue(_ conversion: Conversion) -> Double {
            Double(conversion.rate.description) ?? 0
        }

        /// Refund and agreement marks: `reembolso`, `acordo recorrente`, `acordo recorrente (automático)`.
        func noteText(_ line: ItemisedExpense) -> String {
            var parts: [String] = []
            if line.isRefund { parts.append(locale.statementWord(.refund)) }
            if line.fromAgreement {
                parts.append(locale.statementWord(.agreementMonth))
            } else if line.expense.agreementId != nil {
                parts.append(locale.statementWord(.agreement))
            }
            return parts.joined(separator: "; ")
        }
    }
}
