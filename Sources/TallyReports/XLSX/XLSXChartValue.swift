/// One cached point of a chart series: what a viewer that does not
/// recalculate (Quick Look, mail previews) draws without reading the cells.
///
/// ```swift
/// try chart.addSeries(name: "Pontos", categories: range, values: values,
///                     cache: .init(categories: [.text("Ana"), .text("Bia")], values: [.number(12), .number(9)]))
/// ```
public enum XLSXChartValue: Hashable, Sendable {
    case number(Double)
    case text(String)
    /// No value: a gap in the series.
    case empty
}

extension XLSXChart {
    /// The values a series' cells hold, stored in the chart as its cache.
    public struct Cache: Hashable, Sendable {
        public var categories: [XLSXChartValue]
        public var values: [XLSXChartValue]

        public init(categories: [XLSXChartValue], values: [XLSXChartValue]) {
            self.categories = categories
            self.values = values
        }
    }
}
