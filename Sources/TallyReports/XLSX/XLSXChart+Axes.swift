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

    /// Fixes the value axis to `bounds`, e.g. `0...1` for a rate shown as a percentage.
    public func setValueAxisBounds(_ bounds: ClosedRange<Double>) throws {
        try state.ensureOpen()
        guard kind.hasAxes else { return }
        chart_axis_set_min(valueAxis, bounds.lowerBound)
        chart_axis_set_max(valueAxis, bounds.upperBound)
    }

    /// Fixes only the value axis minimum (often 0, so bars and lines are not exaggerated).
    public func setValueAxisMinimum(_ minimum: Double) throws {
        try state.ensureOpen()
        guard kind.hasAxes else { return }
        chart_axis_set_min(valueAxis, minimum)
    }
}
