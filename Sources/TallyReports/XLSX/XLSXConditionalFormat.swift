import CXlsxWriter

/// A conditional format: cells coloured by their value, e.g. a rate's status
/// against its target, or a heat map of scores.
///
/// ```swift
/// let good = try book.format(XLSXStyle(fillColor: XLSXConditionalFormat.goodFill))
/// try sheet.conditionalFormat(.atLeast(0.8, good), rows: 1...12, columns: 3...3)
/// try sheet.conditionalFormat(.colorScale(low: 0xF8696B, middle: 0xFFEB84, high: 0x63BE7B), rows: 1...40, columns: 2...32)
/// try sheet.conditionalFormat(.equalTo("below", red), rows: 4...12, columns: 7...7)
/// try sheet.conditionalFormat(.formula("$G2=\"no\"", grey), rows: 1...9, columns: 0...9)
/// ```
public enum XLSXConditionalFormat {
    /// Cells whose value is at least `value` get `format`.
    case atLeast(Double, XLSXFormat)
    /// Cells whose value is below `value` get `format`.
    case below(Double, XLSXFormat)
    /// Cells whose value lies in `range` (bounds included) get `format`.
    case between(ClosedRange<Double>, XLSXFormat)
    /// Cells whose value is the text `text` get `format`.
    case equalTo(String, XLSXFormat)
    /// Cells for which `formula` is true get `format`. The formula is written for the
    /// range's top-left cell, without the `=`: relative references move with each
    /// cell, `$` pins a column or row.
    case formula(String, XLSXFormat)
    /// A three-colour scale from the lowest through the 50th percentile to the highest value (colours `0xRRGGBB`).
    case colorScale(low: UInt32, middle: UInt32, high: UInt32)
    /// A three-colour scale pinned to fixed values (`at`: low, middle, high), so sheets
    /// colour the same value alike whatever else they hold (a 0–100 score: `at: (0, 50, 100)`).
    case pinnedColorScale(low: UInt32, middle: UInt32, high: UInt32, at: (Double, Double, Double))

    /// Fills for status against a target: met (green), near (amber), missed (red).
    public static let goodFill: UInt32 = 0xC6EFCE
    public static let neutralFill: UInt32 = 0xFFEB9C
    public static let badFill: UInt32 = 0xFFC7CE

    var format: XLSXFormat? {
        switch self {
        case .atLeast(_, let format), .below(_, let format), .between(_, let format),
             .equalTo(_, let format), .formula(_, let format): return format
        case .colorScale, .pinnedColorScale: return nil
        }
    }
}

extension XLSXWorksheet {
    /// Applies `rule` to the cells of `rows` × `columns`. Blank cells are left uncoloured.
    public func conditionalFormat(_ rule: XLSXConditionalFormat, rows: ClosedRange<Int>, columns: ClosedRange<Int>) throws {
        try state.ensureOpen()
        guard rows.lowerBound >= 0, rows.upperBound < maxRows, columns.lowerBound >= 0,
              columns.upperBound < XLSXWorkbook.excelMaxColumns else {
            throw XLSXError.invalidArgument(file: state.path, reason: "sheet '\(name)': conditional format range out of bounds")
        }
        if let format = rule.format, format.owner != ObjectIdentifier(state) {
            throw XLSXError.invalidArgument(file: state.path, reason: "sheet '\(name)': format belongs to another workbook")
        }
        var c = lxw_conditional_format()
        switch rule {
        case .atLeast(let value, let format):
            c.type = UInt8(LXW_CONDITIONAL_TYPE_CELL.rawValue)
            c.criteria = UInt8(LXW_CONDITIONAL_CRITERIA_GREATER_THAN_OR_EQUAL_TO.rawValue)
            c.value = value
            c.format = format.pointer
        case .below(let value, let format):
            c.type = UInt8(LXW_CONDITIONAL_TYPE_CELL.rawValue)
            c.criteria = UInt8(LXW_CONDITIONAL_CRITERIA_LESS_THAN.rawValue)
            c.value = value
            c.format = format.pointer
        case .between(let range, let format):
            c.type = UInt8(LXW_CONDITIONAL_TYPE_CELL.rawValue)
            c.criteria = UInt8(LXW_CONDITIONAL_CRITERIA_BETWEEN.rawValue)
            c.min_value = range.lowerBound
            c.max_value = range.upperBound
            c.format = format.pointer
        case .equalTo(let text, let format):
            c.type = UInt8(LXW_CONDITIONAL_TYPE_CELL.rawValue)
            c.criteria = UInt8(LXW_CONDITIONAL_CRITERIA_EQUAL_TO.rawValue)
            c.format = format.pointer
            return try add(&c, rows: rows, columns: columns, text: "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
        case .formula(let formula, let format):
            c.type = UInt8(LXW_CONDITIONAL_TYPE_FORMULA.rawValue)
            c.format = format.pointer
            return try add(&c, rows: rows, columns: columns, text: formula)
        case .colorScale(let low, let middle, let high):
            c.type = UInt8(LXW_CONDITIONAL_3_COLOR_SCALE.rawValue)
            c.min_color = lxw_color_t(low)
            c.mid_color = lxw_color_t(middle)
            c.max_color = lxw_color_t(high)
        case .pinnedColorScale(let low, let middle, let high, let values):
            c.type = UInt8(LXW_CONDITIONAL_3_COLOR_SCALE.rawValue)
            let number = UInt8(LXW_CONDITIONAL_RULE_TYPE_NUMBER.rawValue)
            (c.min_rule_type, c.mid_rule_type, c.max_rule_type) = (number, number, number)
            (c.min_value, c.mid_value, c.max_value) = values
            c.min_color = lxw_color_t(low)
            c.mid_color = lxw_color_t(middle)
            c.max_color = lxw_color_t(high)
        }
        try add(&c, rows: rows, columns: columns, text: nil)
    }

    /// Adds `rule` to the sheet; `text` is its value as a string (libxlsxwriter
    /// copies it before returning).
    private func add(_ rule: inout lxw_conditional_format, rows: ClosedRange<Int>, columns: ClosedRange<Int>,
                     text: String?) throws {
        let add = { (rule: inout lxw_conditional_format) in
            worksheet_conditional_format_range(self.pointer, lxw_row_t(rows.lowerBound), lxw_col_t(columns.lowerBound),
                                               lxw_row_t(rows.upperBound), lxw_col_t(columns.upperBound), &rule)
        }
        let code: lxw_error
        if let text {
            code = text.withCString { chars in
                rule.value_string = UnsafeMutablePointer(mutating: chars)
                return add(&rule)
            }
        } else {
            code = add(&rule)
        }
        try check(code, "adding a conditional format")
    }
}
