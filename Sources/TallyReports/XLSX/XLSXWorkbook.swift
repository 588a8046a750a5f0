import CXlsxWriter
import TallyCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An XLSX workbook being written with libxlsxwriter: a safe, Swifty owner of
/// an `lxw_workbook`.
///
/// ```swift
/// let book = try XLSXWorkbook(path: "out/report.xlsx", options: .init(constantMemory: true))
/// let sheet = try book.addWorksheet(named: "Saldos")
/// let bold = try book.format(.header)
/// try sheet.write("Casal", row: 0, column: 0, format: bold)
/// try book.close()
/// ```
///
/// - Reproducible output: the document's creation date is always set, to
///   ``Options/created`` (2000-01-01 unless you choose another fixed date),
///   and checked once the file is written (``XLSXCoreDates``), so the same
///   calls give a byte-identical file, whatever other threads write.
/// - Errors: every libxlsxwriter error becomes an ``XLSXError`` naming the
///   file and libxlsxwriter's own message (`lxw_strerror`). The file itself is
///   only created by ``close()``; a workbook dropped without `close()` writes
///   nothing and frees its memory and temporary files.
/// - Row limit: writing at or past ``Options/maxRowsPerSheet`` (Excel's
///   1,048,576 by default) throws ``XLSXError/rowLimit(file:sheet:row:limit:)``;
///   ``XLSXTable`` spills to continuation sheets instead.
/// - Constant-memory mode: each sheet must be written row by row in order
///   (sheets may be interleaved); column widths, frozen panes, autofilters
///   and charts may still be set at any time before `close()`.
///
/// Not thread-safe: use one workbook from one task.
public final class XLSXWorkbook {
    /// Excel's row limit per sheet.
    public static let excelMaxRows = 1_048_576
    /// Excel's column limit per sheet.
    public static let excelMaxColumns = 16_384
    /// The creation date used when none is given: 2000-01-01 (00:00 UTC).
    public static let defaultCreated = LocalDate(year: 2000, month: 1, day: 1)!

    /// How the workbook is written and what its document properties say.
    public struct Options: Sendable {
        /// Stream each sheet's rows to a temporary file instead of keeping
        /// them in memory (rows must then be written in order, per sheet).
        /// Strings are then stored inline rather than in a shared table.
        public var constantMemory: Bool
        /// Where libxlsxwriter keeps its temporary files; nil for the system's.
        public var temporaryDirectory: String?
        /// Allow ZIP64, for files or sheets over 4 GB.
        public var useZip64: Bool
        /// The fixed creation (and modification) date stored in the document (00:00 UTC).
        public var created: LocalDate
        public var title: String?
        public var subject: String?
        public var author: String?
        public var company: String?
        public var keywords: String?
        public var comments: String?
        /// The most rows a sheet may hold; Excel's 1,048,576 unless lowered (for tests).
        public var maxRowsPerSheet: Int
        /// In constant-memory mode, the rows of each sheet whose cells are kept so charts drawn
        /// from them carry cached values (see `XLSXChart+Cache.swift`); 0 when every chart is
        /// given its values, as a workbook of thousands of sheets should.
        public var chartSourceRows: Int
        /// How every sheet prints unless the sheet says otherwise (``XLSXWorksheet/printSetup``).
        public var printSetup: XLSXPrintSetup

        public init(constantMemory: Bool = false, temporaryDirectory: String? = nil, useZip64: Bool = false,
                    created: LocalDate = XLSXWorkbook.defaultCreated, title: String? = nil, subject: String? = nil,
                    author: String? = "tally", company: String? = nil, keywords: String? = nil,
                    comments: String? = nil, maxRowsPerSheet: Int = XLSXWorkbook.excelMaxRows,
                    chartSourceRows: Int = 500, printSetup: XLSXPrintSetup = .standard) {
            self.constantMemory = constantMemory
            self.temporaryDirectory = temporaryDirectory
            self.useZip64 = useZip64
            self.created = created
            self.title = title
            self.subject = subject
            self.author = author
            self.company = company
            self.keywords = keywords
            self.comments = comments
            self.maxRowsPerSheet = maxRowsPerSheet
            self.chartSourceRows = chartSourceRows
            self.printSetup = printSetup
        }
    }

    /// The file the workbook is written to.
    public let path: String
    public let options: Options
    let state: XLSXWorkbookState
    private var formats: [XLSXStyle: XLSXFormat] = [:]
    private var sheets: [XLSXWorksheet] = []
    private var charts: [XLSXChart] = []
    private var takenNames: Set<String> = []
    /// Per sanitized name, the first suffix counter not yet known to be taken.
    private var nextCounter: [String: Int] = [:]
    /// Names ``availableName(for:)`` gave with a counter (lowercased), with
    /// the base and counter they came from: when such a name is then added,
    /// its base's counter moves on too, so that naming thousands of sheets
    /// this way does not retry every counter from 2 each time.
    private var offered: [String: (base: String, counter: Int)] = [:]

    /// Starts a workbook that ``close()`` will write to `path`.
    /// - Throws: ``XLSXError`` when libxlsxwriter cannot start it or refuses the properties.
    public init(path: String, options: Options = Options()) throws {
        guard options.maxRowsPerSheet >= 2 && options.maxRowsPerSheet <= XLSXWorkbook.excelMaxRows else {
            throw XLSXError.invalidArgument(file: path, reason: "maxRowsPerSheet \(options.maxRowsPerSheet) is outside 2...\(XLSXWorkbook.excelMaxRows)")
        }
        guard !path.isEmpty else { throw XLSXError.invalidArgument(file: path, reason: "empty file path") }
        if options.constantMemory { XLSXWorkbook.keepLargeBlocksMapped }
        self.path = path
        self.options = options
        var lxwOptions = lxw_workbook_options()
        lxwOptions.constant_memory = options.constantMemory ? 1 : 0
        lxwOptions.use_zip64 = options.useZip64 ? 1 : 0
        // libxlsxwriter copies tmpdir (lxw_strdup), so a scoped C string is enough.
        let pointer: UnsafeMutablePointer<lxw_workbook>? = withOptionalCString(options.temporaryDirectory) { tmpdir in
            lxwOptions.tmpdir = tmpdir.map { UnsafeMutablePointer(mutating: $0) }
            return workbook_new_opt(path, &lxwOptions)
        }
        guard let pointer else {
            throw XLSXError.library(file: path, operation: "workbook_new_opt", code: Int(LXW_ERROR_MEMORY_MALLOC_FAILED.rawValue),
                                    message: "could not start the workbook (out of memory or no temporary file)")
        }
        state = XLSXWorkbookState(pointer: pointer, path: path)
        try setProperties()
    }

    deinit {
        if let pointer = state.pointer {
            // Never closed: free everything (temporary files included) without writing the file.
            lxw_workbook_free(pointer)
            state.pointer = nil
        }
    }

    private func setProperties() throws {
        let created = time_t(options.created.daysSinceEpoch * 86_400)
        let texts = [options.title, options.subject, options.author, options.company, options.keywords, options.comments]
        let workbook = try state.workbook()
        // libxlsxwriter copies every property string (lxw_strdup) inside workbook_set_properties.
        let code: lxw_error = withOptionalCStrings(texts) { c in
            var properties = lxw_doc_properties()
            properties.title = c[0]
            properties.subject = c[1]
            properties.author = c[2]
            properties.company = c[3]
            properties.keywords = c[4]
            properties.comments = c[5]
            properties.created = created
            return workbook_set_properties(workbook, &properties)
        }
        try XLSXError.check(code, file: path, operation: "workbook_set_properties")
    }

    /// Adds a worksheet. `name` is made valid and unique with
    /// ``XLSXSheetName/unique(_:taken:)``; read the name used from ``XLSXWorksheet/name``.
    public func addWorksheet(named name: String) throws -> XLSXWorksheet {
        let workbook = try state.workbook()
        let base = XLSXSheetName.sanitize(name)
        let (unique, counter) = XLSXSheetName.unique(base: base, taken: takenNames, firstCounter: nextCounter[base] ?? 2)
        try XLSXError.check(workbook_validate_sheet_name(workbook, unique), file: path,
                            operation: "adding worksheet '\(unique)'")
        guard let pointer = workbook_add_worksheet(workbook, unique) else {
            throw XLSXError.library(file: path, operation: "adding worksheet '\(unique)'",
                                    code: Int(LXW_ERROR_MEMORY_MALLOC_FAILED.rawValue), message: "libxlsxwriter returned no worksheet")
        }
        takenNames.insert(unique.lowercased())
        if let counter { nextCounter[base] = counter + 1 }
        if let origin = offered.removeValue(forKey: unique.lowercased()) {
            nextCounter[origin.base] = max(nextCounter[origin.base] ?? 2, origin.counter + 1)
        }
        let sheet = XLSXWorksheet(pointer: pointer, name: unique, state: state, maxRows: options.maxRowsPerSheet,
                                  chartSourceRows: max(options.chartSourceRows, 0), keepsChartValues: options.constantMemory,
                                  printSetup: options.printSetup)
        sheets.append(sheet)
        return sheet
    }

    /// The name ``addWorksheet(named:)`` would give a sheet named `name` now, for a
    /// link written before the sheet it points at: `Corrida (2)` once `Corrida` is taken.
    public func availableName(for name: String) -> String {
        let base = XLSXSheetName.sanitize(name)
        let (unique, counter) = XLSXSheetName.unique(base: base, taken: takenNames, firstCounter: nextCounter[base] ?? 2)
        if let counter { offered[unique.lowercased()] = (base, counter) }
        return unique
    }

    /// The names of the worksheets added so far, in order.
    public var worksheetNames: [String] { sheets.map(\.name) }

    /// The format for `style`, created on first use and cached: call it once
    /// per style and reuse the result for every cell.
    public func format(_ style: XLSXStyle) throws -> XLSXFormat {
        if let cached = formats[style] { return cached }
        if let code = style.numberFormat, code.utf8.count >= 127 {
            throw XLSXError.invalidArgument(file: path, reason: "number format longer than 127 bytes: \(code)")
        }
        guard let pointer = workbook_add_format(try state.workbook()) else {
            throw XLSXError.library(file: path, operation: "workbook_add_format",
                                    code: Int(LXW_ERROR_MEMORY_MALLOC_FAILED.rawValue), message: "libxlsxwriter returned no format")
        }
        XLSXFormat.configure(pointer, with: style)
        let format = XLSXFormat(pointer: pointer, style: style, owner: ObjectIdentifier(state))
        formats[style] = format
        return format
    }

    /// Adds a chart; fill it with series and insert it on a sheet with
    /// ``XLSXWorksheet/insertChart(_:row:column:xScale:yScale:)``.
    public func addChart(_ kind: XLSXChart.Kind) throws -> XLSXChart {
        guard let pointer = workbook_add_chart(try state.workbook(), kind.lxwType) else {
            throw XLSXError.library(file: path, operation: "workbook_add_chart",
                                    code: Int(LXW_ERROR_MEMORY_MALLOC_FAILED.rawValue), message: "libxlsxwriter returned no chart")
        }
        let chart = XLSXChart(pointer: pointer, kind: kind, state: state)
        charts.append(chart)
        return chart
    }

    /// Whether ``close()`` has run (successfully or not).
    public var isClosed: Bool { state.pointer == nil }

    /// Applies the fitted column widths and each sheet's print setup, fills the charts'
    /// cached values, writes the file and frees the workbook.
    /// After this nothing more can be written, whether it succeeded or not.
    /// - Throws: ``XLSXError/library(file:operation:code:message:)`` with libxlsxwriter's message
    ///   (for example a missing folder or no permission: "Error creating output xlsx file").
    public func close() throws {
        let workbook = try state.workbook()
        var widthError: Error?
        for sheet in sheets {
            do {
                let widths = sheet.columnWidths
                try sheet.applyColumnWidths(widths)
                try sheet.applyPrintSetup(widths: widths)
            } catch { if widthError == nil { widthError = error } }
        }
        if !charts.isEmpty {
            var byName: [String: XLSXWorksheet] = [:]
            for sheet in sheets { byName[sheet.name] = sheet }
            for chart in charts where chart.isInserted {
                chart.fillCaches(lookup: { byName[$0.sheet]?.keptValues($0) },
                                 dateFormat: { byName[$0.sheet]?.keptDateFormat($0) },
                                 numberFormat: { byName[$0.sheet]?.keptNumberFormat($0) })
            }
        }
        charts = []
        state.pointer = nil
        let code = workbook_close(workbook)
        try XLSXError.check(code, file: path, operation: "writing the workbook (workbook_close)")
        // libxlsxwriter's dates go through a buffer every thread shares (XLSXCoreDates).
        try XLSXCoreDates.repair(path: path, created: options.created)
        if let widthError { throw widthError }
    }
}

/// The libxlsxwriter workbook pointer shared by a workbook and its sheets and
/// charts; nil once the workbook is closed, so stale handles throw instead of crashing.
final class XLSXWorkbookState {
    var pointer: UnsafeMutablePointer<lxw_workbook>?
    let path: String

    init(pointer: UnsafeMutablePointer<lxw_workbook>, path: String) {
        self.pointer = pointer
        self.path = path
    }

    func workbook() throws -> UnsafeMutablePointer<lxw_workbook> {
        guard let pointer else { throw XLSXError.closed(file: path) }
        return pointer
    }

    func ensureOpen() throws {
        if pointer == nil { throw XLSXError.closed(file: path) }
    }
}

/// Calls `body` with a C string for `text`, or nil.
func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) throws -> R) rethrows -> R {
    guard let text else { return try body(nil) }
    return try text.withCString { try body($0) }
}

/// Calls `body` with mutable C strings for each text (nil stays nil); they live until `body` returns.
func withOptionalCStrings<R>(_ texts: [String?], _ body: ([UnsafeMutablePointer<CChar>?]) throws -> R) rethrows -> R {
    let copies: [UnsafeMutablePointer<CChar>?] = texts.map { text in text.map { strdup($0)! } }
    defer { copies.forEach { free($0) } }
    return try body(copies)
}
