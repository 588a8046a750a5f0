import CXlsxWriter

/// Conditional formats: cells that colour themselves from their value (or
/// their row's), so the colour follows an edit in Excel.
///
/// ```swift
/// let red = try book.format(XLSXStyle(fillColor: 0xF8CBAD))
/// try sheet.conditionalFormat(rows: 4...12, columns: 7...7, whenEqualTo: "below", format: red)
/// try sheet.conditionalFormat(rows: 1...9, columns: 0...9, whenFormula: "$G2=\"no\"", format: grey)
/// ```
extension XLSXWorksheet {
    /// Gives `format` (its fill, font, number format) to the cells of the range whose value is the text `text`.
    public func conditionalFormat(rows: ClosedRange<Int>, columns: ClosedRange<Int>, whenEqualTo text: String,
                                  format: XLSXFormat) throws {
        let quoted = "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        try addConditionalFormat(rows: rows, columns: columns, format: format, value: quoted) { rule in
            rule.type = UInt8(LXW_CONDITIONAL_TYPE_CELL.rawValue)
            rule.criteria = UInt8(LXW_CONDITIONAL_CRITERIA_EQUAL_TO.rawValue)
        }
    }

    /// Gives `format` to the cells of the range where `formula` is true; the
    /// formula is written for the range's top-left cell (relative references
    /// move with each cell, `$` pins a column or row), without the `=`.
    public func conditionalFormat(rows: ClosedRange<Int>, columns: ClosedRange<Int>, whenFormula formula: String,
                                  format: XLSXFormat) throws {
        try addConditionalFormat(rows: rows, columns: columns, format: format, value: formula) { rule in
            rule.type = UInt8(LXW_CONDITIONAL_TYPE_FORMULA.rawValue)
        }
    }

    private func addConditionalFormat(rows: ClosedRange<Int>, columns: ClosedRange<Int>, format: XLSXFormat, value: String,
                                      _ configure: (inout lxw_conditional_format) -> Void) throws {
        try state.ensureOpen()
        guard format.owner == ObjectIdentifier(state) else {
            throw XLSXError.invalidArgument(file: state.path, reason: "format belongs to another workbook")
        }
        guard rows.lowerBound >= 0, rows.upperBound < maxRows, columns.lowerBound >= 0,
              columns.upperBound < XLSXWorkbook.excelMaxColumns else {
            throw XLSXError.invalidArgument(file: state.path, reason: "sheet '\(name)': conditional format range out of bounds")
        }
        var rule = lxw_conditional_format()
        configure(&rule)
        rule.format = format.pointer
        // libxlsxwriter copies the value string (lxw_strdup) before returning.
        let code = value.withCString { text in
            rule.value_string = UnsafeMutablePointer(mutating: text)
            return worksheet_conditional_format_range(pointer, lxw_row_t(rows.lowerBound), lxw_col_t(columns.lowerBound),
                                                      lxw_row_t(rows.upperBound), lxw_col_t(columns.upperBound), &rule)
        }
        try XLSXError.check(code, file: state.path, operation: "adding a conditional format on sheet '\(name)'")
    }
}
