import TallyCore

/// Writes `kpis/kpis.xlsx`, the product team's monthly workbook (English
/// labels: an internal report).
///
/// Sheets, in order: Summary (headline figures against last month and the
/// targets), Swipes (with a line chart of daily swipes and matches),
/// Conversion (line chart by cohort), Paywall, MRR, MRR by plan (stacked
/// column chart per currency over the months), MRR movements, MRR movements
/// by month (stacked columns of the five buckets per currency), Revenue,
/// Churn, Retention (line chart by cohort), Retention curves (M1…M6
/// triangles in heat colours), Trials, Shared premium, App Store events
/// (with the comparison against tally: ``AppStoreReconciliation``),
/// Definitions (each KPI's numerator, denominator, window, rule and target,
/// from the configuration: ``KPIDefinition``). Rates are percentages,
/// changes of rates percentage points with a sign (`+22.2 pp`), money is in
/// its currency's format, months and days are real dates (the daily charts'
/// axis too). Status cells colour themselves against the targets
/// (conditional formats). Cohorts still inside their window say so
/// (`complete` = no, `vs target` = pending), are greyed in the tables and
/// left out of the cohort charts, whose value axis is fitted to the rates
/// and the targets (dashed lines). The creation date is the period's first
/// day, so the bytes are the same on every run.
///
/// Printed, every sheet is landscape on `paper` with narrow margins, and
/// columns are as wide as their headings and values: notes run as lines
/// over empty cells (``XLSXWorksheet/writeLines(_:row:column:width:format:)``)
/// and never widen a column; headings over numbers and money align right like
/// them. The Summary prints one page wide at a legible scale.
///
/// ```swift
/// try KPIWorkbook.write(report, path: "out/kpis/kpis.xlsx", paper: ReportLocale.ptBR.paper)   // A4
/// ```
public enum KPIWorkbook {
    /// Writes the workbook for `report` to `path`, printing on `paper`.
    ///
    /// `restated`: the KPI figures of months already published that read
    /// differently now (``RunChanges``), listed on the Summary under the totals.
    public static func write(_ report: KPIReport, path: String, paper: XLSXPrintSetup.Paper = .a4,
                             restated: [RunChanges.Restated] = []) throws {
        let book = try XLSXWorkbook(path: path, options: XLSXWorkbook.Options(
            created: report.period.firstDay, title: "Product KPIs — \(report.period)", subject: report.period.description,
            author: "tally", printSetup: XLSXPrintSetup.standard.narrow.on(paper)))
        var writer = try Writer(book: book, report: report)
        writer.restated = restated
        try writer.summary()
        try writer.swipes()
        try writer.conversion()
        try writer.paywall()
        try writer.mrr()
        try writer.mrrByPlan()
        try writer.movements()
        try writer.movementsByMonth()
        try writer.revenue()
        try writer.churn()
        try writer.retention()
        try writer.retentionCurves()
        try writer.trials()
        try writer.sharedPremium()
        try writer.appStoreEvents()
        try writer.definitions()
        try book.close()
        try XLSXExactNumbers.rewrite(path: path)
    }

    /// How a cohort table's `Complete` column marks a cohort still inside its window.
    static let openCohort = "no (window open)"

    /// The sheet writers, sharing the workbook's formats.
    private struct Writer {
        /// The daily charts' category axis: the date cells shown as days, not serial numbers.
        static let axisDay = "d mmm"
        /// The longest line of a note, in characters: about the width of the tables it explains.
        static let noteWidth = 110
        /// The Summary's Scope column, in characters; longer scopes are written on two lines.
        static let scopeWidth = 24.0
        /// The longest line of a note above a chart (1.6 × 480 pixels wide), in characters.
        static let chartNoteWidth = 100
        static var openCohort: String { KPIWorkbook.openCohort }
        /// The Definitions sheet's columns (KPI, numerator, denominator, window, rule, target), in characters.
        static let definitionWidths = [22, 28, 24, 28, 52, 12]

        let book: XLSXWorkbook
        let report: KPIReport
        let percent: XLSXFormat
        let integer: XLSXFormat
        let day: XLSXFormat
        let month: XLSXFormat
        let title: XLSXFormat
        let bold: XLSXFormat
        let signedInteger: XLSXFormat
        let points: XLSXFormat
        let note: XLSXFormat
        /// Headings: over text (left), over numbers and money (right), over text after numbers (indented).
        let header: XLSXFormat
        let rightHeader: XLSXFormat
        let indentedHeader: XLSXFormat
        /// Text aligned like the numbers around it, and text indented after them.
        let rightText: XLSXFormat
        let indentedBold: XLSXFormat
        let indentedText: XLSXFormat
        /// The Summary's scope: wraps within its column.
        let scope: XLSXFormat
        /// Conditional fills: a figure below its target, within it, above it, and a cohort still open.
        let belowFill: XLSXFormat
        let withinFill: XLSXFormat
        let aboveFill: XLSXFormat
        let openFill: XLSXFormat
        /// A currency without a rate to the reporting currency, under the rates.
        let noRate: XLSXFormat

        /// Figures of months already published that read differently now.
        var restated: [RunChanges.Restated] = []

        init(book: XLSXWorkbook, report: KPIReport) throws {
            self.book = book
            self.report = report
            percent = try book.format(.percent)
            integer = try book.format(.integer)
            day = try book.format(.date("yyyy-mm-dd"))
            month = try book.format(.date("yyyy-mm"))
            title = try book.format(.title)
            bold = try book.format(XLSXStyle(bold: true))
            signedInteger = try book.format(XLSXStyle(numberFormat: "+#,##0;-#,##0;0"))
            points = try book.format(XLSXStyle(numberFormat: "+0.0 \"pp\";-0.0 \"pp\";0.0 \"pp\""))
            note = try book.format(XLSXStyle(italic: true))
            header = try book.format(.header)
            rightHeader = try book.format(XLSXStyle(bold: true, fillColor: XLSXStyle.header.fillColor, bottomBorder: true, alignment: .right))
            indentedHeader = try book.indentedLeft(.header)
            rightText = try book.format(XLSXStyle(alignment: .right))
            indentedBold = try book.indentedLeft(XLSXStyle(bold: true))
            indentedText = try book.indentedLeft(XLSXStyle())
            scope = try book.format(XLSXStyle(wraps: true))
            belowFill = try book.format(XLSXStyle(fillColor: 0xF8CBAD))
            withinFill = try book.format(XLSXStyle(fillColor: 0xC6EFCE))
            aboveFill = try book.format(XLSXStyle(fillColor: 0x9BD39F))
            openFill = try book.format(XLSXStyle(fillColor: 0xE7E6E6))
            noRate = try book.format(XLSXStyle(fillColor: 0xF8CBAD, alignment: .right))
        }

        func money(_ currency: Currency) throws -> XLSXFormat {
            try book.format(.money(ReportLocale.enUS.excelMoneyFormat(for: currency)))
        }

        /// The currency's format with a `+` on gains: `+R$ 97.00`, `-R$ 97.00`.
        func signedMoney(_ currency: Currency) throws -> XLSXFormat {
            let positive = ReportLocale.enUS.excelMoneyFormat(for: currency).split(separator: ";")[0]
            return try book.format(.money("+\(positive);-\(positive);\(positive)"))
        }

        /// Colours the status cells of `rows` in `column`: below red, within green, above a deeper green, pending grey.
        func statusColours(_ sheet: XLSXWorksheet, rows: ClosedRange<Int>, column: Int) throws {
            for (status, fill) in [(TargetStatus.below, belowFill), (.within, withinFill), (.above, aboveFill), (.pending, openFill)] {
                try sheet.conditionalFormat(.equalTo(status.rawValue, fill), rows: rows, columns: column...column)
            }
        }

        func rate(_ row: inout XLSXTable.Row, _ rate: KPIRate) throws {
            if let value = rate.value { try row.write(value, format: percent) } else { try row.skip() }
        }

        func table(_ name: String, _ columns: [XLSXTable.Column], rows: (XLSXTable) throws -> Void) throws -> XLSXTable {
            let table = try XLSXTable(workbook: book, name: name, columns: columns)
            try rows(table)
            try table.finish()
            return table
        }

        /// Writes `names` as a heading row at `row`: right-aligned over the columns in `right`,
        /// indented over the text column right after a right-aligned one.
        func headings(_ names: [String], on sheet: XLSXWorksheet, row: Int, column: Int = 0, right: Set<Int>) throws {
            for (i, name) in names.enumerated() {
                let format = right.contains(i) ? rightHeader : (i > 0 && right.contains(i - 1) ? indentedHeader : header)
                try sheet.write(name, row: row, column: column + i, format: format)   // an empty name: a blank in the heading's fill
            }
        }

        func summary() throws {
            // Bounded: a fixed set of headlines per app and currency of the products catalogue, one MRR total per currency.
            let sheet = try book.addWorksheet(named: "Summary")
            try sheet.writeSpanning("Product KPIs — \(report.period)", row: 0, column: 0, format: title)
            let noteRows = try sheet.writeLines(
                "This month's figures against last month and against the product's targets. "
                + "Detail shows a rate's numerator / denominator; a rate's change is in percentage points (pp); "
                + "cohorts still inside their window are left out of headlines. Status: red below target, green within, deeper green above.",
                row: 1, column: 0, width: Self.noteWidth, format: note)
            let headerRow = 2 + noteRows
            // Metric, App, Scope | This month, Last month, Change, Target (right) | Status (indented) | Detail (right).
            try headings(["Metric", "App", "Scope", "This month", "Last month", "Change", "Target", "Status", "Detail"],
                         on: sheet, row: headerRow, right: [3, 4, 5, 6, 8])
            try sheet.setColumnWidth(2, Self.scopeWidth)
            let headlines = KPIHeadline.of(report)
            let first = headerRow + 1
            for (i, h) in headlines.enumerated() {
                let row = first + i
                try sheet.write(h.metric, row: row, column: 0, format: bold)
                try sheet.write(h.app, row: row, column: 1)
                // A long scope is broken into lines here, and its row given their height: viewers neither
                // grow a row for wrapped text on their own nor break it at the same words.
                let lines = XLSXWorksheet.lines(h.scope, width: Int(Self.scopeWidth))
                if lines.count > 1 { try sheet.setRowHeight(row, points: 15 * Double(lines.count)) }
                try sheet.write(lines.joined(separator: "\n"), row: row, column: 2, format: scope)
                try value(h.current, sheet: sheet, row: row, column: 3)
                if let previous = h.previous { try value(previous, sheet: sheet, row: row, column: 4) }
                switch h.change {
                case .count(let n)?: try sheet.write(Int64(n), row: row, column: 5, format: signedInteger)
                case .money(let minor, let c)?: try sheet.write(minor: minor, currency: c, row: row, column: 5, format: try signedMoney(c))
                case .points(let tenths)?: try sheet.write(Double(tenths) / 10, row: row, column: 5, format: points)
                case nil: break
                }
                if let target = h.target { try sheet.write(target, row: row, column: 6, format: rightText) }
                if let status = h.status, status != .unknown { try sheet.write(status.rawValue, row: row, column: 7, format: indentedBold) }
                if case .rate(let r) = h.current { try sheet.write("\(r.numerator) / \(r.denominator)", row: row, column: 8, format: rightText) }
            }
            if !headlines.isEmpty { try statusColours(sheet, rows: first...(first + headlines.count - 1), column: 7) }
            let after = try mrrTotals(sheet, row: first + headlines.count + 1)
            if !restated.isEmpty { try restatedFigures(sheet, row: after + 1) }
            try sheet.freeze(rows: headerRow + 1)
        }

        /// The MRR totals block of the Summary, from `row`: per currency, then the studio total or why there is none.
        /// Its amounts sit in the headline table's columns (MRR under This month, then Last month and Change), so
        /// every figure is under a heading that names it.
        /// Returns the row after the block.
        @discardableResult
        func mrrTotals(_ sheet: XLSXWorksheet, row first: Int) throws -> Int {
            let totals = report.mrrTotals
            try sheet.writeSpanning("MRR totals at end of \(report.period)", row: first, column: 0, format: bold)
            let target = totals.reportingCurrency
            let names = ["Currency", "", "Paid subscribers", "MRR", "Last month", "Change"]
                + (target.map { ["Rate to \($0.code)", "Rate date", "MRR in \($0.code)"] } ?? [])
            try headings(names, on: sheet, row: first + 1, right: Set(2..<names.count))
            var row = first + 2
            for c in totals.currencies {
                let format = try money(c.currency)
                let before = report.previousMRRTotals.currencies.first { $0.currency == c.currency }?.mrr ?? 0
                try sheet.write(c.currency.code, row: row, column: 0)
                try sheet.write(Int64(c.subscribers), row: row, column: 2, format: integer)
                try sheet.write(minor: c.mrr, currency: c.currency, row: row, column: 3, format: format)
                try sheet.write(minor: before, currency: c.currency, row: row, column: 4, format: format)
                try sheet.write(minor: c.mrr - before, currency: c.currency, row: row, column: 5, format: try signedMoney(c.currency))
                if let target {
                    if let rate = c.rate {
                        try sheet.write(Double(rate.rate.description) ?? 0, row: row, column: 6)
                        try sheet.write(rate.date, row: row, column: 7, format: day)
                    } else if c.currency == target {
                        try sheet.write("—", row: row, column: 6, format: rightText)
                    } else {
                        try sheet.write("no rate", row: row, column: 6, format: noRate)
                    }
                    if let converted = c.converted {
                        try sheet.write(minor: converted, currency: target, row: row, column: 8, format: try money(target))
                    }
                }
                row += 1
            }
            if let target {
                try sheet.write("Studio total (\(target.code))", row: row, column: 0, format: bold)
                if let total = totals.studioTotal {
                    let format = try book.format(XLSXStyle.money(ReportLocale.enUS.excelMoneyFormat(for: target)).bolded)
                    try sheet.write(minor: total, currency: target, row: row, column: 3, format: format)
                    try sheet.write(minor: total, currency: target, row: row, column: 8, format: format)
                    if let before = report.previousMRRTotals.studioTotal {
                        try sheet.write(minor: before, currency: target, row: row, column: 4, format: try money(target))
                        try sheet.write(minor: total - before, currency: target, row: row, column: 5, format: try signedMoney(target))
                    }
                } else {
                    try sheet.write("—", row: row, column: 3, format: rightText)
                    try sheet.write("—", row: row, column: 8, format: rightText)
                }
                row += 1
            }
            return row + (try sheet.writeLines(totals.note, row: row, column: 0, width: Self.noteWidth, format: note))
        }

        /// The figures of months already published that read differently now, from `row`: a heading, a note,
        /// then per figure its name, month, the value published, the value now and the change (in the figure's
        /// unit; a rate's in points).
        func restatedFigures(_ sheet: XLSXWorksheet, row first: Int) throws {
            try sheet.writeSpanning("Restated since the last run", row: first, column: 0, format: bold)
            let noteRows = try sheet.writeLines(
                "Figures of months already published whose value changed since: late, edited or deleted rows, "
                + "or a changed configuration. The reports above use the current values.",
                row: first + 1, column: 0, width: Self.noteWidth, format: note)
            let headerRow = first + 1 + noteRows
            try headings(["Figure", "", "Month", "Published", "Now", "Change", "Unit"], on: sheet, row: headerRow, right: [3, 4, 5])
            for (i, r) in restated.enumerated() {
                let row = headerRow + 1 + i
                try sheet.write(r.name, row: row, column: 0, format: bold)
                try sheet.write(r.month, row: row, column: 2)
                // Numbers in the unit's format, for a spreadsheet to compute with; a rate's change is in points.
                let change = r.change.replacingOccurrences(of: " pp", with: "")
                if let currency = Currency(code: r.unit) {
                    for (column, text, format) in [(3, r.published, try money(currency)), (4, r.now, try money(currency)),
                                                   (5, change, try signedMoney(currency))] {
                        let minor = (try? Decimal10.parse(text).get())?.rescaled(to: currency.minorUnits)
                        if let minor { try sheet.write(minor: minor, currency: currency, row: row, column: column, format: format) }
                    }
                } else {
                    let rate = r.unit == "%"
                    try sheet.write(Double(r.published) ?? 0, row: row, column: 3, format: rate ? nil : integer)
                    try sheet.write(Double(r.now) ?? 0, row: row, column: 4, format: rate ? nil : integer)
                    try sheet.write(Double(change) ?? 0, row: row, column: 5, format: rate ? points : signedInteger)
                }
                try sheet.write(r.unit == "%" ? "%" : r.unit, row: row, column: 6)
            }
        }

        func value(_ value: KPIHeadline.Value, sheet: XLSXWorksheet, row: Int, column: Int) throws {
            switch value {
            case .count(let n): try sheet.write(Int64(n), row: row, column: column, format: integer)
            case .money(let minor, let c): try sheet.write(minor: minor, currency: c, row: row, column: column, format: try money(c))
            case .rate(let r):
                if let v = r.value { try sheet.write(v, row: row, column: column, format: percent) }
                else { try sheet.write("—", row: row, column: column) }
            }
        }

        func swipes() throws {
            let days = report.swipesDaily
            let t = try table("Swipes", [.init("Date", format: day), .init("Swipes", format: integer), .init("Swipers", format: integer),
                                         .init("Likes", format: integer), .init("Super likes", format: integer),
                                         .init("Passes", format: integer), .init("Reports", format: integer),
                                         .init("Matches", format: integer), .init("Like rate", format: percent),
                                         .init("Match rate", format: percent)]) { t in
                for d in days {
                    try t.appendRow { row in
                        try row.write(d.date)
                        for n in [d.swipes, d.swipers, d.likes, d.superLikes, d.passes, d.reports, d.matches] { try row.write(Int64(n)) }
                        try rate(&row, d.likeRate)
                        try rate(&row, d.matchRate)
                    }
                }
            }
            guard !days.isEmpty else { return }
            let sheet = t.sheets[0]
            let rows = 1...days.count
            let chart = try book.addChart(.line)
            try chart.addSeries(name: "Swipes", categories: .column(0, rows: rows, of: sheet), values: .column(1, rows: rows, of: sheet))
            try chart.addSeries(name: "Matches", categories: .column(0, rows: rows, of: sheet), values: .column(7, rows: rows, of: sheet))
            try chart.setTitle("Daily swipes and matches — \(report.period)")
            try chart.setAxisNames(category: "Day", value: "Count")
            try chart.setCategoryAxisNumberFormat(Self.axisDay)
            try chart.setLegend(.bottom)
            try sheet.insertChart(chart, row: 1, column: 11, xScale: 1.6, yScale: 1.2)
            let matches = try book.addChart(.line)
            try matches.addSeries(name: "Matches", categories: .column(0, rows: rows, of: sheet), values: .column(7, rows: rows, of: sheet))
            try matches.setTitle("Daily matches — \(report.period)")
            try matches.setCategoryAxisNumberFormat(Self.axisDay)
            try matches.setLegend(.none)
            try sheet.insertChart(matches, row: 20, column: 11, xScale: 1.6, yScale: 1.0)
        }

        /// Writes a pivot (rows = labels, one column per series) at `column` of `sheet`, and returns its data rows.
        func pivot(on sheet: XLSXWorksheet, column: Int, corner: String, labels: [String], series: [String],
                   value: (Int, Int) -> Double?, format: XLSXFormat) throws -> ClosedRange<Int>? {
            guard !labels.isEmpty, !series.isEmpty else { return nil }
            try sheet.write(corner, row: 0, column: column, format: header)
            for (j, name) in series.enumerated() { try sheet.write(name, row: 0, column: column + 1 + j, format: rightHeader) }
            for (i, label) in labels.enumerated() {
                try sheet.write(label, row: 1 + i, column: column)
                for j in series.indices {
                    if let v = value(i, j) { try sheet.write(v, row: 1 + i, column: column + 1 + j, format: format) }
                }
            }
            return 1...labels.count
        }

        /// The apps' lines of a cohort chart, in order, and the targets' grey dashed lines.
        static let cohortColours: [UInt32] = [0x1F77B4, 0xFF7F0E, 0x2CA02C, 0x9467BD, 0x8C564B]
        static let targetColour: UInt32 = 0x7F7F7F

        /// A line chart of the complete cohorts' rates beside the table, one line per app with a marker per
        /// cohort, the targets as grey dashed lines (a band between a minimum and a maximum), and a value
        /// axis fitted to the rates and targets (``XLSXChart/fittedBounds(_:step:limits:)``), so rates of
        /// 15–45% are not flattened on 0–100%. A note names the open cohorts left out.
        func cohortChart(sheet: XLSXWorksheet, rows all: [(app: String, cohort: YearMonth, rate: KPIRate, complete: Bool)],
                         targets: [(name: String, value: Double)], at column: Int, title: String) throws {
            let rows = all.filter(\.complete)
            let open = Array(Set(all.filter { !$0.complete }.map(\.cohort))).sorted()
            let apps = Array(Set(rows.map(\.app))).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let cohorts = Array(Set(rows.map(\.cohort))).sorted().suffix(24)
            let cohortList = Array(cohorts)
            var values: [String: Double] = [:]
            for r in rows where cohorts.contains(r.cohort) { if let v = r.rate.value { values["\(r.app)|\(r.cohort)"] = v } }
            guard !apps.isEmpty, let range = try pivot(
                on: sheet, column: column, corner: "Cohort", labels: cohortList.map(\.description),
                series: apps + targets.map(\.name),
                value: { i, j in j < apps.count ? values["\(apps[j])|\(cohortList[i])"] : targets[j - apps.count].value },
                format: percent) else { return }
            let chart = try book.addChart(.line)
            for (j, name) in (apps + targets.map(\.name)).enumerated() {
                try chart.addSeries(name: name, categories: .column(column, rows: range, of: sheet),
                                    values: .column(column + 1 + j, rows: range, of: sheet))
                if j < apps.count {
                    try chart.setSeriesLine(j, color: Self.cohortColours[j % Self.cohortColours.count], width: 2.25)
                    try chart.setSeriesMarkers(j, true)
                } else {
                    try chart.setSeriesLine(j, color: Self.targetColour, width: 1.5, dashed: true)
                    try chart.setSeriesMarkers(j, false)
                }
            }
            try chart.setTitle(title)
            try chart.setAxisNames(category: "Cohort", value: "Rate")
            try chart.setValueAxisNumberFormat("0%")
            if let bounds = XLSXChart.fittedBounds(Array(values.values) + targets.map(\.value), step: 0.1) {
                try chart.setValueAxisBounds(bounds, majorUnit: 0.1)
            }
            try chart.setLegend(.bottom)
            let noteRow = cohortList.count + 2
            var chartRow = noteRow + 1
            if !open.isEmpty {
                let lines = try sheet.writeLines("The chart shows complete cohorts only; still inside the window (greyed in the table, "
                                                 + "vs target \"pending\"): \(open.map(\.description).joined(separator: ", ")).",
                                                 row: noteRow, column: column, width: Self.chartNoteWidth, format: note)
                chartRow = noteRow + lines
            }
            try sheet.insertChart(chart, row: chartRow, column: column, xScale: 1.6, yScale: 1.2)
        }

        /// Greys the rows of a cohort table whose window is still open (`complete` column `completeColumn`).
        func greyOpenCohorts(_ table: XLSXTable, completeColumn: Int, lastColumn: Int) throws {
            guard table.rowCount > 0 else { return }
            let letter = XLSXWorksheet.columnName(completeColumn)
            for sheet in table.sheets where sheet.lastRow >= 1 {
                try sheet.conditionalFormat(.formula("$\(letter)2=\"\(Self.openCohort)\"", openFill),
                                            rows: 1...sheet.lastRow, columns: 0...lastColumn)
            }
        }

        func conversion() throws {
            let t = report.targets
            let table = try table("Conversion", [.init("App"), .init("Cohort", format: month), .init("Signups", format: integer),
                                                 .init("Converted", format: integer), .init("Conversion rate", format: percent),
                                                 .init("Window (days)", format: integer), .init("Complete"),
                                                 .init("Target min", format: percent), .init("Target max", format: percent),
                                                 .init("vs target")]) { table in
                for r in report.conversion {
                    try table.appendRow { row in
                        try row.write(r.app); try row.write(r.cohort.firstDay)
                        try row.write(Int64(r.rate.denominator)); try row.write(Int64(r.rate.numerator)); try rate(&row, r.rate)
                        try row.write(Int64(t.conversionWindowDays)); try row.write(r.complete ? "yes" : Self.openCohort)
                        try row.write(t.conversionMin); try row.write(t.conversionMax)
                        try row.write(TargetStatus.of(r.rate.value, min: t.conversionMin, max: t.conversionMax,
                                                      complete: r.complete).rawValue)
                    }
                }
            }
            try greyOpenCohorts(table, completeColumn: 6, lastColumn: 9)
            try statusColours(table.sheets[0], rows: 1...max(table.sheets[0].lastRow, 1), column: 9)
            try cohortChart(sheet: table.sheets[0], rows: report.conversion.map { ($0.app, $0.cohort, $0.rate, $0.complete) },
                            targets: [("Target min", t.conversionMin), ("Target max", t.conversionMax)], at: 11,
                            title: "Free→paid conversion by signup cohort (complete cohorts)")
        }

        func paywall() throws {
            _ = try table("Paywall", [.init("App"), .init("Context"), .init("Shown", format: integer),
                                      .init("Conversions credited", format: integer), .init("Users shown", format: integer),
                                      .init("Converted after a view", format: integer),
                                      .init("Conversion rate", format: percent)]) { table in
                for r in report.paywall {
                    try table.appendRow { row in
                        try row.write(r.app); try row.write(r.context); try row.write(Int64(r.shown))
                        try row.write(Int64(r.conversions)); try row.write(Int64(r.users))
                        try row.write(Int64(r.convertedAfterView)); try rate(&row, r.rate)
                    }
                }
            }
        }

        func mrr() throws {
            _ = try table("MRR", [.init("App"), .init("Plan"), .init("Subscribers", format: integer), .init("MRR", alignment: .right),
                                  .init("Currency")]) { table in
                for r in report.mrr {
                    let format = try money(r.currency)
                    try table.appendRow { row in
                        try row.write(r.app); try row.write(r.plan); try row.write(Int64(r.subscribers))
                        try row.write(minor: r.mrr, currency: r.currency, format: format); try row.write(r.currency.code)
                    }
                }
            }
        }

        /// Per currency: a pivot of MRR by month and plan with a total column, and a stacked column chart of it,
        /// unless no plan's MRR ever changed (one flat subscriber would draw identical bars): a note says so instead.
        func mrrByPlan() throws {
            // Bounded: one row per month of the MRR history (the plans are columns).
            let sheet = try book.addWorksheet(named: "MRR by plan")
            let history = report.mrrHistory
            var column = 0
            for currency in Set(history.map(\.currency)).sorted() {
                let rows = history.filter { $0.currency == currency }
                let months = Array(Set(rows.map(\.month))).sorted()
                let plans = Array(Set(rows.map { "\($0.app) \($0.plan)" })).sorted()
                var minor: [String: Int64] = [:]
                for r in rows { minor["\(r.app) \(r.plan)|\(r.month)", default: 0] += r.mrr }
                var totals: [YearMonth: Int64] = [:]
                for r in rows { totals[r.month, default: 0] += r.mrr }
                let major = { (m: Int64) in Double(m) / Double(currency.scale) }
                let series = plans + ["Total"]
                guard let range = try pivot(on: sheet, column: column, corner: "Month (\(currency.code))",
                                            labels: months.map(\.description), series: series,
                                            value: { i, j in
                                                j == plans.count ? totals[months[i]].map(major)
                                                    : minor["\(plans[j])|\(months[i])"].map(major)
                                            }, format: try money(currency))
                else { continue }
                let flat = plans.allSatisfy { plan in Set(months.map { minor["\(plan)|\($0)"] ?? 0 }).count == 1 }
                if flat {
                    let total = totals[months[0]] ?? 0
                    try sheet.writeLines("No chart: \(plans.joined(separator: ", ")) stayed at \(Money.plain(total, currency)) \(currency.code) "
                                         + "every month from \(months[0]) to \(months[months.count - 1]); a chart would repeat one bar.",
                                         row: months.count + 2, column: column, width: Self.chartNoteWidth, format: note)
                } else {
                    let chart = try book.addChart(.stackedColumn)
                    for (j, plan) in plans.enumerated() {
                        try chart.addSeries(name: plan, categories: .column(column, rows: range, of: sheet),
                                            values: .column(column + 1 + j, rows: range, of: sheet))
                    }
                    try chart.setTitle("MRR by plan, \(currency.code)")
                    try chart.setAxisNames(category: "Month", value: "MRR (\(currency.code))")
                    try chart.setValueAxisNumberFormat(ReportLocale.enUS.excelMoneyFormat(for: currency))
                    try chart.setLegend(.bottom)
                    try sheet.insertChart(chart, row: months.count + 3, column: column, xScale: 1.6, yScale: 1.3)
                }
                column += series.count + 2
            }
            try sheet.freeze(rows: 1)
        }

        func movements() throws {
            let buckets = MRRMovement.allCases
            _ = try table("MRR movements", [.init("App"), .init("Month", format: month), .init("Currency"), .init("Start MRR", alignment: .right)]
                          + buckets.map { .init($0.rawValue.capitalized, alignment: .right) }
                          + [.init("End MRR", alignment: .right), .init("Net change", alignment: .right)]
                          + buckets.map { .init("\($0.rawValue.capitalized) users", format: integer) }) { table in
                for r in report.movements {
                    let format = try money(r.currency)
                    try table.appendRow { row in
                        try row.write(r.app); try row.write(r.month.firstDay); try row.write(r.currency.code)
                        try row.write(minor: r.startMRR, currency: r.currency, format: format)
                        for b in buckets { try row.write(minor: r.signedAmount(b), currency: r.currency, format: format) }
                        try row.write(minor: r.endMRR, currency: r.currency, format: format)
                        try row.write(minor: r.net, currency: r.currency, format: format)
                        for b in buckets { try row.write(Int64(r.count(b))) }
                    }
                }
            }
        }

        /// The colours of the movement buckets' columns: gains in greens and blue, losses in orange and red.
        static let movementColours: [MRRMovement: UInt32] = [
            .new: 0x2E7D32, .expansion: 0x81C784, .contraction: 0xF4A259, .churn: 0xC62828, .reactivation: 0x1E88E5,
        ]

        /// Per currency (every app together): a pivot of the signed movements by month with their net change,
        /// and a stacked column chart of the five buckets, gains above zero and losses below. A currency whose
        /// MRR moved in one month only gets a note saying what moved instead (a chart of one bar tells nothing more).
        func movementsByMonth() throws {
            // Bounded: one row per month of the series (24 at most), the buckets are columns.
            let sheet = try book.addWorksheet(named: "MRR movements by month")
            let buckets = MRRMovement.allCases
            var column = 0
            for currency in Set(report.movements.map(\.currency)).sorted() {
                let rows = report.movements.filter { $0.currency == currency }
                let months = Array(Set(rows.map(\.month))).sorted()
                var signed: [YearMonth: [MRRMovement: Int64]] = [:]
                for r in rows { for b in buckets { signed[r.month, default: [:]][b, default: 0] += r.signedAmount(b) } }
                let net = { (m: YearMonth) in buckets.map { signed[m]?[$0] ?? 0 }.reduce(0, +) }
                let major = { (m: Int64) in Double(m) / Double(currency.scale) }
                let series = buckets.map { $0.rawValue.capitalized } + ["Net change"]
                guard let range = try pivot(on: sheet, column: column, corner: "Month (\(currency.code))",
                                            labels: months.map(\.description), series: series,
                                            value: { i, j in
                                                major(j == buckets.count ? net(months[i]) : signed[months[i]]?[buckets[j]] ?? 0)
                                            }, format: try signedMoney(currency))
                else { continue }
                let moving = months.filter { m in buckets.contains { (signed[m]?[$0] ?? 0) != 0 } }
                if moving.count < 2 {
                    let what = moving.first.map { m in
                        buckets.filter { (signed[m]?[$0] ?? 0) != 0 }
                            .map { "\($0.rawValue) \(Money.plain(signed[m]![$0]!, currency))" }.joined(separator: ", ") + " in \(m)"
                    } ?? "nothing"
                    try sheet.writeLines("No chart: the \(currency.code) MRR moved in one month at most (\(what)); "
                                         + "a chart would show one bar.",
                                         row: months.count + 2, column: column, width: Self.chartNoteWidth, format: note)
                } else {
                    let lines = try sheet.writeLines(
                        "Gains (new, expansion, reactivation) stack above zero, losses (contraction, churn) below; "
                        + "Net change, their sum, is the last column of the table.",
                        row: months.count + 2, column: column, width: Self.chartNoteWidth, format: note)
                    let chart = try book.addChart(.stackedColumn)
                    for (j, bucket) in buckets.enumerated() {
                        try chart.addSeries(name: series[j], categories: .column(column, rows: range, of: sheet),
                                            values: .column(column + 1 + j, rows: range, of: sheet))
                        try chart.setSeriesFill(j, color: Self.movementColours[bucket]!)
                    }
                    try chart.setTitle("MRR movements by month, \(currency.code) (all apps)")
                    try chart.setCategoryLabelsLow()
                    try chart.setAxisNames(category: "Month", value: "MRR moved (\(currency.code))")
                    try chart.setValueAxisNumberFormat(ReportLocale.enUS.excelMoneyFormat(for: currency))
                    try chart.setLegend(.bottom)
                    try sheet.insertChart(chart, row: months.count + 2 + lines, column: column, xScale: 1.6, yScale: 1.3)
                }
                column += series.count + 2
            }
            try sheet.freeze(rows: 1)
        }

        func revenue() throws {
            _ = try table("Revenue", [.init("App"), .init("Month", format: month), .init("Currency"),
                                      .init("Revenue", alignment: .right), .init("Refunded", alignment: .right),
                                      .init("Net revenue", alignment: .right), .init("Charges", format: integer),
                                      .init("Refunds", format: integer), .init("Paying users", format: integer),
                                      .init("Active users", format: integer), .init("ARPU", alignment: .right),
                                      .init("ARPPU", alignment: .right)]) { table in
                for r in report.revenue {
                    let format = try money(r.currency)
                    try table.appendRow { row in
                        try row.write(r.app); try row.write(r.month.firstDay); try row.write(r.currency.code)
                        for amount in [r.revenue, r.refunded, r.net] { try row.write(minor: amount, currency: r.currency, format: format) }
                        for n in [r.charges, r.refunds, r.payingUsers, r.activeUsers] { try row.write(Int64(n)) }
                        for amount in [r.arpu, r.arppu] {
                            if let amount { try row.write(minor: amount, currency: r.currency, format: format) } else { try row.skip() }
                        }
                    }
                }
            }
        }

        /// The heat colours of the retention curves: low red, middle yellow, high green.
        static let heat = (low: UInt32(0xF8696B), middle: UInt32(0xFFEB84), high: UInt32(0x63BE7B))

        /// Per app, side by side, a triangle of the first-subscribed cohorts (rows) by months since the cohort
        /// month (M1…M6, columns): the share of the cohort paid at each month's end, coloured by a three-colour
        /// scale; a month not ended by the period's end is blank. Side by side, the apps compare along a row
        /// and the sheet prints on one page.
        func retentionCurves() throws {
            // Bounded: one row per cohort (cohorts up to the period), one block of eight columns per app.
            let sheet = try book.addWorksheet(named: "Retention curves")
            let months = SubscriptionKPIs.curveMonths
            try sheet.writeSpanning("Retention curves by first-subscribed cohort — \(report.period)", row: 0, column: 0, format: title)
            let top = 2 + (try sheet.writeLines(
                "Each cell: the share of the cohort (users by the local month of their first subscribed) paid at the end of the "
                + "month that many months after the cohort month (M1: the month after). A member who churns and comes back counts "
                + "again, so a row may rise. Blank: that month has not ended by the end of \(report.period).",
                row: 1, column: 0, width: Self.noteWidth, format: note))
            let apps = Array(Set(report.retentionCurves.map(\.app))).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (j, app) in apps.enumerated() {
                let curves = report.retentionCurves.filter { $0.app == app }
                let column = j * (months + 3)
                try sheet.write(app, row: top, column: column, format: bold)
                try headings(["Cohort", "Subscribers"] + (1...months).map { "M\($0)" }, on: sheet, row: top + 1, column: column,
                             right: Set(1...(months + 1)))
                let first = top + 2
                for (i, curve) in curves.enumerated() {
                    try sheet.write(curve.cohort.firstDay, row: first + i, column: column, format: month)
                    try sheet.write(Int64(curve.subscribers), row: first + i, column: column + 1, format: integer)
                    for k in 1...months {
                        if let value = curve.share(k)?.value { try sheet.write(value, row: first + i, column: column + 1 + k, format: percent) }
                    }
                }
                if !curves.isEmpty {
                    try sheet.conditionalFormat(.colorScale(low: Self.heat.low, middle: Self.heat.middle, high: Self.heat.high),
                                                rows: first...(first + curves.count - 1), columns: (column + 2)...(column + 1 + months))
                }
            }
            try sheet.freeze(rows: top + 2)
        }

        func churn() throws {
            _ = try table("Churn", [.init("App"), .init("Month", format: month), .init("Paid at start", format: integer),
                                    .init("Churned", format: integer), .init("Churn rate", format: percent),
                                    .init("Cancellations", format: integer), .init("Refunds", format: integer)]) { table in
                for r in report.churn {
                    try table.appendRow { row in
                        try row.write(r.app); try row.write(r.month.firstDay); try row.write(Int64(r.rate.denominator))
                        try row.write(Int64(r.rate.numerator)); try rate(&row, r.rate)
                        try row.write(Int64(r.cancellations)); try row.write(Int64(r.refunds))
                    }
                }
            }
        }

        func retention() throws {
            let t = report.targets
            let table = try table("Retention", [.init("App"), .init("Cohort", format: month), .init("Subscribers", format: integer),
                                                .init("Retained \(t.retentionDays)d", format: integer),
                                                .init("Retention rate", format: percent), .init("Days", format: integer),
                                                .init("Complete"), .init("Target", format: percent), .init("vs target")]) { table in
                for r in report.retention {
                    try table.appendRow { row in
                        try row.write(r.app); try row.write(r.cohort.firstDay); try row.write(Int64(r.rate.denominator))
                        try row.write(Int64(r.rate.numerator)); try rate(&row, r.rate); try row.write(Int64(t.retentionDays))
                        try row.write(r.complete ? "yes" : Self.openCohort); try row.write(t.retention)
                        try row.write(TargetStatus.of(r.rate.value, min: t.retention, complete: r.complete).rawValue)
                    }
                }
            }
            try greyOpenCohorts(table, completeColumn: 6, lastColumn: 8)
            try statusColours(table.sheets[0], rows: 1...max(table.sheets[0].lastRow, 1), column: 8)
            try cohortChart(sheet: table.sheets[0], rows: report.retention.map { ($0.app, $0.cohort, $0.rate, $0.complete) },
                            targets: [("Target", t.retention)], at: 10,
                            title: "\(t.retentionDays)-day retention by first-subscribed cohort (complete cohorts)")
        }

        func trials() throws {
            let table = try table("Trials", [.init("App"), .init("Month", format: month), .init("Trials started", format: integer),
                                     .init("Converted", format: integer), .init("Trial conversion", format: percent),
                                     .init("Complete")]) { table in
                for r in report.trials {
                    try table.appendRow { row in
                        try row.write(r.app); try row.write(r.month.firstDay); try row.write(Int64(r.rate.denominator))
                        try row.write(Int64(r.rate.numerator)); try rate(&row, r.rate)
                        try row.write(r.complete ? "yes" : Self.openCohort)
                    }
                }
            }
            try greyOpenCohorts(table, completeColumn: 5, lastColumn: 5)
        }

        func sharedPremium() throws {
            _ = try table("Shared premium", [.init("App"), .init("Month", format: month), .init("Payers", format: integer),
                                             .init("Sharing partners", format: integer),
                                             .init("Entitled users", format: integer)]) { table in
                for r in report.sharedPremium {
                    try table.appendRow { row in
                        try row.write(r.app); try row.write(r.month.firstDay); try row.write(Int64(r.payers))
                        try row.write(Int64(r.sharedUsers)); try row.write(Int64(r.entitled))
                    }
                }
            }
        }

        /// The Definitions sheet: each KPI's numerator, denominator, window, rule and target
        /// (``KPIDefinition/all(_:)``, with the configuration's windows and targets). Columns have
        /// fixed widths; a longer text is broken into lines in its cell and its row is given their height.
        func definitions() throws {
            // Bounded: one row per KPI of the reports.
            let sheet = try book.addWorksheet(named: "Definitions")
            try sheet.writeSpanning("KPI definitions — \(report.period)", row: 0, column: 0, format: title)
            let noteRows = try sheet.writeLines(
                "M is the month reported and T the first instant after it, in the report time zone; \"at T\" counts the events "
                + "strictly before T. Windows and targets are those of tally.yml (kpis). A count or an amount has no denominator (—).",
                row: 1, column: 0, width: Self.noteWidth, format: note)
            let headerRow = 2 + noteRows
            // The target (a percentage) aligns right like the Summary's.
            let targetColumn = KPIDefinition.headings.count - 1
            try headings(KPIDefinition.headings, on: sheet, row: headerRow, right: [targetColumn])
            let cell = try book.format(XLSXStyle(wraps: true, topAligned: true))
            let kpi = try book.format(XLSXStyle(bold: true, wraps: true, topAligned: true))
            let target = try book.format(XLSXStyle(alignment: .right, wraps: true, topAligned: true))
            for (column, width) in Self.definitionWidths.enumerated() { try sheet.setColumnWidth(column, Double(width)) }
            for (i, definition) in KPIDefinition.all(report.targets).enumerated() {
                let row = headerRow + 1 + i
                let cells = zip(definition.fields, Self.definitionWidths).map { XLSXWorksheet.lines($0, width: $1) }
                let height = cells.map(\.count).max() ?? 1
                if height > 1 { try sheet.setRowHeight(row, points: 15 * Double(height)) }
                for (column, lines) in cells.enumerated() {
                    try sheet.write(lines.joined(separator: "\n"), row: row, column: column, format: column == 0 ? kpi : column == targetColumn ? target : cell)
                }
            }
            try sheet.freeze(rows: headerRow + 1)
            try sheet.repeatRowsWhenPrinted(headerRow...headerRow)
        }

        func appStoreEvents() throws {
            let table = try table("App Store events", [.init("Date", format: day), .init("App"), .init("Subscription"),
                                                       .init("Apple event"), .init("Event"), .init("Quantity", format: integer)]) { table in
                for r in report.appStoreEvents {
                    try table.appendRow { row in
                        try row.write(r.date); try row.write(r.app); try row.write(r.subscription)
                        try row.write(r.appleEvent); try row.write(r.event); try row.write(r.quantity)
                    }
                }
            }
            try reconciliation(on: table.sheets[0], column: 7)
        }

        /// Beside the App Store events: the period's App Store counts against tally's per-user figures, per app,
        /// and under them, for each figure that differs, why (``AppStoreReconciliation``).
        func reconciliation(on sheet: XLSXWorksheet, column: Int) throws {
            let rows = AppStoreReconciliation.rows(report)
            guard !rows.isEmpty else { return }
            try sheet.writeSpanning("App Store Connect against tally, \(report.period)", row: 0, column: column, format: bold)
            try headings(["App", "Figure", "App Store", "tally", "Same"], on: sheet, row: 1, column: column, right: [2, 3])
            for (i, r) in rows.enumerated() {
                let row = 2 + i
                try sheet.write(r.app, row: row, column: column)
                try sheet.write(r.figure.rawValue, row: row, column: column + 1)
                try sheet.write(r.apple, row: row, column: column + 2, format: integer)
                try sheet.write(Int64(r.tally), row: row, column: column + 3, format: integer)
                // After the right-aligned counts, indented; a difference in bold.
                try sheet.write(r.agrees ? "yes" : "no", row: row, column: column + 4, format: r.agrees ? indentedText : indentedBold)
            }
            var row = 3 + rows.count
            for r in rows where !r.agrees {
                row += try sheet.writeLines("\(r.app), \(r.figure.rawValue) (App Store \(r.apple), tally \(r.tally)): \(r.note)",
                                            row: row, column: column, width: Self.chartNoteWidth, format: note)
            }
        }
    }
}
