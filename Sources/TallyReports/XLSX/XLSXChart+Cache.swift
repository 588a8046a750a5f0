import CXlsxWriter
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Chart caches: the `c:numCache` / `c:strCache` points written beside each
/// series' cell references.
///
/// libxlsxwriter fills them from the sheets' cells only when the workbook
/// keeps its cells in memory; in constant-memory mode it cannot read them
/// back, and a chart then shows nothing in viewers that do not recalculate.
/// So ``XLSXWorkbook/close()`` fills every series' cache before writing: from
/// the values given to ``XLSXChart/addSeries(name:categories:values:cache:)``,
/// else from the cells the source sheet kept (``XLSXWorksheet``'s chart
/// source rows). A cache filled here is marked so libxlsxwriter leaves it.
extension XLSXChart {
    /// Stores `points` as the cache of `range` (a series' categories or values).
    static func storeCache(_ points: [XLSXChartValue], in range: UnsafeMutablePointer<lxw_series_range>) {
        // libxlsxwriter counts a cache's points in 16 bits; a longer series goes without one.
        guard let head = range.pointee.data_cache, head.pointee.stqh_first == nil, !points.isEmpty,
              points.count <= Int(UInt16.max) else { return }
        let nextOffset = MemoryLayout<lxw_series_data_point>.offset(of: \lxw_series_data_point.list_pointers.stqe_next)!
        var hasText = false
        for point in points {
            // libxlsxwriter frees every point (and its string) with free() when the chart is freed.
            let node = calloc(1, MemoryLayout<lxw_series_data_point>.size)!.assumingMemoryBound(to: lxw_series_data_point.self)
            switch point {
            case .number(let number): node.pointee.number = number
            case .text(let text):
                node.pointee.is_string = 1
                node.pointee.string = strdup(text)
                hasText = true
            case .empty: node.pointee.no_data = 1
            }
            // STAILQ_INSERT_TAIL: the last node's `next` (or the head's `first`) points at the new node.
            head.pointee.stqh_last.pointee = node
            head.pointee.stqh_last = (UnsafeMutableRawPointer(node) + nextOffset)
                .assumingMemoryBound(to: UnsafeMutablePointer<lxw_series_data_point>?.self)
        }
        range.pointee.num_data_points = UInt16(points.count)
        range.pointee.has_string_cache = hasText ? 1 : 0
        range.pointee.ignore_cache = 1
    }

    /// Fills the caches of the series given none, reading cells with `lookup` (nil: cells not kept),
    /// gives a category axis of dates the dates' format (`dateFormat`) and a value axis its first
    /// series' cells' number format (`numberFormat`: what Excel shows for an axis linked to its
    /// source, and what ``XLSXExactNumbers`` gives the value caches), unless the axis has one.
    func fillCaches(lookup: (XLSXRange) -> [XLSXChartValue]?, dateFormat: (XLSXRange) -> String?,
                    numberFormat: (XLSXRange) -> String? = { _ in nil }) {
        if kind.hasAxes, !hasCategoryAxisFormat, let first = seriesList.first, let code = dateFormat(first.categories) {
            chart_axis_set_num_format(categoryAxis, code)
        }
        if kind.hasAxes, !hasValueAxisFormat, let first = seriesList.first, let code = numberFormat(first.values) {
            chart_axis_set_num_format(valueAxis, code)
            hasValueAxisFormat = true
        }
        for series in seriesList where !series.hasCache {
            if let categories = lookup(series.categories) {
                XLSXChart.storeCache(categories, in: series.pointer.pointee.categories)
            }
            if let values = lookup(series.values) {
                XLSXChart.storeCache(values, in: series.pointer.pointee.values)
            }
        }
    }
}
