/// What a cell looks like: font weight, number format, fill, border.
///
/// A value description; ``XLSXWorkbook/format(_:)`` turns it into an
/// ``XLSXFormat`` once per workbook and caches it, so equal styles share one
/// Excel format.
public struct XLSXStyle: Hashable, Sendable {
    /// Horizontal alignment of the cell's content.
    public enum Alignment: Hashable, Sendable { case left, center, right }

    public var bold: Bool
    public var italic: Bool
    /// Font size in points; nil keeps the default (11).
    public var fontSize: Double?
    /// An Excel number format code (`#,##0.00`, `dd/mm/yyyy`, `0.0%`); nil is General.
    public var numberFormat: String?
    /// Solid background fill as `0xRRGGBB`; nil for none.
    public var fillColor: UInt32?
    /// A thin border under the cell.
    public var bottomBorder: Bool
    public var alignment: Alignment?
    /// Font colour as `0xRRGGBB`; nil keeps the default (black).
    public var fontColor: UInt32?
    /// A single underline.
    public var underline: Bool
    /// Text wraps onto more lines within the column's width (the row grows); such a cell
    /// never widens its column when widths are fitted.
    public var wraps: Bool
    /// Content sits at the top of its cell (the default is the bottom): a row whose
    /// cells hold one line and several lines reads from its first line.
    public var topAligned: Bool

    public init(bold: Bool = false, italic: Bool = false, fontSize: Double? = nil, numberFormat: String? = nil,
                fillColor: UInt32? = nil, bottomBorder: Bool = false, alignment: Alignment? = nil,
                fontColor: UInt32? = nil, underline: Bool = false, wraps: Bool = false, topAligned: Bool = false) {
        self.wraps = wraps
        self.topAligned = topAligned
        self.fontColor = fontColor
        self.underline = underline
        self.bold = bold
        self.italic = italic
        self.fontSize = fontSize
        self.numberFormat = numberFormat
        self.fillColor = fillColor
        self.bottomBorder = bottomBorder
        self.alignment = alignment
    }

    /// No formatting (General).
    public static let plain = XLSXStyle()
    /// A table's header row: bold on a light blue fill, with a bottom border.
    public static let header = XLSXStyle(bold: true, fillColor: 0xDDEBF7, bottomBorder: true)
    /// A sheet title: bold 14 pt.
    public static let title = XLSXStyle(bold: true, fontSize: 14)
    /// Whole numbers with thousands separators: `#,##0`.
    public static let integer = XLSXStyle(numberFormat: "#,##0")
    /// Fractions shown as percentages with one decimal: `0.0%`.
    public static let percent = XLSXStyle(numberFormat: "0.0%")
    /// A link: blue and underlined, as viewers show hyperlinks.
    public static let link = XLSXStyle(fontColor: 0x0563C1, underline: true)
    /// A pale yellow fill to draw the eye (totals, rows needing attention).
    public static let highlight = XLSXStyle(fillColor: 0xFFF2CC)

    /// Money with a currency number format, e.g. from ``ReportLocale/excelMoneyFormat(for:)``.
    public static func money(_ numberFormat: String) -> XLSXStyle { XLSXStyle(numberFormat: numberFormat) }

    /// Dates with a date number format, e.g. ``ReportLocale/excelDateFormat``.
    public static func date(_ numberFormat: String) -> XLSXStyle { XLSXStyle(numberFormat: numberFormat) }

    /// This style in bold.
    public var bolded: XLSXStyle { var copy = self; copy.bold = true; return copy }

    /// This style with the ``highlight`` fill.
    public var highlighted: XLSXStyle { var copy = self; copy.fillColor = XLSXStyle.highlight.fillColor; return copy }
}
