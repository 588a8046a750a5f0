import TallyCore

/// A streamed table on a worksheet: a bold, frozen header row, rows appended
/// in order, an autofilter over the header and the data rows of each sheet
/// (none on a sheet without data rows), and columns fitted to their content.
///
/// Each heading is aligned like its column (``Column/alignment``): right over
/// numbers, money, dates and percentages (a column whose format has a number
/// format), left over text; a text column right after a right-aligned one is
/// indented one level, so the two never touch. The header row (under the title rows of a
/// ``Layout``) is frozen and repeats on every printed page.
///
/// Rows past the sheet's row limit (Excel's 1,048,576, header included)
/// spill to a continuation sheet named `<name> (2)`, `<name> (3)`, … which
/// repeats the header (and the title rows of a ``Layout``), so no data is
/// ever dropped or refused. Rows under the table (a total, a later section)
/// go through ``appendBelow(_:)`` and spill the same way. Charts that point
/// at a table should point at its first sheet.
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
        /// How the heading aligns: by default right when the format has a number format
        /// (numbers, money, dates, percentages), left otherwise; centred over a centred column.
        public var alignment: XLSXStyle.Alignment

        public init(_ header: String, format: XLSXFormat? = nil, minimumWidth: Double? = nil, alignment: XLSXStyle.Alignment? = nil) {
            self.header = header
            self.format = format
            self.minimumWidth = minimumWidth
            self.alignment = alignment ?? (format?.style.numberFormat != nil ? .right : .left)
        }
    }

    public let columns: [Column]
    /// The name asked for; continuation sheets add ` (2)`, ` (3)`, …
    public let baseName: String
    /// Every sheet the table occupies, first to last.
    public private(set) var sheets: [XLSXWorksheet] = []
    /// Data rows written (headers excluded), over all sheets.
    public private(set) var rowCount = 0
    /// The title rows above the header and how each sheet is laid out.
    public let layout: Layout
    /// The most data rows one sheet holds (the workbook's row limit less the title and header rows).
    public let rowsPerSheet: Int
    private let workbook: XLSXWorkbook
    /// Each column's heading format, from its alignment.
    private let headingFormats: [XLSXFormat]
    private var nextRow = 0
    private var finished = false

    /// Adds the table's first sheet and writes its title rows and header.
    public init(workbook: XLSXWorkbook, name: String, columns: [Column], headerFormat: XLSXFormat? = nil,
                layout: Layout = Layout()) throws {
        guard !columns.isEmpty, columns.count <= XLSXWorkbook.excelMaxColumns else {
            throw XLSXError.invalidArgument(file: workbook.path, reason: "table '\(name)' needs 1...\(XLSXWorkbook.excelMaxColumns) columns")
        }
        let rowsPerSheet = Self.rowsPerSheet(maxRows: workbook.options.maxRowsPerSheet, layout: layout)
        guard layout.titleRows >= 0, rowsPerSheet >= 1 else {
            throw XLSXError.invalidArgument(file: workbook.path, reason: "table '\(name)': \(layout.titleRows) title rows leave no room for data")
        }
        self.workbook = workbook
        self.baseName = name
        self.layout = layout
        self.rowsPerSheet = rowsPerSheet
        let header = try headerFormat ?? workbook.format(.header)
        // A text column right after a right-aligned one is indented one level, heading
        // and cells, so right-aligned numbers and the text after them never touch.
        var columns = columns
        var headings: [XLSXFormat] = []
        for index in columns.indices {
            switch columns[index].alignment {
            case .left where index > 0 && columns[index - 1].alignment == .right && columns[index].format == nil:
                columns[index].format = try workbook.indentedLeft(.plain)
                headings.append(try workbook.indentedLeft(header.style))
            case .left:
                headings.append(header)
            case let alignment:
                headings.append(try XLSXTable.aligned(header, alignment, in: workbook))
            }
        }
        self.columns = columns
        self.headingFormats = headings
        try startSheet()
    }

    /// The sheet rows are currently written to.
    public var currentSheet: XLSXWorksheet { sheets[sheets.count - 1] }

    /// The row of each sheet that holds the header (0 unless the layout has title rows).
    public var headerRow: Int { layout.titleRows }

    /// Appends one row: `body` writes its cells left to right with the ``Row`` it is given.
    /// Starts a continuation sheet first when the current one is full.
    public func appendRow(_ body: (inout Row) throws -> Void) throws {
        guard !finished else {
            throw XLSXError.invalidArgument(file: workbook.path, reason: "table '\(baseName)' is already finished")
        }
        if nextRow >= currentSheet.maxRows {
            try finishSheet()
            try startSheet()
        }
        var row = Row(sheet: currentSheet, row: nextRow, columns: columns)
        try body(&row)
        nextRow += 1
        rowCount += 1
    }

    /// Adds the autofilter to every sheet of the table that holds data rows. Call it after the last row.
    public func finish() throws {
        guard !finished else { return }
        try finishSheet()
        finished = true
    }

    /// Writes one row under the table, after ``finish()``: `body` gets the sheet and the row
    /// to write on, the next row of the table's last sheet or, when that sheet is full,
    /// the first free row of a new continuation sheet (which repeats the title and header).
    /// A body that writes nothing leaves a blank row.
    ///
    /// ```swift
    /// try table.finish()
    /// try table.appendBelow { sheet, row in try sheet.write("Total", row: row, column: 0, format: bold) }
    /// ```
    public func appendBelow(_ body: (XLSXWorksheet, Int) throws -> Void) throws {
        try finish()
        if nextRow >= currentSheet.maxRows { try startSheet() }
        try body(currentSheet, nextRow)
        nextRow += 1
    }

    /// How many sheets a table of `rows` data rows takes in `workbook` with `layout` (at least one).
    public static func sheetCount(rows: Int, in workbook: XLSXWorkbook, layout: Layout = Layout()) -> Int {
        let perSheet = max(rowsPerSheet(maxRows: workbook.options.maxRowsPerSheet, layout: layout), 1)
        return max(1, (rows + perSheet - 1) / perSheet)
    }

    /// The data rows a sheet of `maxRows` rows holds under the title rows and the header.
    private static func rowsPerSheet(maxRows: Int, layout: Layout) -> Int {
        maxRows - layout.titleRows - 1
    }

    private func startSheet() throws {
        let name = sheets.isEmpty ? baseName : "\(baseName) (\(sheets.count + 1))"
        let sheet = try workbook.addWorksheet(named: name)
        let part = Part(number: sheets.count + 1, firstRow: rowCount + 1, rowsPerSheet: rowsPerSheet)
        try layout.writeTitle(sheet, part)
        for (index, column) in columns.enumerated() {
            try sheet.write(column.header, row: headerRow, column: index, format: headingFormats[index])
            if layout.widensForHeadings {
                try sheet.setMinimumColumnWidth(index, max(column.minimumWidth ?? 0, XLSXTable.headerWidth(column.header)))
            } else if let minimum = column.minimumWidth {
                try sheet.setMinimumColumnWidth(index, minimum)
            }
        }
        try sheet.freeze(rows: headerRow + 1)
        try sheet.repeatRowsWhenPrinted(0...headerRow)
        sheets.append(sheet)
        nextRow = headerRow + 1
    }

    /// `format` right-aligned (the heading of a numeric column).
    public static func rightAligned(_ format: XLSXFormat, in workbook: XLSXWorkbook) throws -> XLSXFormat {
        try aligned(format, .right, in: workbook)
    }

    /// `format` with its content aligned `alignment`.
    static func aligned(_ format: XLSXFormat, _ alignment: XLSXStyle.Alignment, in workbook: XLSXWorkbook) throws -> XLSXFormat {
        var style = format.style
        style.alignment = alignment
        return try workbook.format(style)
    }

    /// The width a bold heading needs with room for the autofilter button (about two characters).
    static func headerWidth(_ header: String) -> Double {
        Double(header.count) * 1.1 + 4.5
    }

    /// The autofilter over the current sheet's header and data rows; none on a sheet without data rows.
    private func finishSheet() throws {
        guard nextRow > headerRow + 1 else { return }
        try currentSheet.autofilter(firstRow: headerRow, firstColumn: 0, lastRow: nextRow - 1, lastColumn: columns.count - 1)
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
