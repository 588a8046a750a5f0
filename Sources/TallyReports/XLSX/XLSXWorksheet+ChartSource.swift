/// The cells a sheet keeps so charts drawn from them can carry cached values
/// in constant-memory mode, where libxlsxwriter streams rows to disk and
/// cannot read them back.
///
/// Only rows below ``XLSXWorkbook/Options/chartSourceRows`` are kept (the
/// small tables charts are drawn from sit at the top of their sheets); a
/// workbook that gives every chart its values (``XLSXChart/Cache``) sets it to 0.
/// In either mode the sheet notes which of those cells are dates and their
/// format, so a chart drawn against dates gets a date axis, and the number
/// format of the numbers, so a value axis (and its caches) shows the cells'.
extension XLSXWorksheet {
    static let chartSourceColumns = 64

    func keepForCharts(_ value: XLSXChartValue, row: Int, column: Int) {
        guard keepsChartValues, column < Self.chartSourceColumns else { return }
        chartSource[row * Self.chartSourceColumns + column] = value
    }

    /// The kept values of `range`, row by row (an unwritten cell is ``XLSXChartValue/empty``);
    /// nil when the range reaches rows or columns that are not kept.
    func keptValues(_ range: XLSXRange) -> [XLSXChartValue]? {
        guard keepsChartValues, range.lastRow < chartSourceRows, range.lastColumn < Self.chartSourceColumns else { return nil }
        var values: [XLSXChartValue] = []
        values.reserveCapacity(range.cellCount)
        for row in range.firstRow...range.lastRow {
            for column in range.firstColumn...range.lastColumn {
                values.append(chartSource[row * Self.chartSourceColumns + column] ?? .empty)
            }
        }
        return values
    }

    /// The number format of `range`'s cells when every kept number of it has the same one, for a chart's
    /// value axis and its caches; nil when the range is not kept or its numbers differ in format.
    func keptNumberFormat(_ range: XLSXRange) -> String? {
        guard range.lastRow < chartSourceRows, range.lastColumn < Self.chartSourceColumns else { return nil }
        var found: String?
        for row in range.firstRow...range.lastRow {
            for column in range.firstColumn...range.lastColumn {
                guard let code = keptNumberFormats[row * Self.chartSourceColumns + column] else { continue }
                if let found, found != code { return nil }
                found = code
            }
        }
        return found
    }

    /// The date format of `range` when every cell of it is a kept date, for a chart's date axis.
    func keptDateFormat(_ range: XLSXRange) -> String? {
        guard range.lastRow < chartSourceRows, range.lastColumn < Self.chartSourceColumns else { return nil }
        let first = keptDateFormats[range.firstRow * Self.chartSourceColumns + range.firstColumn]
        for row in range.firstRow...range.lastRow {
            for column in range.firstColumn...range.lastColumn
            where keptDateFormats[row * Self.chartSourceColumns + column] == nil { return nil }
        }
        return first
    }
}
