import CXlsxWriter

/// A block of cells on a named sheet, for chart series (0-based, inclusive).
public struct XLSXRange: Hashable, Sendable {
    public var sheet: String
    public var firstRow: Int
    public var firstColumn: Int
    public var lastRow: Int
    public var lastColumn: Int

    public init(sheet: String, firstRow: Int, firstColumn: Int, lastRow: Int, lastColumn: Int) {
        self.sheet = sheet
        self.firstRow = firstRow
        self.firstColumn = firstColumn
        self.lastRow = lastRow
        self.lastColumn = lastColumn
    }

    /// Rows `rows` of one column of `sheet`.
    public static func column(_ column: Int, rows: ClosedRange<Int>, of sheet: XLSXWorksheet) -> XLSXRange {
        XLSXRange(sheet: sheet.name, firstRow: rows.lowerBound, firstColumn: column, lastRow: rows.upperBound, lastColumn: column)
    }

    /// How many cells the range covers.
    public var cellCount: Int { (lastRow - firstRow + 1) * (lastColumn - firstColumn + 1) }

    var isValid: Bool {
        firstRow >= 0 && firstColumn >= 0 && firstRow <= lastRow && firstColumn <= lastColumn
            && lastRow < XLSXWorkbook.excelMaxRows && lastColumn < XLSXWorkbook.excelMaxColumns
    }
}

/// A native Excel chart drawn from cell ranges. Make one with
/// ``XLSXWorkbook/addChart(_:)``, add series, then place it with
/// ``XLSXWorksheet/insertChart(_:row:column:xScale:yScale:)``.
///
/// Charts keep references to cells, so they stay right in constant-memory
/// mode; the cells may be written before or after the chart is set up. Each
/// series also carries cached values (see `XLSXChart+Cache.swift`), so
/// viewers that never recalculate still draw it.
public final class XLSXChart {
    /// The kinds of chart tally draws.
    public enum Kind: Hashable, Sendable, CaseIterable {
        /// Horizontal bars.
        case bar
        /// Vertical columns.
        case column
        /// Vertical columns, series stacked on each other.
        case stackedColumn
        case line
        case pie

        var lxwType: UInt8 {
            switch self {
            case .bar: return UInt8(LXW_CHART_BAR.rawValue)
            case .column: return UInt8(LXW_CHART_COLUMN.rawValue)
            case .stackedColumn: return UInt8(LXW_CHART_COLUMN_STACKED.rawValue)
            case .line: return UInt8(LXW_CHART_LINE.rawValue)
            case .pie: return UInt8(LXW_CHART_PIE.rawValue)
            }
        }

        /// Whether the chart has axes (every kind but pie).
        public var hasAxes: Bool { self != .pie }
    }

    /// Where the legend goes.
    public enum LegendPosition: Hashable, Sendable {
        case right, top, bottom, none

        var lxwPosition: UInt8 {
            switch self {
            case .right: return UInt8(LXW_CHART_LEGEND_RIGHT.rawValue)
            case .top: return UInt8(LXW_CHART_LEGEND_TOP.rawValue)
            case .bottom: return UInt8(LXW_CHART_LEGEND_BOTTOM.rawValue)
            case .none: return UInt8(LXW_CHART_LEGEND_NONE.rawValue)
            }
        }
    }

    public let kind: Kind
    let pointer: UnsafeMutablePointer<lxw_chart>
    let state: XLSXWorkbookState
    var isInserted = false
    /// Whether the category axis was given a number format (else a date axis gets its cells' format at close).
    var hasCategoryAxisFormat = false
    /// Whether the value axis was given a number format (else it gets its first series' cells' format at close).
    var hasValueAxisFormat = false
    /// How many series were added.
    public var seriesCount: Int { seriesList.count }
    /// The series added, with the ranges they draw and any cache given.
    var seriesList: [Series] = []

    struct Series {
        let pointer: UnsafeMutablePointer<lxw_chart_series>
        let categories: XLSXRange
        let values: XLSXRange
        let hasCache: Bool
    }

    init(pointer: UnsafeMutablePointer<lxw_chart>, kind: Kind, state: XLSXWorkbookState) {
        self.pointer = pointer
        self.kind = kind
        self.state = state
    }

    /// Adds a series: `values` drawn against `categories` (their labels), named `name` in the legend.
    /// `cache` gives the values the cells hold, for viewers that do not recalculate; when nil
    /// the workbook takes them from the cells the sheet kept (rows below ``XLSXWorkbook/Options/chartSourceRows``).
    public func addSeries(name: String?, categories: XLSXRange, values: XLSXRange, cache: Cache? = nil) throws {
        try state.ensureOpen()
        guard categories.isValid, values.isValid else {
            throw XLSXError.invalidArgument(file: state.path, reason: "chart series range out of bounds")
        }
        if let cache, cache.categories.count != categories.cellCount || cache.values.count != values.cellCount {
            throw XLSXError.invalidArgument(file: state.path, reason: "chart cache does not match its ranges' cell counts")
        }
        guard let series = chart_add_series(pointer, nil, nil) else {
            throw XLSXError.library(file: state.path, operation: "chart_add_series",
                                    code: Int(LXW_ERROR_MEMORY_MALLOC_FAILED.rawValue), message: "libxlsxwriter returned no series")
        }
        // libxlsxwriter copies the sheet names and the series name (lxw_strdup).
        chart_series_set_categories(series, categories.sheet, lxw_row_t(categories.firstRow), lxw_col_t(categories.firstColumn),
                                    lxw_row_t(categories.lastRow), lxw_col_t(categories.lastColumn))
        chart_series_set_values(series, values.sheet, lxw_row_t(values.firstRow), lxw_col_t(values.firstColumn),
                                lxw_row_t(values.lastRow), lxw_col_t(values.lastColumn))
        if let name { chart_series_set_name(series, name) }
        // A given cache goes to libxlsxwriter at once, so thousands of charts keep no Swift copy.
        if let cache {
            XLSXChart.storeCache(cache.categories, in: series.pointee.categories)
            XLSXChart.storeCache(cache.values, in: series.pointee.values)
        }
        seriesList.append(Series(pointer: series, categories: categories, values: values, hasCache: cache != nil))
    }

    /// Sets the chart's title.
    public func setTitle(_ title: String) throws {
        try state.ensureOpen()
        chart_title_set_name(pointer, title)
    }

    /// Names the category axis (the labels) and the value axis (the numbers).
    /// Ignored for pie charts, which have no axes.
    public func setAxisNames(category: String?, value: String?) throws {
        try state.ensureOpen()
        guard kind.hasAxes else { return }
        if let category { chart_axis_set_name(categoryAxis, category) }
        if let value { chart_axis_set_name(valueAxis, value) }
    }

    /// Shows the value axis numbers with an Excel number format (a money format, `0.0%`).
    public func setValueAxisNumberFormat(_ numberFormat: String) throws {
        try state.ensureOpen()
        guard kind.hasAxes else { return }
        chart_axis_set_num_format(valueAxis, numberFormat)
        hasValueAxisFormat = true
    }

    /// Moves or hides the legend.
    public func setLegend(_ position: LegendPosition) throws {
        try state.ensureOpen()
        chart_legend_set_position(pointer, position.lxwPosition)
    }
}
