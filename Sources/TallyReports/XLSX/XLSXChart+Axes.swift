import CXlsxWriter

/// Axis number formats and bounds of a chart.
///
/// ```swift
/// try chart.setCategoryAxisNumberFormat("dd mmm")    // date cells shown as dates, not serials
/// try chart.setValueAxisBounds(min: 0, max: 1)       // a rate axis from 0% to 100%
/// ```
extension XLSXChart {
    /// Shows the category axis labels with an Excel number format (a date
    /// format for categories that are dates). Ignored for pie charts.
    public func setCategoryAxisNumberFormat(_ numberFormat: String) throws {
        try state.ensureOpen()
        guard kind.hasAxes else { return }
        chart_axis_set_num_format(pointer.pointee.x_axis, numberFormat)
    }

    /// Fixes the value axis to `min...max` (either may be nil: automatic). Ignored for pie charts.
    public func setValueAxisBounds(min: Double?, max: Double?) throws {
        try state.ensureOpen()
        guard kind.hasAxes else { return }
        if let min, let max, min >= max {
            throw XLSXError.invalidArgument(file: state.path, reason: "chart value axis: minimum \(min) is not below maximum \(max)")
        }
        if let min { chart_axis_set_min(pointer.pointee.y_axis, min) }
        if let max { chart_axis_set_max(pointer.pointee.y_axis, max) }
    }
}
