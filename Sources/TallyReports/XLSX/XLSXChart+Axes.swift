import CXlsxWriter

/// Axis settings beyond names: which libxlsxwriter axis is which, reversed
/// categories, number formats for dates, and fixed bounds.
///
/// ```swift
/// let chart = try book.addChart(.bar)
/// try chart.reverseCategories()                      // rank 1 on top
/// try chart.setCategoryAxisNumberFormat("dd/mm")     // dates on a line chart
/// try chart.setValueAxisBounds(0...1)                // rates from 0% to 100%
/// ```
extension XLSXChart {
    /// The axis that holds the labels. libxlsxwriter's `x_axis` is the
    /// horizontal axis, which for bar charts is the value axis, so bars swap them.
    var categoryAxis: UnsafeMutablePointer<lxw_chart_axis> {
        kind == .bar ? pointer.pointee.y_axis : pointer.pointee.x_axis
    }

    /// The axis that holds the numbers.
    var valueAxis: UnsafeMutablePointer<lxw_chart_axis> {
        kind == .bar ? pointer.pointee.x_axis : pointer.pointee.y_axis
    }

    /// Draws the categories in reverse order (`c:orientation maxMin`): on a bar
    /// chart the first row goes on top, as in the table beside it. The value
    /// axis stays at the bottom.
    public func reverseCategories() throws {
        try state.ensureOpen()
        guard kind.hasAxes else { return }
        chart_axis_set_reverse(categoryAxis)
        chart_axis_set_crossing_max(categoryAxis)
    }

    /// Shows the category labels with an Excel number format, e.g. a date format for a
    /// series whose categories are dates, so the axis shows `31/10` rather than serial numbers.
    /// Without it, categories that are dates the sheet kept (see `XLSXChart+Cache.swift`)
    /// get the cells' own date format at close.
    public func setCategoryAxisNumberFormat(_ numberFormat: String) throws {
        try state.ensureOpen()
        guard kind.hasAxes else { return }
        chart_axis_set_num_format(categoryAxis, numberFormat)
        hasCategoryAxisFormat = true
    }

    /// Fixes the value axis to `bounds`, e.g. `0...1` for a rate shown as a percentage, with
    /// gridlines and labels every `majorUnit` when given (every 0.1: 40%, 50%, … rather than 45%, 55%).
    public func setValueAxisBounds(_ bounds: ClosedRange<Double>, majorUnit: Double? = nil) throws {
        try state.ensureOpen()
        guard kind.hasAxes else { return }
        chart_axis_set_min(valueAxis, bounds.lowerBound)
        chart_axis_set_max(valueAxis, bounds.upperBound)
        if let majorUnit { chart_axis_set_major_unit(valueAxis, majorUnit) }
    }

    /// Fixes only the value axis minimum (often 0, so bars and lines are not exaggerated).
    public func setValueAxisMinimum(_ minimum: Double) throws {
        try state.ensureOpen()
        guard kind.hasAxes else { return }
        chart_axis_set_min(valueAxis, minimum)
    }

    /// Puts the category labels at the bottom of the plot area rather than on the zero line, so
    /// columns below zero (losses) never run through them.
    public func setCategoryLabelsLow() throws {
        try state.ensureOpen()
        guard kind.hasAxes else { return }
        chart_axis_set_label_position(categoryAxis, UInt8(LXW_CHART_AXIS_LABEL_POSITION_LOW.rawValue))
    }

    /// Value-axis bounds that fit `values` (and any target drawn with them): the lowest value
    /// rounded down and the highest rounded up to a multiple of `step`, a step further when a
    /// value would sit within a quarter step of the edge (a marker there would be cut), kept
    /// within `limits`. Rates of 15–45% get 10–50%, not a flat 0–100%. Nil without values.
    ///
    /// ```swift
    /// XLSXChart.fittedBounds([0.15, 0.45, 0.20])   // 0.1...0.5
    /// XLSXChart.fittedBounds([0.5, 1.0])           // 0.4...1.0 (not beyond 100%)
    /// ```
    public static func fittedBounds(_ values: [Double], step: Double = 0.1, limits: ClosedRange<Double> = 0...1) -> ClosedRange<Double>? {
        let finite = values.filter(\.isFinite)
        guard let low = finite.min(), let high = finite.max(), step > 0 else { return nil }
        // Counted in whole steps, so the bounds are exact multiples (0.1, not 0.30000000000000004 − 0.2).
        let lowSteps = ((low - step / 4) / step).rounded(.down)
        let highSteps = ((high + step / 4) / step).rounded(.up)
        let exact = { (steps: Double) in (steps * step * 1e9).rounded() / 1e9 }
        let lower = max(limits.lowerBound, exact(lowSteps))
        let upper = min(limits.upperBound, exact(highSteps))
        return lower < upper ? lower...upper : limits
    }
}
