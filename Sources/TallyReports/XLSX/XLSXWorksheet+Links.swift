import CXlsxWriter

extension XLSXWorksheet {
    /// Writes `text` as a link to cell A1 of the sheet named `sheet` in the same workbook
    /// (for an index sheet of a workbook with many sheets).
    ///
    /// ```swift
    /// try index.writeLink("Corrida de outubro", toSheet: board.name, row: 1, column: 1, format: link)
    /// ```
    public func writeLink(_ text: String, toSheet sheet: String, row: Int, column: Int, format: XLSXFormat? = nil) throws {
        guard !text.isEmpty else { return try write(text, row: row, column: column, format: format) }
        try checkCell(row, column, format)
        // A quoted sheet name doubles its apostrophes.
        let target = "internal:'" + sheet.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'!A1"
        let code = target.withCString { url in
            text.withCString { shown in
                worksheet_write_url_opt(pointer, lxw_row_t(row), lxw_col_t(column), url, format?.pointer, shown, nil)
            }
        }
        try check(code, "writing a link at \(Self.reference(row: row, column: column))")
        if row < chartSourceRows { keepForCharts(.text(text), row: row, column: column) }
        noteText(text, column: column, format: format)
        note(row, column)
    }
}
