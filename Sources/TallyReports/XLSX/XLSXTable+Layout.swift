extension XLSXTable {
    /// What every sheet of a table carries above its header, and how its columns are sized.
    ///
    /// A table with a title leaves `titleRows` rows above the header on each
    /// sheet and fills them with `writeTitle`, which is told which part of the
    /// table the sheet holds, so a continuation sheet can say so:
    ///
    /// ```swift
    /// let layout = XLSXTable.Layout(titleRows: 2) { sheet, part in
    ///     let note = part.isContinuation ? " " + locale.continuationNote(rows: part.rows(of: entries.count)) : ""
    ///     try sheet.writeSpanning("Leaderboard: Outubro Ativo" + note, row: 0, format: title)
    /// }
    /// ```
    ///
    /// The title rows and the header are frozen and repeat on every printed page.
    public struct Layout {
        /// Rows above the header on every sheet; the header is on row `titleRows`.
        public var titleRows: Int
        /// Whether each column is at least as wide as its heading with room for the filter
        /// button (true), or fitted to what was written, heading included, alone.
        public var widensForHeadings: Bool
        /// Writes the title rows (`0..<titleRows`) of a sheet of the table.
        public var writeTitle: (XLSXWorksheet, Part) throws -> Void

        public init(titleRows: Int = 0, widensForHeadings: Bool = true,
                    writeTitle: @escaping (XLSXWorksheet, Part) throws -> Void = { _, _ in }) {
            self.titleRows = titleRows
            self.widensForHeadings = widensForHeadings
            self.writeTitle = writeTitle
        }
    }

    /// Which part of a table a sheet holds: the first sheet is part 1, and its
    /// data rows are the table's rows 1 to ``rowsPerSheet``; part 2 starts at
    /// row `rowsPerSheet + 1`, and so on.
    public struct Part: Sendable, Equatable {
        /// 1 for the first sheet, 2 for the first continuation sheet, …
        public let number: Int
        /// The position (1-based, over the whole table) of the sheet's first data row.
        public let firstRow: Int
        /// The most data rows a sheet holds.
        public let rowsPerSheet: Int

        /// Whether the sheet continues the table (every part after the first).
        public var isContinuation: Bool { number > 1 }

        /// The rows of a table of `total` data rows that this sheet holds, nil when none
        /// (a sheet that only holds what follows the table): part 2 of 10 rows at 4 a sheet → `5...8`.
        public func rows(of total: Int) -> ClosedRange<Int>? {
            firstRow <= total ? firstRow...min(firstRow + rowsPerSheet - 1, total) : nil
        }
    }
}
