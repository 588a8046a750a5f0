/// The cells a sheet keeps so charts drawn from them can carry cached values
/// in constant-memory mode, where libxlsxwriter streams rows to disk and
/// cannot read them back.
///
/// Only rows below ``XLSXWorkbook/Options/chartSourceRows`` are kept (the
/// small tables charts are drawn from sit at the top of their sheets); a
/// workbook that gives every chart its values (``XLSXChart/Cache``) sets it to 0.
extension XLSXWorksheet {
    static let chartSourceColumns = 64

    func keepForCharts(_ value: XLSXChartValue, row: Int, column: Int) {
        guard column < Self.chartSourceColumns else { return }
        chartSource[row * Self.chartSourceColumns + column] = value
    }

    /// The kept values of `range`, row by row (an unwritten cell is ``XLSXChartValue/empty``);
    /// nil when the range reaches rows or columns that are not kept.
    func keptValues(_ range: XLSXRange) -> [XLSXChartValue]? {
        guard range.lastRow < chartSourceRows, range.lastColumn < Self.chartSourceColumns else { return nil }
        var values: [XLSXChartValue] = []
        values.reserveCapacity(range.cellCount)
        for row in range.firstRow...range.lastRow {
            for column in range.firstColumn...range.lastColumn {
                values.append(chartSource[row * Self.chartSourceColumns + column] ?? .empty)
            }
        }
        return values
    }
}
