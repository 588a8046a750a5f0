import CXlsxWriter

/// How a series looks: its fill (columns, bars), its line (lines) and its
/// markers. Series are numbered in the order they were added, from 0.
///
/// ```swift
/// try chart.setSeriesFill(0, color: 0x2E7D32)                          // green columns
/// try chart.setSeriesLine(2, color: 0x7F7F7F, width: 1.5, dashed: true) // a grey dashed target line
/// ```
extension XLSXChart {
    /// Fills series `index`'s columns or bars with `color` (`0xRRGGBB`).
    public func setSeriesFill(_ index: Int, color: UInt32) throws {
        let series = try series(index)
        var fill = lxw_chart_fill()
        fill.color = lxw_color_t(color)
        chart_series_set_fill(series, &fill)   // libxlsxwriter copies the fill
    }

    /// Draws series `index`'s line in `color`, `width` points wide, dashed or solid.
    public func setSeriesLine(_ index: Int, color: UInt32, width: Double, dashed: Bool = false) throws {
        let series = try series(index)
        var line = lxw_chart_line()
        line.color = lxw_color_t(color)
        line.width = Float(width)
        if dashed { line.dash_type = UInt8(LXW_CHART_LINE_DASH_DASH.rawValue) }
        chart_series_set_line(series, &line)   // libxlsxwriter copies the line
    }

    /// Marks each point of series `index` with a circle, or with nothing (`false`), as on a line of a few points.
    public func setSeriesMarkers(_ index: Int, _ shown: Bool) throws {
        let series = try series(index)
        chart_series_set_marker_type(series, UInt8(shown ? LXW_CHART_MARKER_CIRCLE.rawValue : LXW_CHART_MARKER_NONE.rawValue))
    }

    private func series(_ index: Int) throws -> UnsafeMutablePointer<lxw_chart_series> {
        try state.ensureOpen()
        guard seriesList.indices.contains(index) else {
            throw XLSXError.invalidArgument(file: state.path, reason: "chart has no series \(index) (\(seriesList.count) added)")
        }
        return seriesList[index].pointer
    }
}
