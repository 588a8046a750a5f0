import Foundation
import Synchronization
import Testing
import TallyCore
import TallyTestSupport
@testable import TallyReports

@Suite final class XLSXWorkbookTests {
    /// A fresh folder per test (Swift Testing makes one instance per test), removed afterwards.
    private let folder: URL

    init() throws { folder = try temporaryFolder() }
    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Writes one sheet with every kind of cell and returns the file.
    private func writeSample(at url: URL, constantMemory: Bool, created: LocalDate = XLSXWorkbook.defaultCreated) throws {
        let book = try XLSXWorkbook(path: url.path, options: .init(constantMemory: constantMemory, created: created, title: "Amostra"))
        let sheet = try book.addWorksheet(named: "Dados")
        let header = try book.format(.header)
        let money = try book.format(.money(ReportLocale.ptBR.excelMoneyFormat(for: brl)))
        let date = try book.format(.date(ReportLocale.ptBR.excelDateFormat))
        let percent = try book.format(.percent)
        let highlight = try book.format(.highlight)
        #expect(try book.format(.header).pointer == header.pointer, "formats are cached per style")
        try sheet.write("Nome", row: 0, column: 0, format: header)
        try sheet.write("Valor", row: 0, column: 1, format: header)
        try sheet.write("Data", row: 0, column: 2, format: header)
        try sheet.write("Parte", row: 0, column: 3, format: header)
        try sheet.write("Ação & <café>", row: 1, column: 0)
        try sheet.write(minor: -123_456, currency: brl, row: 1, column: 1, format: money)
        try sheet.write(LocalDate(year: 2026, month: 10, day: 3)!, row: 1, column: 2, format: date)
        try sheet.write(0.25, row: 1, column: 3, format: percent)
        try sheet.write(Int64(42), row: 2, column: 0)
        try sheet.write(blankAt: 2, column: 1, format: highlight)
        try sheet.write("", row: 2, column: 2)
        try sheet.freeze(rows: 1)
        try sheet.autofilter(firstRow: 0, firstColumn: 0, lastRow: 2, lastColumn: 3)
        try book.close()
    }

    @Test(arguments: [false, true])
    func writesCellsThatReadBack(constantMemory: Bool) throws {
        let url = folder.appendingPathComponent("sample.xlsx")
        try writeSample(at: url, constantMemory: constantMemory)
        let reader = try XLSXReader(url: url)
        #expect(reader.sheetNames == ["Dados"])
        #expect(try reader.strings("Dados", 1) == ["Nome", "Valor", "Data", "Parte"])
        #expect(try reader.cell("Dados", "A2") == .string("Ação & <café>"))
        #expect(try reader.cell("Dados", "B2") == .number(-1234.56))
        #expect(try reader.numberFormat("Dados", "B2") == "[$R$-416] #,##0.00;-[$R$-416] #,##0.00")
        #expect(try reader.cell("Dados", "C2") == .number(excelSerial(LocalDate(year: 2026, month: 10, day: 3)!)))
        #expect(try reader.cell("Dados", "C2") == .number(46_298))
        #expect(try reader.numberFormat("Dados", "C2") == "dd/mm/yyyy")
        #expect(try reader.cell("Dados", "D2") == .number(0.25))
        #expect(try reader.numberFormat("Dados", "D2") == "0.0%")
        #expect(try reader.cell("Dados", "A3") == .number(42))
        #expect(try reader.cell("Dados", "B3") == nil)
        #expect(try reader.cell("Dados", "C3") == nil)
        let xml = try reader.sheetXML("Dados")
        #expect(xml.contains("state=\"frozen\""))
        #expect(xml.contains("<autoFilter ref=\"A1:D3\"/>"))
        #expect(xml.contains("<cols>"), "column widths are fitted at close")
        let core = try reader.text("docProps/core.xml")
        #expect(core.contains("<dcterms:created xsi:type=\"dcterms:W3CDTF\">2000-01-01T00:00:00Z</dcterms:created>"))
        #expect(core.contains("<dc:title>Amostra</dc:title>"))
        #expect(core.contains("<dc:creator>tally</dc:creator>"))
    }

    @Test func chartCachesTakeTheCellsFormatAndTheirExactDecimals() throws {
        // A line of days and scores (0.0), the value axis left to the cells: the axis and the value
        // cache take the cells' format, the date categories the dates', every point its shortest spelling.
        let url = folder.appendingPathComponent("caches.xlsx")
        let book = try XLSXWorkbook(path: url.path, options: .init(constantMemory: true))
        let sheet = try book.addWorksheet(named: "Dados")
        let date = try book.format(.date("dd/mm"))
        let score = try book.format(XLSXStyle(numberFormat: "0.0"))
        for (i, value) in [72.4, 80.6, 72.9].enumerated() {
            try sheet.write(LocalDate(year: 2026, month: 10, day: 1 + i)!, row: 1 + i, column: 0, format: date)
            try sheet.write(value, row: 1 + i, column: 1, format: score)
        }
        let chart = try book.addChart(.line)
        try chart.addSeries(name: "Pontos", categories: .column(0, rows: 1...3, of: sheet), values: .column(1, rows: 1...3, of: sheet))
        try sheet.insertChart(chart, row: 5, column: 0)
        try book.close()
        try XLSXExactNumbers.rewrite(path: url.path)
        let reader = try XLSXReader(url: url)
        let part = try #require(reader.chartPaths.first)
        #expect(try reader.axes(ofChart: part).first { $0.kind == "valAx" }?.numberFormat == "0.0")
        let root = try XMLNode.parse(reader.data(part))
        let formats = { (element: String) in root.descendants(element).flatMap { $0.descendants("formatCode") }.map(\.text) }
        #expect(formats("val") == ["0.0"])
        #expect(formats("cat") == ["dd/mm"])
        let raw = try reader.text(part)
        #expect(raw.contains("<c:v>72.4</c:v>") && raw.contains("<c:v>80.6</c:v>") && raw.contains("<c:v>72.9</c:v>"))
        #expect(!raw.contains("0000000") && !raw.contains("9999999"))
    }

    @Test func sameCallsGiveByteIdenticalFiles() throws {
        let first = folder.appendingPathComponent("a.xlsx"), second = folder.appendingPathComponent("b.xlsx")
        try writeSample(at: first, constantMemory: true)
        try writeSample(at: second, constantMemory: true)
        let a = try Data(contentsOf: first), b = try Data(contentsOf: second)
        #expect(!a.isEmpty)
        #expect(a == b)
    }

    /// The document dates of the package at `url` (`dcterms:created`, `dcterms:modified`).
    private static func documentDates(_ url: URL) throws -> [String] {
        let core = try XMLNode.parse(XLSXReader(url: url).data(XLSXCoreDates.part))
        return ["created", "modified"].flatMap { core.descendants($0).map(\.text) }
    }

    @Test func aDocumentDateOtherThanTheWorkbooksIsCorrectedAndEveryOtherPartKept() throws {
        let url = folder.appendingPathComponent("dates.xlsx")
        try writeSample(at: url, constantMemory: true)
        let before = try XLSXReader(url: url)
        let paths = before.entryPaths
        let parts = try Dictionary(uniqueKeysWithValues: paths.map { ($0, try before.data($0)) })
        #expect(try Self.documentDates(url) == ["2000-01-01T00:00:00Z", "2000-01-01T00:00:00Z"])
        #expect(try !XLSXCoreDates.repair(path: url.path, created: XLSXWorkbook.defaultCreated), "the right dates: left as written")

        // As a workbook closed beside another one of that date reads.
        #expect(try XLSXCoreDates.repair(path: url.path, created: LocalDate(year: 2026, month: 10, day: 31)!))
        #expect(try Self.documentDates(url) == ["2026-10-31T00:00:00Z", "2026-10-31T00:00:00Z"])
        let after = try XLSXReader(url: url)
        #expect(after.entryPaths == paths, "every part, in its order")
        for path in after.entryPaths where path != XLSXCoreDates.part {
            #expect(try after.data(path) == parts[path], "\(path) is copied as it is")
        }
        let core = try after.text(XLSXCoreDates.part)
        #expect(core == String(decoding: parts[XLSXCoreDates.part]!, as: UTF8.self)
            .replacingOccurrences(of: "2000-01-01T00:00:00Z", with: "2026-10-31T00:00:00Z"))
        // The bytes of the same workbook written with that date.
        let direct = folder.appendingPathComponent("direct.xlsx")
        try writeSample(at: direct, constantMemory: true, created: LocalDate(year: 2026, month: 10, day: 31)!)
        let bytes = try Data(contentsOf: url)
        #expect(bytes == (try Data(contentsOf: direct)))
        #expect(try !XLSXCoreDates.repair(path: url.path, created: LocalDate(year: 2026, month: 10, day: 31)!))
        #expect(try Data(contentsOf: url) == bytes)

        // The shape a race leaves: `created` another workbook's day, `modified` this one's.
        let raced = try #require(try XLSXExactNumbers.rewritten(Array(bytes), file: url.path) { name in
            name != XLSXCoreDates.part ? nil : .asWritten { xml in
                Array(String(decoding: xml, as: UTF8.self).replacingOccurrences(
                    of: ">2026-10-31T00:00:00Z</dcterms:created>", with: ">2026-10-01T00:00:00Z</dcterms:created>").utf8)
            }
        })
        try Data(raced).write(to: url)
        #expect(try Self.documentDates(url) == ["2026-10-01T00:00:00Z", "2026-10-31T00:00:00Z"])
        #expect(try XLSXCoreDates.repair(path: url.path, created: LocalDate(year: 2026, month: 10, day: 31)!))
        #expect(try Data(contentsOf: url) == bytes, "the bytes the workbook has with its own dates")
    }

    @Test func aPackageWithoutCorePropertiesOrNotAZipIsLeftAsItIs() throws {
        let url = folder.appendingPathComponent("not-a-workbook.xlsx")
        try Data("not a zip".utf8).write(to: url)
        #expect(try !XLSXCoreDates.repair(path: url.path, created: XLSXWorkbook.defaultCreated))
        #expect(try Data(contentsOf: url) == Data("not a zip".utf8))
        #expect(throws: XLSXError.self) {
            try XLSXCoreDates.repair(path: self.folder.appendingPathComponent("missing.xlsx").path, created: XLSXWorkbook.defaultCreated)
        }
    }

    @Test func workbooksClosedAtOnceOnManyThreadsKeepTheirOwnDates() throws {
        // libxlsxwriter formats both dates through gmtime's one shared buffer: workbooks of
        // different dates closing together could take each other's. The race is rare (one
        // call's window); the test above makes its outcome and the repair deterministic.
        let threads = 8, each = 12, folder = folder
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<each {
                let created = LocalDate(year: 2020, month: 1, day: 1)!.adding(days: thread * 1000 + index)
                let url = folder.appendingPathComponent("t\(thread)-\(index).xlsx")
                do {
                    let book = try XLSXWorkbook(path: url.path, options: .init(constantMemory: true, created: created))
                    try book.addWorksheet(named: "Dados").write("x", row: 0, column: 0)
                    try book.close()
                    let want = "\(created)T00:00:00Z"
                    if try Self.documentDates(url) != [want, want] { failures.withLock { $0.append(url.lastPathComponent) } }
                } catch {
                    failures.withLock { $0.append("\(url.lastPathComponent): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
    }

    @Test func fitsColumnWidthsToContent() throws {
        let url = folder.appendingPathComponent("widths.xlsx")
        let book = try XLSXWorkbook(path: url.path)
        let sheet = try book.addWorksheet(named: "W")
        let money = try book.format(.money(ReportLocale.ptBR.excelMoneyFormat(for: brl)))
        try sheet.write("a", row: 0, column: 0)
        try sheet.write(String(repeating: "x", count: 30), row: 1, column: 0)
        try sheet.write(minor: 123_456_789, currency: brl, row: 0, column: 1, format: money)
        try sheet.write("ção", row: 0, column: 2)
        try sheet.write(String(repeating: "y", count: 500), row: 0, column: 3)
        try sheet.setColumnWidth(4, 3)
        let widths = sheet.columnWidths
        #expect(widths[0] == 32.5)
        // "R$ 1.234.567,89": 2 + 1 literal, 7 digits, 2 separators, 3 for ",89" = 15 characters.
        #expect(widths[1] == 17.5)
        #expect(widths[2] == 6, "short columns get the minimum width; accents count as one character")
        #expect(widths[3] == 60, "long text is capped")
        #expect(widths[4] == 3, "an explicit width wins")
        try book.close()
        let xml = try XLSXReader(url: url).sheetXML("W")
        #expect(xml.contains("<col min=\"1\" max=\"1\" width=\"33.28515625\" customWidth=\"1\"/>"))
    }

    @Test func refusesRowsPastTheLimit() throws {
        let url = folder.appendingPathComponent("limit.xlsx")
        let book = try XLSXWorkbook(path: url.path, options: .init(maxRowsPerSheet: 5))
        let sheet = try book.addWorksheet(named: "S")
        try sheet.write(1.0, row: 4, column: 0)
        #expect(throws: XLSXError.rowLimit(file: url.path, sheet: "S", row: 5, limit: 5)) {
            try sheet.write(1.0, row: 5, column: 0)
        }
        #expect(throws: XLSXError.columnLimit(file: url.path, sheet: "S", column: 16_384)) {
            try sheet.write("x", row: 0, column: 16_384)
        }
        try book.close()
        let real = try XLSXWorkbook(path: url.path)
        #expect(real.options.maxRowsPerSheet == 1_048_576)
        #expect(throws: XLSXError.self) { _ = try XLSXWorkbook(path: url.path, options: .init(maxRowsPerSheet: 2_000_000)) }
    }

    @Test func constantMemoryRefusesGoingBackARow() throws {
        let url = folder.appendingPathComponent("order.xlsx")
        let book = try XLSXWorkbook(path: url.path, options: .init(constantMemory: true))
        let sheet = try book.addWorksheet(named: "S")
        try sheet.write(1.0, row: 3, column: 0)
        do {
            try sheet.write(2.0, row: 1, column: 0)
            Issue.record("writing an earlier row should fail in constant-memory mode")
        } catch let error as XLSXError {
            guard case .library(let file, _, _, let message) = error else { Issue.record("\(error)"); return }
            #expect(file == url.path)
            #expect(message == "Worksheet row or column index out of range.")
            #expect(error.description.contains(url.path))
        }
    }

    @Test func closeReportsTheFileAndLibxlsxwriterMessage() throws {
        let path = folder.appendingPathComponent("missing/folder/out.xlsx").path
        let book = try XLSXWorkbook(path: path)
        _ = try book.addWorksheet(named: "S")
        do {
            try book.close()
            Issue.record("closing into a missing folder should fail")
        } catch let error as XLSXError {
            guard case .library(let file, _, let code, let message) = error else { Issue.record("\(error)"); return }
            #expect(file == path)
            #expect(code == 2)
            #expect(message.contains("Error creating output xlsx file"))
            #expect(error.description.hasPrefix(path + ": "))
        }
        #expect(book.isClosed)
        #expect(throws: XLSXError.closed(file: path)) { try book.close() }
    }

    @Test func handlesAreUnusableAfterClose() throws {
        let url = folder.appendingPathComponent("closed.xlsx")
        let book = try XLSXWorkbook(path: url.path)
        let sheet = try book.addWorksheet(named: "S")
        try book.close()
        #expect(throws: XLSXError.closed(file: url.path)) { try sheet.write("late", row: 0, column: 0) }
        #expect(throws: XLSXError.closed(file: url.path)) { _ = try book.addWorksheet(named: "T") }
        #expect(throws: XLSXError.closed(file: url.path)) { _ = try book.format(.header) }
    }

    @Test func droppingAnUnclosedWorkbookWritesNothing() throws {
        let url = folder.appendingPathComponent("dropped.xlsx")
        do {
            let book = try XLSXWorkbook(path: url.path, options: .init(constantMemory: true))
            try book.addWorksheet(named: "S").write("x", row: 0, column: 0)
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func writesDatesExcelCannotHoldAsText() throws {
        let url = folder.appendingPathComponent("dates.xlsx")
        let book = try XLSXWorkbook(path: url.path)
        let sheet = try book.addWorksheet(named: "D")
        let date = try book.format(.date("dd/mm/yyyy"))
        try sheet.write(LocalDate(year: 1899, month: 12, day: 31)!, row: 0, column: 0, format: date)
        try sheet.write(LocalDate(year: 1900, month: 3, day: 1)!, row: 1, column: 0, format: date)
        try sheet.write(LocalDate(year: 9999, month: 12, day: 31)!, row: 2, column: 0, format: date)
        try book.close()
        let reader = try XLSXReader(url: url)
        #expect(try reader.cell("D", "A1") == .string("1899-12-31"))
        #expect(try reader.cell("D", "A2") == .number(61))
        #expect(try reader.cell("D", "A3") == .number(excelSerial(LocalDate(year: 9999, month: 12, day: 31)!)))
    }

    @Test func rejectsFormatsFromAnotherWorkbook() throws {
        let one = try XLSXWorkbook(path: folder.appendingPathComponent("1.xlsx").path)
        let two = try XLSXWorkbook(path: folder.appendingPathComponent("2.xlsx").path)
        let bold = try one.format(.header)
        let sheet = try two.addWorksheet(named: "S")
        #expect(throws: XLSXError.self) { try sheet.write("x", row: 0, column: 0, format: bold) }
    }

    /// A link written before its sheet names the sheet ``XLSXWorkbook/availableName(for:)``
    /// gives; adding that name then takes exactly it, however the two calls interleave
    /// with sheets added directly, and the base's counter moves on with it.
    @Test func anOfferedNameIsTheNameTheSheetGets() throws {
        let url = folder.appendingPathComponent("offered.xlsx")
        let book = try XLSXWorkbook(path: url.path)
        var expected: [String] = []
        for n in 0..<40 {
            if n % 7 == 3 {
                expected.append(try book.addWorksheet(named: "Corrida").name)
            }
            let offered = book.availableName(for: "Corrida")
            #expect(book.availableName(for: "Corrida") == offered, "asking again gives the same name")
            #expect(try book.addWorksheet(named: offered).name == offered)
            expected.append(offered)
        }
        #expect(Set(expected.map { $0.lowercased() }).count == expected.count)
        #expect(expected.prefix(3) == ["Corrida", "Corrida (2)", "Corrida (3)"])
        try book.close()
        #expect(try XLSXReader(url: url).sheetNames == expected)
    }

    @Test func sanitisesAndDeduplicatesSheetNames() throws {
        #expect(XLSXSheetName.sanitize("Saldos/Out[1]: a*b?c\\d") == "Saldos_Out_1__ a_b_c_d")
        #expect(XLSXSheetName.sanitize("'quoted'") == "quoted")
        #expect(XLSXSheetName.sanitize("") == "Sheet")
        #expect(XLSXSheetName.sanitize("[]") == "__")
        #expect(XLSXSheetName.sanitize("History") == "History_")
        let long = String(repeating: "á", count: 40)
        #expect(XLSXSheetName.sanitize(long) == String(repeating: "á", count: 31))
        #expect(XLSXSheetName.sanitize(String(repeating: "😀", count: 20)).utf16.count == 30, "never splits a surrogate pair")
        #expect(XLSXSheetName.unique("Saldos", taken: ["saldos"]) == "Saldos (2)")
        #expect(XLSXSheetName.unique("Saldos", taken: ["saldos", "saldos (2)"]) == "Saldos (3)")
        let thirtyOne = String(repeating: "b", count: 31)
        let deduped = XLSXSheetName.unique(thirtyOne, taken: [thirtyOne])
        #expect(deduped == String(repeating: "b", count: 27) + " (2)")

        let url = folder.appendingPathComponent("names.xlsx")
        let book = try XLSXWorkbook(path: url.path)
        #expect(try book.addWorksheet(named: "Saldos/Out").name == "Saldos_Out")
        #expect(try book.addWorksheet(named: "saldos_out").name == "saldos_out (2)")
        #expect(try book.addWorksheet(named: long).name.count == 31)
        try book.close()
        #expect(try XLSXReader(url: url).sheetNames == ["Saldos_Out", "saldos_out (2)", String(repeating: "á", count: 31)])
    }

    @Test(arguments: XLSXChart.Kind.allCases)
    func drawsNativeCharts(kind: XLSXChart.Kind) throws {
        let url = folder.appendingPathComponent("chart.xlsx")
        let book = try XLSXWorkbook(path: url.path, options: .init(constantMemory: true))
        let data = try book.addWorksheet(named: "Dados do mês")
        for (row, (label, value)) in [("mercado", 400.0), ("lazer", 50.0), ("casa", 120.0)].enumerated() {
            try data.write(label, row: row, column: 0)
            try data.write(value, row: row, column: 1)
        }
        let chart = try book.addChart(kind)
        #expect(throws: XLSXError.self) { try data.insertChart(chart, row: 0, column: 3) } // no series yet
        try chart.addSeries(name: "Valor", categories: .column(0, rows: 0...2, of: data), values: .column(1, rows: 0...2, of: data))
        try chart.setTitle("Gastos por categoria")
        try chart.setAxisNames(category: "Categoria", value: "Valor (BRL)")
        try chart.setValueAxisNumberFormat("#,##0.00")
        try data.insertChart(chart, row: 0, column: 3)
        #expect(throws: XLSXError.self) { try data.insertChart(chart, row: 20, column: 3) }
        try book.close()

        let reader = try XLSXReader(url: url)
        #expect(reader.chartPaths == ["xl/charts/chart1.xml"])
        #expect(try reader.chartPaths(onSheet: "Dados do mês") == ["xl/charts/chart1.xml"])
        let xml = try reader.text("xl/charts/chart1.xml")
        #expect(xml.contains("Gastos por categoria"))
        #expect(xml.contains("<c:f>'Dados do mês'!$A$1:$A$3</c:f>"))
        #expect(xml.contains("<c:f>'Dados do mês'!$B$1:$B$3</c:f>"))
        let element: String
        switch kind {
        case .bar, .column, .stackedColumn: element = "<c:barChart>"
        case .line: element = "<c:lineChart>"
        case .pie: element = "<c:pieChart>"
        }
        #expect(xml.contains(element))
        #expect(xml.contains("Categoria") == kind.hasAxes)
        if kind == .bar { #expect(xml.contains("<c:barDir val=\"bar\"/>")) }
        if kind == .stackedColumn { #expect(xml.contains("<c:grouping val=\"stacked\"/>")) }
    }
}
