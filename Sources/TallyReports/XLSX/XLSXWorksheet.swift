import CXlsxWriter
import TallyCore

/// One worksheet of an ``XLSXWorkbook``. Rows and columns are 0-based.
///
/// Every write checks the row against the workbook's row limit and turns
/// libxlsxwriter's error codes into ``XLSXError``s. As cells are written
/// the sheet tracks the widest content of each column; at ``XLSXWorkbook/close()``
/// each column gets a width that fits it (unless set with ``setColumnWidth(_:_:)``).
///
/// Writes are cheap: numbers cross to C without conversion, a string is
/// passed as a pointer to its own UTF-8 bytes (no copy for native strings),
/// and formats are pointers cached by the workbook.
public final class XLSXWorksheet {
    /// The sheet's name as stored (after sanitising).
    public let name: String
    /// The most rows this sheet may hold (the workbook's ``XLSXWorkbook/Options/maxRowsPerSheet``).
    public let maxRows: Int
    let pointer: UnsafeMutablePointer<lxw_worksheet>
    let state: XLSXWorkbookState
    /// Fitted width per column (characters), from the content written.
    private var fittedWidths: [Int] = []
    /// Widths set explicitly; they win over fitted widths.
    private var explicitWidths: [Int: Double] = [:]
    /// Lower bounds for fitted widths.
    private var minimumWidths: [Int: Double] = [:]
    /// The highest row written so far, or -1.
    public private(set) var lastRow = -1
    /// The highest column written so far, or -1.
    public private(set) var lastColumn = -1

    /// Cells kept for chart caches (row, column → value), rows below `chartSourceRows` only.
    var chartSource: [Int: XLSXChartValue] = [:]
    /// The date number format of each kept cell that holds a date (same keys as `chartSource`), for date axes.
    var keptDateFormats: [Int: String] = [:]
    /// The number format of each kept cell written as a number with one (same keys), for value axes and caches.
    var keptNumberFormats: [Int: String] = [:]
    /// Rows whose cells are kept for chart caches and date axes; 0 keeps none.
    let chartSourceRows: Int
    /// Whether the values are kept (constant-memory mode), not only the dates' formats:
    /// otherwise libxlsxwriter reads the cells itself.
    let keepsChartValues: Bool
    /// The charts placed on this sheet, for print layout: first row and column, size in pixels.
    var placedCharts: [(row: Int, column: Int, width: Double, height: Double)] = []
    /// The rows repeated at the top of every printed page, when the sheet spans pages.
    var repeatedRows: ClosedRange<Int>?
    /// How the sheet prints (set from the workbook's options; change per sheet before close).
    public var printSetup: XLSXPrintSetup

    /// Whether column widths are fitted to the content at close (default true).
    public var fitsColumnWidths = true
    /// The narrowest and widest fitted column widths, in characters.
    public var fittedWidthRange: ClosedRange<Double> = 6...60

    init(pointer: UnsafeMutablePointer<lxw_worksheet>, name: String, state: XLSXWorkbookState, maxRows: Int,
         chartSourceRows: Int, keepsChartValues: Bool, printSetup: XLSXPrintSetup) {
        self.keepsChartValues = keepsChartValues
        self.pointer = pointer
        self.name = name
        self.state = state
        self.maxRows = maxRows
        self.chartSourceRows = chartSourceRows
        self.printSetup = printSetup
    }

    // MARK: Cells

    /// Writes text. An empty string writes nothing (Excel has no empty-string cell), unless a format is given,
    /// in which case a formatted blank is written.
    public func write(_ text: String, row: Int, column: Int, format: XLSXFormat? = nil) throws {
        try checkCell(row, column, format)
        if text.isEmpty {
            if format != nil { try write(blankAt: row, column: column, format: format) }
            return
        }
        let code = text.withCString { worksheet_write_string(pointer, lxw_row_t(row), lxw_col_t(column), $0, format?.pointer) }
        try check(code, "writing text at \(Self.reference(row: row, column: column))")
        if row < chartSourceRows { keepForCharts(.text(text), row: row, column: column) }
        noteText(text, column: column, format: format)
        note(row, column)
    }

    /// Writes a number.
    public func write(_ number: Double, row: Int, column: Int, format: XLSXFormat? = nil) throws {
        try checkCell(row, column, format)
        let code = worksheet_write_number(pointer, lxw_row_t(row), lxw_col_t(column), number, format?.pointer)
        try check(code, "writing a number at \(Self.reference(row: row, column: column))")
        if row < chartSourceRows {
            keepForCharts(.number(number), row: row, column: column)
            if let code = format?.style.numberFormat, column < Self.chartSourceColumns {
                keptNumberFormats[row * Self.chartSourceColumns + column] = code
            }
        }
        noteWidth((format?.widthModel ?? XLSXWorksheet.generalWidth).width(of: number) + (format?.style.bold == true ? 1 : 0), column: column)
        note(row, column)
    }

    /// Writes an integer (exact up to 2^53).
    public func write(_ integer: Int64, row: Int, column: Int, format: XLSXFormat? = nil) throws {
        try write(Double(integer), row: row, column: column, format: format)
    }

    /// Writes money given in minor units as a number of major units (`123456` BRL → 1234.56),
    /// to be shown with a money `format`.
    public func write(minor: Int64, currency: Currency, row: Int, column: Int, format: XLSXFormat?) throws {
        try write(Double(minor) / Double(currency.scale), row: row, column: column, format: format)
    }

    /// Writes a date as a real Excel date (a serial day number) shown with `format`,
    /// which should carry a date number format (``ReportLocale/excelDateFormat``).
    /// Dates before 1900-03-01, which Excel's calendar cannot hold faithfully, are written as ISO text.
    public func write(_ date: LocalDate, row: Int, column: Int, format: XLSXFormat?) throws {
        guard date >= XLSXWorksheet.firstFaithfulDate else {
            try write(date.description, row: row, column: column, format: format)
            return
        }
        try checkCell(row, column, format)
        var value = lxw_datetime(year: Int32(date.year), month: Int32(date.month), day: Int32(date.day), hour: 0, min: 0, sec: 0)
        let code = worksheet_write_datetime(pointer, lxw_row_t(row), lxw_col_t(column), &value, format?.pointer)
        try check(code, "writing a date at \(Self.reference(row: row, column: column))")
        if row < chartSourceRows {
            keepForCharts(.number(Double(date.daysSinceEpoch + 25_569)), row: row, column: column)
            if let code = format?.style.numberFormat, column < Self.chartSourceColumns {
                keptDateFormats[row * Self.chartSourceColumns + column] = code
            }
        }
        noteWidth((format?.widthModel ?? XLSXWorksheet.generalWidth).width(of: 0) , column: column)
        note(row, column)
    }

    /// Writes an empty cell that carries a format (a blank without a format writes nothing).
    public func write(blankAt row: Int, column: Int, format: XLSXFormat?) throws {
        try checkCell(row, column, format)
        guard let format else { return }
        let code = worksheet_write_blank(pointer, lxw_row_t(row), lxw_col_t(column), format.pointer)
        try check(code, "writing a blank at \(Self.reference(row: row, column: column))")
        note(row, column)
    }

    /// Writes text that spans the empty columns to its right (a title): the cell's own
    /// column keeps the width its other content fits.
    public func writeSpanning(_ text: String, row: Int, column: Int = 0, format: XLSXFormat? = nil) throws {
        let fits = fitsColumnWidths
        fitsColumnWidths = false
        defer { fitsColumnWidths = fits }
        try write(text, row: row, column: column, format: format)
    }

    /// Writes `text` as lines of at most `width` characters (broken between words), one per row
    /// from `row`, each spanning the empty columns to its right without widening its own: a note
    /// under or beside a table that prints within the table's width. Returns the rows used.
    ///
    /// ```swift
    /// let used = try sheet.writeLines(longNote, row: 1, column: 0, width: 100, format: italic)   // rows 1..<(1 + used)
    /// ```
    @discardableResult
    public func writeLines(_ text: String, row: Int, column: Int = 0, width: Int, format: XLSXFormat? = nil) throws -> Int {
        let lines = XLSXWorksheet.lines(text, width: width)
        for (i, line) in lines.enumerated() { try writeSpanning(line, row: row + i, column: column, format: format) }
        return lines.count
    }

    /// `text` broken between words into lines of at most `width` characters (a longer word keeps a line of its own).
    static func lines(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    // MARK: Layout

    /// Sets a column's width in characters; it replaces the fitted width.
    public func setColumnWidth(_ column: Int, _ width: Double) throws {
        try state.ensureOpen()
        guard column >= 0, column < XLSXWorkbook.excelMaxColumns else {
            throw XLSXError.columnLimit(file: state.path, sheet: name, column: column)
        }
        explicitWidths[column] = width
    }

    /// Sets a row's height in points (a default row is 15): a row of wrapped text two lines
    /// tall is 30, so it shows both lines in every viewer. In constant-memory mode call it
    /// before writing the row's cells.
    public func setRowHeight(_ row: Int, points: Double) throws {
        try state.ensureOpen()
        guard row >= 0, row < maxRows else { throw XLSXError.rowLimit(file: state.path, sheet: name, row: row, limit: maxRows) }
        try check(worksheet_set_row(pointer, lxw_row_t(row), points, nil), "setting the height of row \(row + 1)")
    }

    /// Makes a column at least `width` characters wide, however narrow its content.
    public func setMinimumColumnWidth(_ column: Int, _ width: Double) throws {
        try state.ensureOpen()
        guard column >= 0, column < XLSXWorkbook.excelMaxColumns else {
            throw XLSXError.columnLimit(file: state.path, sheet: name, column: column)
        }
        minimumWidths[column] = width
    }

    /// Freezes the first `rows` rows and first `columns` columns (`freeze(rows: 1)`: a fixed header row).
    public func freeze(rows: Int, columns: Int = 0) throws {
        try state.ensureOpen()
        guard rows >= 0, rows < maxRows, columns >= 0, columns < XLSXWorkbook.excelMaxColumns else {
            throw XLSXError.invalidArgument(file: state.path, reason: "sheet '\(name)': cannot freeze \(rows) rows and \(columns) columns")
        }
        worksheet_freeze_panes(pointer, lxw_row_t(rows), lxw_col_t(columns))
    }

    /// Adds an autofilter over rows `firstRow...lastRow` and columns `firstColumn...lastColumn`
    /// (the first row holds the headings). In constant-memory mode call it after the last row is written.
    public func autofilter(firstRow: Int, firstColumn: Int, lastRow: Int, lastColumn: Int) throws {
        try state.ensureOpen()
        guard firstRow >= 0, firstRow <= lastRow, lastRow < maxRows, firstColumn >= 0, firstColumn <= lastColumn,
              lastColumn < XLSXWorkbook.excelMaxColumns else {
            throw XLSXError.invalidArgument(file: state.path, reason: "sheet '\(name)': invalid autofilter range")
        }
        let code = worksheet_autofilter(pointer, lxw_row_t(firstRow), lxw_col_t(firstColumn), lxw_row_t(lastRow), lxw_col_t(lastColumn))
        try check(code, "adding an autofilter")
    }

    /// Places `chart` with its top-left corner at the cell (`row`, `column`), scaled from
    /// the default 480×288 pixels. A chart can be inserted only once.
    public func insertChart(_ chart: XLSXChart, row: Int, column: Int, xScale: Double = 1, yScale: Double = 1) throws {
        try state.ensureOpen()
        guard chart.state === state else {
            throw XLSXError.invalidArgument(file: state.path, reason: "chart belongs to another workbook")
        }
        guard !chart.isInserted else {
            throw XLSXError.invalidArgument(file: state.path, reason: "sheet '\(name)': a chart can be inserted only once")
        }
        guard chart.seriesCount > 0 else {
            throw XLSXError.invalidArgument(file: state.path, reason: "sheet '\(name)': a chart needs at least one series")
        }
        guard row >= 0, row < maxRows, column >= 0, column < XLSXWorkbook.excelMaxColumns else {
            throw XLSXError.invalidArgument(file: state.path, reason: "sheet '\(name)': chart position out of range")
        }
        var options = lxw_chart_options()
        options.x_scale = xScale
        options.y_scale = yScale
        let code = worksheet_insert_chart_opt(pointer, lxw_row_t(row), lxw_col_t(column), chart.pointer, &options)
        try check(code, "inserting a chart at \(Self.reference(row: row, column: column))")
        chart.isInserted = true
        placedCharts.append((row, column, 480 * xScale, 288 * yScale))
    }

    // MARK: Helpers

    /// The A1 reference of a cell (`row` 0, `column` 27 → `AB1`).
    public static func reference(row: Int, column: Int) -> String {
        columnName(column) + String(row + 1)
    }

    /// The letters of a 0-based column (`0` → `A`, `26` → `AA`).
    public static func columnName(_ column: Int) -> String {
        var scalars: [Unicode.Scalar] = []
        var n = column + 1
        while n > 0 {
            let rem = (n - 1) % 26
            scalars.append(Unicode.Scalar(UInt8(65 + rem)))
            n = (n - 1) / 26
        }
        return String(String.UnicodeScalarView(scalars.reversed()))
    }

    static let generalWidth = XLSXNumberWidth(numberFormat: nil)
    static let firstFaithfulDate = LocalDate(year: 1900, month: 3, day: 1)!

    func checkCell(_ row: Int, _ column: Int, _ format: XLSXFormat?) throws {
        try state.ensureOpen()
        guard row >= 0, row < maxRows else {
            throw XLSXError.rowLimit(file: state.path, sheet: name, row: row, limit: maxRows)
        }
        guard column >= 0, column < XLSXWorkbook.excelMaxColumns else {
            throw XLSXError.columnLimit(file: state.path, sheet: name, column: column)
        }
        if let format, format.owner != ObjectIdentifier(state) {
            throw XLSXError.invalidArgument(file: state.path, reason: "sheet '\(name)': format belongs to another workbook")
        }
    }

    func check(_ code: lxw_error, _ operation: @autoclosure () -> String) throws {
        guard code != LXW_NO_ERROR else { return }
        try XLSXError.check(code, file: state.path, operation: "sheet '\(name)': \(operation())")
    }

    func note(_ row: Int, _ column: Int) {
        if row > lastRow { lastRow = row }
        if column > lastColumn { lastColumn = column }
    }

    func noteText(_ text: String, column: Int, format: XLSXFormat?) {
        guard fitsColumnWidths, format?.style.wraps != true else { return }
        let current = column < fittedWidths.count ? fittedWidths[column] : 0
        // UTF-8 length is O(1) and never below the character count: skip the count when it cannot win.
        if text.utf8.count <= current { return }
        var width = 0
        for scalar in text.unicodeScalars where !(0x0300...0x036F).contains(scalar.value) { width += 1 }
        if format?.style.bold == true { width += (width + 9) / 10 }
        if let size = format?.style.fontSize, size > 11 { width = Int((Double(width) * size / 11).rounded(.up)) }
        noteWidth(width, column: column)
    }

    private func noteWidth(_ width: Int, column: Int) {
        guard fitsColumnWidths else { return }
        if column >= fittedWidths.count {
            fittedWidths.append(contentsOf: repeatElement(0, count: column - fittedWidths.count + 1))
        }
        if width > fittedWidths[column] { fittedWidths[column] = width }
    }

    /// The width each column will get at close: explicit widths, else fitted ones.
    public var columnWidths: [Int: Double] {
        var widths: [Int: Double] = [:]
        if fitsColumnWidths {
            for (column, characters) in fittedWidths.enumerated() where characters > 0 {
                // Excel's column unit is about one digit; add room for padding and the autofilter button.
                let width = Double(characters) + 2.5
                widths[column] = min(max(width, fittedWidthRange.lowerBound), fittedWidthRange.upperBound)
            }
        }
        for (column, minimum) in minimumWidths where fitsColumnWidths {
            widths[column] = max(widths[column] ?? 0, minimum)
        }
        for (column, width) in explicitWidths { widths[column] = width }
        return widths
    }

    /// Sends the column widths to libxlsxwriter (called by ``XLSXWorkbook/close()``).
    func applyColumnWidths(_ widths: [Int: Double]) throws {
        for (column, width) in widths.sorted(by: { $0.key < $1.key }) {
            let code = worksheet_set_column(pointer, lxw_col_t(column), lxw_col_t(column), width, nil)
            try check(code, "setting the width of column \(Self.columnName(column))")
        }
    }
}
