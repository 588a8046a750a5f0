import CXlsxWriter

/// Why writing an XLSX workbook failed. Every case names the file.
public enum XLSXError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libxlsxwriter refused an operation; `message` is its `lxw_strerror` text.
    case library(file: String, operation: String, code: Int, message: String)
    /// A row index at or past the sheet's row limit (Excel's is 1,048,576 rows).
    case rowLimit(file: String, sheet: String, row: Int, limit: Int)
    /// A column index at or past Excel's 16,384 columns.
    case columnLimit(file: String, sheet: String, column: Int)
    /// The workbook was already closed (or failed to open); nothing more can be written.
    case closed(file: String)
    /// An argument tally's wrapper refuses before reaching the library.
    case invalidArgument(file: String, reason: String)

    public var description: String {
        switch self {
        case .library(let file, let operation, let code, let message):
            return "\(file): \(operation) failed: \(message) (libxlsxwriter error \(code))"
        case .rowLimit(let file, let sheet, let row, let limit):
            return "\(file): sheet '\(sheet)': row \(row + 1) is past the limit of \(limit) rows per sheet"
        case .columnLimit(let file, let sheet, let column):
            return "\(file): sheet '\(sheet)': column \(column + 1) is past Excel's limit of \(XLSXWorkbook.excelMaxColumns) columns"
        case .closed(let file):
            return "\(file): the workbook is already closed"
        case .invalidArgument(let file, let reason):
            return "\(file): \(reason)"
        }
    }

    /// Throws `.library` when `code` is not `LXW_NO_ERROR`.
    static func check(_ code: lxw_error, file: String, operation: @autoclosure () -> String) throws {
        guard code != LXW_NO_ERROR else { return }
        throw XLSXError.library(file: file, operation: operation(), code: Int(code.rawValue),
                                message: String(cString: lxw_strerror(code)))
    }
}
