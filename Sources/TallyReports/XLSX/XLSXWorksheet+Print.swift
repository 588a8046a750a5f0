import CXlsxWriter

extension XLSXWorksheet {
    /// Repeats rows `rows` at the top of every printed page (the table's header),
    /// once the sheet runs past one page.
    public func repeatRowsWhenPrinted(_ rows: ClosedRange<Int>) throws {
        try state.ensureOpen()
        guard rows.lowerBound >= 0, rows.upperBound < maxRows else {
            throw XLSXError.invalidArgument(file: state.path, reason: "sheet '\(name)': cannot repeat rows \(rows)")
        }
        repeatedRows = rows
    }

    /// The width of column `column` in pixels as printed, estimated on the wide side: viewers
    /// without Calibri (LibreOffice on Linux) draw a character about 9 pixels wide, not Excel's 7.
    func pixelWidth(ofColumn column: Int, widths: [Int: Double]) -> Double {
        ((widths[column] ?? 8.43) * XLSXWorksheet.printedCharacterWidth + 5).rounded()
    }

    /// Pixels per character of column width, on the wide side (see ``pixelWidth(ofColumn:widths:)``).
    static let printedCharacterWidth = 9.0

    /// Sends the print setup to libxlsxwriter (called by ``XLSXWorkbook/close()`` after the widths are known).
    ///
    /// A sheet whose charts all end within the first page prints fit to width. One with a chart
    /// further down, which a page break could cut, prints at the scale fit to width would choose,
    /// with manual page breaks above such charts (fit-to-page scaling makes viewers ignore manual breaks).
    func applyPrintSetup(widths: [Int: Double]) throws {
        let setup = printSetup
        if setup.landscape { worksheet_set_landscape(pointer) }
        if let paper = setup.paper { worksheet_set_paper(pointer, UInt8(paper.rawValue)) }
        if setup.narrowMargins { worksheet_set_margins(pointer, 0.25, 0.25, 0.75, 0.75) }
        if let footer = setup.footer { try check(worksheet_set_footer(pointer, footer), "setting the footer") }
        let pageRows = Int(XLSXPrintSetup.landscapePage.height / XLSXPrintSetup.rowHeight)
        let charts = placedCharts.map { chart in
            chart.row...(chart.row + Int((chart.height / XLSXPrintSetup.rowHeight).rounded(.up)) - 1)
        }
        let repeated = repeatedRows.map { $0.count } ?? 0
        var rowsPerPage = pageRows
        if setup.fitToWidth {
            if charts.allSatisfy({ $0.upperBound < pageRows - repeated }) {
                worksheet_fit_to_pages(pointer, 1, 0)
            } else {
                let scale = printScale(widths: widths)
                worksheet_set_print_scale(pointer, UInt16(scale))
                rowsPerPage = Int(XLSXPrintSetup.landscapePage.height / (XLSXPrintSetup.rowHeight * Double(scale) / 100))
                let breaks = XLSXPrintSetup.pageBreaks(charts: charts, rowsPerPage: rowsPerPage - (lastRow >= rowsPerPage ? repeated : 0))
                if !breaks.isEmpty {
                    var list = breaks.prefix(1_000).map { lxw_row_t($0) } + [0]
                    try check(worksheet_set_h_pagebreaks(pointer, &list), "setting page breaks")
                }
            }
        }
        if let rows = repeatedRows, lastRow >= rowsPerPage {
            try check(worksheet_repeat_rows(pointer, lxw_row_t(rows.lowerBound), lxw_row_t(rows.upperBound)), "repeating rows when printed")
        }
    }

    /// The print scale (percent, 10–100) that fits the cells and charts to one page's width.
    private func printScale(widths: [Int: Double]) -> Int {
        var left: [Int: Double] = [:]   // pixels from the sheet's left edge to each column
        var x = 0.0
        let lastColumn = max(self.lastColumn, placedCharts.map(\.column).max() ?? 0)
        for column in 0...max(lastColumn, 0) { left[column] = x; x += pixelWidth(ofColumn: column, widths: widths) }
        // A chart is anchored to the cells it covers, so it widens with them in such viewers.
        let chartRight = placedCharts.map { (left[$0.column] ?? 0) + $0.width * XLSXWorksheet.printedCharacterWidth / 7 }.max() ?? 0
        let scale = min(1, XLSXPrintSetup.landscapePage.width / max(x, chartRight, 1))
        return max(10, Int((scale * 100).rounded(.down)))
    }
}
