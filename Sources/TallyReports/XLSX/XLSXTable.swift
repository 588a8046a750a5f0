import TallyCore

/// A streamed table on a worksheet: a bold, frozen header row, rows appended
/// in order, an autofilter over the whole table, and columns fitted to their content.
///
/// Each heading is aligned like its column: right over numbers, money, dates
/// and percentages (a column whose format has a number format), left over
/// text; a text column right after a numeric one is indented one level, so
/// the two never touch. The header row repeats on every printed page.
///
/// Rows past the sheet's row limit (Excel's 1,048,576, header included)
/// spill to a continuation sheet named `<name> (2)`, `<name> (3)`, … which
/// repeats the header, so no data is ever dropped or refused. Charts that
/// point at a table should point at its first sheet.
///
/// ```swift
/// let table = try XLSXTable(workbook: book, name: "Saldos", columns: [
///     .init("Casal"), .init("Saldo final", format: money),
/// ])
/// try table.appendRow { row in
///     try row.write("c1")
///     try row.write(1234.56)
/// }
/// try table.finish()
/// ```
public final class XLSXTable {
    /// One column: its heading and the format its cells get unless a write says otherwise.
    public struct Column {
        public var header: String
        public var format: XLSXFormat?
        /// A width (characters) the column never goes below, e.g. for values written later.
        public var minimumWidth: Double?
        /// Whether the column holds numbers (its heading is then right-aligned); by default,
        /// whether its format has a number format.
        public var isNumeric: Bool

        public init(_ header: String, format: XLSXFormat? = nil, minimumWidth: Double? = nil, isNumeric: Bool? = nil) {
            self.header = header
            self.format = format
            self.minimumWidth = minimumWidth
            self.isNumeric = isNumeric ?? (format?.style.numberFormat != nil)
        }
    }

    public let columns: [Column]
    /// The name asked for; continuation sheets add ` (2)`, ` (3)`, …
    public let baseName: String
    /// Every sheet the table occupies, first to last.
    public private(set) var sheets: [XLSXWorksheet] = []
    /// Data rows written (headers excluded), over all sheets.
    public private(set) var rowCount = 0
    private let workbook: XLSXWorkbook
    private let headerFormat: XLSXFormat
    private let numericHeaderFormat: XLSXFormat
    /// The heading format of the indented text columns (see ``init(workbook:name:columns:headerFormat:)``).
    private let indentedHeaderFormat: XLSXFormat
    private let indentedColumns: Set<Int>
    private var nextRow = 0
    private var finished = false

    /// Adds the table's first sheet and writes its header.
    public init(workbook: XLSXWorkbook, name: String, columns: [Column], headerFormat: XLSXFormat? = nil) throws {
        guard !columns.isEmpty, columns.count <= XLSXWorkbook.excelMaxColumns else {
            throw XLSXError.invalidArgument(file: workbook.path, reason: "table '\(name)' needs 1...\(XLSXWorkbook.excelMaxColumns) columns")
        }
        self.workbook = workbook
        self.baseName = name
        let header = try headerFormat ?? workbook.format(.header)
        // A text column right after a numeric one is indented one level, heading
        // and cells, so right-aligned numbers and the text after them never touch.
        var columns = columns
        var indented: Set<Int> = []
        for index in columns.indices.dropFirst()
        where !columns[index].isNumeric && columns[index - 1].isNumeric && columns[index].format == nil {
            columns[index].format = try workbook.indentedLeft(.plain)
            indented.insert(index)
        }
        self.columns = columns
        self.headerFormat = header
        self.numericHeaderFormat = try XLSXTable.rightAligned(header, in: workbook)
        self.indentedHeaderFormat = indented.isEmpty ? header : try workbook.indentedLeft(header.style)
        self.indentedColumns = indented
        try startSheet()
    }

    /// The sheet rows are currently written to.
    public var currentSheet: XLSXWorksheet { sheets[sheets.count - 1] }

    /// Appends one row: `body` writes its cells left to right with the ``Row`` it is given.
    /// Starts a continuation sheet first when the current one is full.
    public func appendRow(_ body: (inout Row) throws -> Void) throws {
        guard !finished else {
            throw XLSXError.invalidArgument(file: workbook.path, reason: "table '\(baseName)' is already finished")
        }
        if nextRow >= currentSheet.maxRows {
            try finishSheet(currentSheet)
            try startSheet()
        }
        var row = Row(sheet: currentSheet, row: nextRow, columns: columns)
        try body(&row)
        nextRow += 1
        rowCount += 1
    }

    /// Adds the autofilter to every sheet of the table. Call it after the last row.
    public func finish() throws {
        guard !finished else { return }
        try finishSheet(currentSheet)
        finished = true
    }

    private func startSheet() throws {
        let name = sheets.isEmpty ? baseName : "\(baseName) (\(sheets.count + 1))"
        let sheet = try workbook.addWorksheet(named: name)
        for (index, column) in columns.enumerated() {
            let format = column.isNumeric ? numericHeaderFormat : indentedColumns.contains(index) ? indentedHeaderFormat : headerFormat
            try sheet.write(column.header, row: 0, column: index, format: format)
            try sheet.setMinimumColumnWidth(index, max(column.minimumWidth ?? 0, XLSXTable.headerWidth(column.header)))
        }
        try sheet.freeze(rows: 1)
        try sheet.repeatRowsWhenPrinted(0...0)
        sheets.append(sheet)
        nextRow = 1
    }

    /// `format` right-aligned (the heading of a numeric column).
    public static func rightAligned(_ format: XLSXFormat, in workbook: XLSXWorkbook) throws -> XLSXFormat {
        var style = format.style
        style.alignment = .right
        return try workbook.format(style)
    }

    /// The width a bold heading needs with room for the autofilter button (about two characters).
    static func headerWidth(_ header: String) -> Double {
        Double(header.count) * 1.1 + 4.5
    }

    private func finishSheet(_ sheet: XLSXWorksheet) throws {
        try sheet.autofilter(firstRow: 0, firstColumn: 0, lastRow: max(sheet.lastRow, 0), lastColumn: columns.count - 1)
    }

    /// The cells of one row, written left to right. Each write moves to the
    /// next column; a nil format uses the column's format.
    public struct Row {
        let sheet: XLSXWorksheet
        /// The row's index on its sheet.
        public let row: Int
        let columns: [Column]
        /// The column the next write goes to.
        public private(set) var column = 0

        init(sheet: XLSXWorksheet, row: Int, columns: [Column]) {
            self.sheet = sheet
            self.row = row
            self.columns = columns
        }

        private func format(_ given: XLSXFormat?) -> XLSXFormat? {
            given ?? (column < columns.count ? columns[column].format : nil)
        }

        /// Writes text (an empty string leaves the cell empty).
        public mutating func write(_ text: String, format: XLSXFormat? = nil) throws {
            try sheet.write(text, row: row, column: column, format: self.format(format))
            column += 1
        }

        /// Writes `text` as a link to the sheet named `sheet` (see ``XLSXWorksheet/writeLink(_:toSheet:row:column:format:)``).
        public mutating func writeLink(_ text: String, toSheet target: String, format: XLSXFormat? = nil) throws {
            try sheet.writeLink(text, toSheet: target, row: row, column: column, format: self.format(format))
            column += 1
        }

        /// Writes a number.
        public mutating func write(_ number: Double, format: XLSXFormat? = nil) throws {
            try sheet.write(number, row: row, column: column, format: self.format(format))
            column += 1
        }

        /// Writes an integer.
        public mutating func write(_ integer: Int64, format: XLSXFormat? = nil) throws {
            try sheet.write(integer, row: row, column: column, format: self.format(format))
            column += 1
        }

        /// Writes minor units of `currency` as a number of major units.
        public mutating func write(minor: Int64, currency: Currency, format: XLSXFormat? = nil) throws {
            try sheet.write(minor: minor, currency: currency, row: row, column: column, format: self.format(format))
            column += 1
        }

        /// Writes a real Excel date.
        public mutating func write(_ date: LocalDate, format: XLSXFormat? = nil) throws {
            try sheet.write(date, row: row, column: column, format: self.format(format))
            column += 1
        }

        /// Leaves the cell empty (formatted blank when the column or `format` has a format).
        public mutating func skip(format: XLSXFormat? = nil) throws {
            try sheet.write(blankAt: row, column: column, format: self.format(format))
            column += 1
        }
    }
}
