/// How a worksheet prints. Every sheet gets ``standard`` unless its workbook
/// or the sheet itself says otherwise.
///
/// - Landscape, one page wide (`fitToWidth`, as many pages tall as needed).
/// - The header rows a table declares (``XLSXTable`` does, for its header
///   row) repeat on every page once the sheet runs past one page.
/// - A sheet with charts prints at the scale one page wide gives, with page
///   breaks placed above any chart a break would cut (Excel and LibreOffice
///   ignore manual page breaks under fit-to-page scaling, so such a sheet
///   carries the scale itself).
/// - The footer shows `page / pages`.
/// - The paper is A4 unless the workbook says otherwise (Letter for a
///   US report: ``ReportLocale/paper``).
///
/// ```swift
/// let options = XLSXWorkbook.Options(printSetup: .standard.on(locale.paper))   // A4 for pt-BR, Letter for en-US
/// ```
public struct XLSXPrintSetup: Hashable, Sendable {
    /// A paper size, by its number in the sheet's `pageSetup` (`paperSize`).
    public enum Paper: Int, Hashable, Sendable {
        /// US Letter, 8.5 × 11 in.
        case letter = 1
        /// A4, 210 × 297 mm.
        case a4 = 9

        /// The paper's width and height in inches (portrait).
        public var inches: (width: Double, height: Double) {
            switch self {
            case .letter: return (8.5, 11)
            case .a4: return (210 / 25.4, 297 / 25.4)
            }
        }
    }

    public var landscape: Bool
    /// Scale each page to the sheet's width.
    public var fitToWidth: Bool
    /// A page footer in Excel's header/footer syntax (`&C&P / &N`); nil for none.
    public var footer: String?
    /// The paper size written to the sheet; nil leaves it to the printer's default.
    public var paper: Paper?
    /// Excel's narrow margins (0.25 in at the sides) instead of its normal ones (0.7 in):
    /// a wide table prints larger.
    public var narrowMargins = false

    public init(landscape: Bool = true, fitToWidth: Bool = true, footer: String? = "&C&P / &N", paper: Paper? = .a4) {
        self.landscape = landscape
        self.fitToWidth = fitToWidth
        self.footer = footer
        self.paper = paper
    }

    /// This setup with narrow side margins (``narrowMargins``).
    public var narrow: XLSXPrintSetup {
        var copy = self
        copy.narrowMargins = true
        return copy
    }

    /// This setup on `paper`.
    public func on(_ paper: Paper) -> XLSXPrintSetup {
        var copy = self
        copy.paper = paper
        return copy
    }

    /// Landscape, one page wide, numbered pages.
    public static let standard = XLSXPrintSetup()
    /// libxlsxwriter's defaults: portrait, 100%, no footer, the printer's paper.
    public static let none = XLSXPrintSetup(landscape: false, fitToWidth: false, footer: nil, paper: nil)

    /// The printable width and height of a landscape page in pixels at 100%: the smaller
    /// of A4 and US Letter, less Excel's default margins (0.7 in at the sides, 0.75 in top and
    /// bottom), less some room on the right for viewers that draw charts a little wider.
    static let landscapePage = (width: 860.0, height: 640.0)
    /// The height of a default row in pixels (15 points).
    static let rowHeight = 20.0

    /// Page breaks (each the first row of a new page) so that no chart in `charts` (first and last
    /// row) is cut, for pages of `rowsPerPage` rows; none past the last chart. A moved chart's page
    /// starts a row above it.
    static func pageBreaks(charts: [ClosedRange<Int>], rowsPerPage: Int) -> [Int] {
        guard rowsPerPage > 0, let lastChartRow = charts.map(\.upperBound).max() else { return [] }
        var breaks: [Int] = []
        var pageStart = 0
        while pageStart + rowsPerPage <= lastChartRow {
            var next = pageStart + rowsPerPage
            // A chart that starts on this page and runs past its end moves to the next page, unless it fills a page.
            // The break goes a row above the chart when the page keeps a row of its own: a viewer draws a chart's
            // frame on the line where it starts, so a break on that very row leaves a hairline at the foot of the page.
            for chart in charts where chart.lowerBound > pageStart && chart.lowerBound < next && chart.upperBound >= next {
                next = min(next, max(pageStart + 1, chart.lowerBound - 1))
            }
            breaks.append(next)
            pageStart = next
        }
        return breaks
    }
}
