import CXlsxWriter

/// A cell format registered in one workbook. Get it from
/// ``XLSXWorkbook/format(_:)`` once and pass it to every cell that needs it;
/// it is only valid for that workbook, until the workbook is closed.
public struct XLSXFormat {
    let pointer: UnsafeMutablePointer<lxw_format>
    /// The style this format was made from.
    public let style: XLSXStyle
    /// How wide a number shown in this format is, for column fitting.
    let widthModel: XLSXNumberWidth
    /// The workbook it belongs to, to catch formats passed to another workbook.
    let owner: ObjectIdentifier

    init(pointer: UnsafeMutablePointer<lxw_format>, style: XLSXStyle, owner: ObjectIdentifier) {
        self.pointer = pointer
        self.style = style
        self.widthModel = XLSXNumberWidth(numberFormat: style.numberFormat)
        self.owner = owner
    }

    /// Applies `style` to a fresh libxlsxwriter format.
    static func configure(_ format: UnsafeMutablePointer<lxw_format>, with style: XLSXStyle) {
        if style.bold { format_set_bold(format) }
        if style.italic { format_set_italic(format) }
        if let size = style.fontSize { format_set_font_size(format, size) }
        if let code = style.numberFormat { format_set_num_format(format, code) }
        if let fill = style.fillColor {
            format_set_pattern(format, UInt8(LXW_PATTERN_SOLID.rawValue))
            format_set_bg_color(format, lxw_color_t(fill))
        }
        if let color = style.fontColor { format_set_font_color(format, lxw_color_t(color)) }
        if style.underline { format_set_underline(format, UInt8(LXW_UNDERLINE_SINGLE.rawValue)) }
        if style.wraps { format_set_text_wrap(format) }
        if style.topAligned { format_set_align(format, UInt8(LXW_ALIGN_VERTICAL_TOP.rawValue)) }
        if style.bottomBorder { format_set_bottom(format, UInt8(LXW_BORDER_THIN.rawValue)) }
        switch style.alignment {
        case .left?: format_set_align(format, UInt8(LXW_ALIGN_LEFT.rawValue))
        case .center?: format_set_align(format, UInt8(LXW_ALIGN_CENTER.rawValue))
        case .right?: format_set_align(format, UInt8(LXW_ALIGN_RIGHT.rawValue))
        case nil: break
        }
    }
}

/// Estimates how many characters a number takes once Excel formats it, from
/// the first section of its number format, so columns can be sized while
/// streaming without formatting every number as text.
struct XLSXNumberWidth: Sendable {
    /// Digits after the decimal point.
    var decimals = 0
    /// Whether thousands separators are shown.
    var grouping = false
    /// Characters of literal text (currency symbols, spaces, `%`).
    var literal = 0
    /// Whether the value is multiplied by 100 (`%`).
    var percent = false
    /// For date/time formats: the fixed shown width; nil for numbers.
    var fixedWidth: Int?

    init(numberFormat: String?) {
        guard let code = numberFormat, !code.isEmpty else {
            decimals = -1 // General: up to 10 significant digits
            return
        }
        let section = code.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        var inQuotes = false
        var afterPoint = false
        var isDate = false
        var shown = 0
        var escaped = false
        var bracket = false
        // Inside `[$R$-416]` (a currency with its locale): the symbol is shown, the language id is not.
        var bracketSymbol: Bool?
        for scalar in section.unicodeScalars {
            if escaped { literal += 1; shown += 1; escaped = false; continue }
            if inQuotes {
                if scalar == "\"" { inQuotes = false } else { literal += 1; shown += 1 }
                continue
            }
            if bracket {
                if scalar == "]" { bracket = false; bracketSymbol = nil; continue }
                switch bracketSymbol {
                case nil: bracketSymbol = scalar == "$"
                case true?: if scalar == "-" { bracketSymbol = false } else { literal += 1; shown += 1 }
                case false?: break
                }
                continue
            }
            switch scalar {
            case "\"": inQuotes = true
            case "\\": escaped = true
            case "[": bracket = true
            case ".": afterPoint = true; shown += 1
            case "0", "#", "?": if afterPoint { decimals += 1 }; shown += 1
            case ",": grouping = true
            case "%": percent = true; literal += 1
            case "d", "m", "y", "h", "s", "D", "M", "Y", "H", "S": isDate = true; shown += 1
            case "_", "*": escaped = true // `_x` and `*x` take the next character's space
            default: literal += 1; shown += 1
            }
        }
        if isDate { fixedWidth = shown }
    }

    /// The estimated shown width of `value`.
    func width(of value: Double) -> Int {
        if let fixed = fixedWidth { return fixed }
        guard value.isFinite else { return 7 }
        var magnitude = abs(percent ? value * 100 : value)
        if decimals < 0 { // General
            magnitude = magnitude.rounded(.towardZero)
            return min(digitCount(magnitude), 11) + (value < 0 ? 1 : 0) + (value != value.rounded() ? 6 : 0)
        }
        let digits = digitCount(magnitude.rounded(.towardZero))
        let separators = grouping ? (digits - 1) / 3 : 0
        return digits + separators + (decimals > 0 ? decimals + 1 : 0) + literal + (value < 0 ? 1 : 0)
    }

    private func digitCount(_ integral: Double) -> Int {
        var count = 1
        var threshold = 10.0
        while integral >= threshold && count < 309 {
            count += 1
            threshold *= 10
        }
        return count
    }
}
