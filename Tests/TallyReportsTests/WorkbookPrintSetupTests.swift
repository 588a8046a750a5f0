import Foundation
import Testing
import TallyCore
import TallyTestSupport
@testable import TallyReports

@Suite("Workbooks print and preview well")
struct WorkbookPrintSetupTests {
    /// A table of `rows` rows (text, integer, money) and, when asked, a column chart of its first ten rows at `chartRow`.
    func writeBook(rows: Int, chartRow: Int? = nil, constantMemory: Bool = true) throws -> (URL, XLSXReader) {
        let folder = try temporaryFolder()
        let url = folder.appendingPathComponent("book.xlsx")
        let book = try XLSXWorkbook(path: url.path, options: .init(constantMemory: constantMemory))
        let money = try book.format(.money("#,##0.00"))
        let table = try XLSXTable(workbook: book, name: "Dados", columns: [
            .init("Nome"), .init("Quantidade", format: try book.format(.integer)), .init("Valor", format: money)])
        for i in 0..<rows {
            try table.appendRow { row in
                try row.write("item \(i)")
                try row.write(Int64(i * 3))
                try row.write(minor: 123_456 + Int64(i), currency: brl)
            }
        }
        try table.finish()
        if let chartRow {
            let sheet = table.sheets[0]
            let chart = try book.addChart(.column)
            try chart.addSeries(name: "Quantidade", categories: .column(0, rows: 1...10, of: sheet), values: .column(1, rows: 1...10, of: sheet))
            try sheet.insertChart(chart, row: chartRow, column: 4)
        }
        try book.close()
        return (folder, try XLSXReader(url: url))
    }

    /// A new workbook `name`.xlsx in a fresh folder (remove the folder when done).
    func freshBook(_ name: String, _ options: XLSXWorkbook.Options) throws -> (URL, URL, XLSXWorkbook) {
        let folder = try temporaryFolder()
        let url = folder.appendingPathComponent(name + ".xlsx")
        return (folder, url, try XLSXWorkbook(path: url.path, options: options))
    }

    @Test func everySheetPrintsLandscapeOnePageWideWithPageNumbers() throws {
        let (folder, book) = try writeBook(rows: 5)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try book.sheetElement("Dados", "pageSetup")?["orientation"] == "landscape")
        #expect(try book.sheetElement("Dados", "pageSetup")?["fitToHeight"] == "0")
        #expect(try book.sheetElement("Dados", "pageSetUpPr")?["fitToPage"] == "1")
        #expect(try book.sheetXML("Dados").contains("<oddFooter>&amp;C&amp;P / &amp;N</oddFooter>"))
    }

    @Test("the paper is A4 unless the workbook asks for another (Letter for a US report); none leaves it to the printer")
    func paperSize() throws {
        let (folder, book) = try writeBook(rows: 5)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try book.paperSize("Dados") == 9)
        for (setup, expected) in [(XLSXPrintSetup.standard.on(.letter), 1), (.none, nil)] as [(XLSXPrintSetup, Int?)] {
            let (other, url, workbook) = try freshBook("paper", .init(printSetup: setup))
            defer { try? FileManager.default.removeItem(at: other) }
            try workbook.addWorksheet(named: "A").write("x", row: 0, column: 0)
            try workbook.close()
            #expect(try XLSXReader(url: url).paperSize("A") == expected)
        }
        let (en, url, activity) = try { () throws -> (URL, URL, ActivityWorkbook) in
            let folder = try temporaryFolder()
            let url = folder.appendingPathComponent("activity.xlsx")
            return (folder, url, try ActivityWorkbook(path: url.path, locale: .enUS, period: october2026, minimumDays: 7))
        }()
        defer { try? FileManager.default.removeItem(at: en) }
        try activity.close()
        let read = try XLSXReader(url: url)
        #expect(try read.sheetNames.allSatisfy { try read.paperSize($0) == 1 }, "an en-US workbook prints on Letter")
    }

    @Test("narrow margins print a wide sheet larger: 0.25 in at the sides")
    func narrowMargins() throws {
        var scales: [Int] = []
        for setup in [XLSXPrintSetup.standard.narrow, .standard] {
            let (folder, url, book) = try freshBook("margins", .init(printSetup: setup))
            defer { try? FileManager.default.removeItem(at: folder) }
            let sheet = try book.addWorksheet(named: "A")
            for column in 0..<20 { try sheet.write("heading \(column + 10)", row: 0, column: column) }
            try book.close()
            let read = try XLSXReader(url: url)
            #expect(try read.sheetElement("A", "pageMargins")?["left"] == (setup.narrowMargins ? "0.25" : "0.7"))
            scales.append(try read.printScale("A"))
        }
        // 20 columns stored 13.29 wide (1860 px) on A4 landscape: 11.19 in (1074 px) between the margins, or 10.29 in (988 px).
        #expect(scales == [57, 53])
    }

    @Test("a note written as lines spans the empty cells beside it and leaves the column as wide as its values")
    func notesDoNotWidenColumns() throws {
        let (folder, url, book) = try freshBook("note", .init())
        defer { try? FileManager.default.removeItem(at: folder) }
        let sheet = try book.addWorksheet(named: "A")
        try sheet.write("Metric", row: 0, column: 0)
        let note = String(repeating: "a long explanation of the figures ", count: 6)
        let rows = try sheet.writeLines(note, row: 1, column: 0, width: 80)
        try book.close()
        let read = try XLSXReader(url: url)
        #expect(rows == 3)
        #expect(try (2...4).compactMap { try read.cell("A", "A\($0)")?.string }.allSatisfy { $0.count <= 80 })
        #expect(try (2...4).compactMap { try read.cell("A", "A\($0)")?.string }.joined(separator: " ") + " " == note)
        #expect(try read.columnWidths("A")[0].map { $0 < 10 } == true, "sized by 'Metric', not by the note")
    }

    @Test("a money format tagged with its locale is as wide as its symbol and digits")
    func taggedMoneyWidth() {
        let tagged = XLSXNumberWidth(numberFormat: ReportLocale.ptBR.excelMoneyFormat(for: brl))
        let quoted = XLSXNumberWidth(numberFormat: "\"R$\" #,##0.00;-\"R$\" #,##0.00")
        #expect(tagged.width(of: 1234.56) == quoted.width(of: 1234.56))
        #expect(tagged.width(of: 1234.56) == "R$ 1,234.56".count)
    }

    @Test func aLongTableRepeatsItsHeaderOnEveryPage() throws {
        let (folder, book) = try writeBook(rows: 120)
        defer { try? FileManager.default.removeItem(at: folder) }
        let titles = try book.definedNames().filter { $0.name == "_xlnm.Print_Titles" }
        #expect(titles.map(\.formula) == ["Dados!$1:$1"])
        #expect(titles.first?.sheet == 0)
    }

    @Test func aOnePageTableNeedsNoRepeatedHeader() throws {
        let (folder, book) = try writeBook(rows: 5)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try book.definedNames().filter { $0.name == "_xlnm.Print_Titles" }.isEmpty)
    }

    @Test func printSetupCanBeTurnedOff() throws {
        let (folder, url, book) = try freshBook("plain", .init(printSetup: .none))
        defer { try? FileManager.default.removeItem(at: folder) }
        try book.addWorksheet(named: "A").write("x", row: 0, column: 0)
        try book.close()
        let read = try XLSXReader(url: url)
        #expect(try read.sheetElement("A", "pageSetup") == nil)
        #expect(try read.sheetElement("A", "pageSetUpPr") == nil)
    }

    @Test func headingsAlignLikeTheirColumns() throws {
        let (folder, book) = try writeBook(rows: 3)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try !book.isRightAligned("Dados", "A1"))   // text
        #expect(try book.isRightAligned("Dados", "B1"))    // integers
        #expect(try book.isRightAligned("Dados", "C1"))    // money
    }

    @Test func moneyIsStoredAsTheExactDecimal() throws {
        let (folder, book) = try writeBook(rows: 3)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try book.rawValue("Dados", "C2") == "1234.56")
        #expect(try book.rawValue("Dados", "C4") == "1234.58")
        #expect(try book.numberFormat("Dados", "C2") == "#,##0.00")
    }

    @Test(arguments: [true, false])
    func chartsCarryCachedValues(constantMemory: Bool) throws {
        let (folder, book) = try writeBook(rows: 12, chartRow: 1, constantMemory: constantMemory)
        defer { try? FileManager.default.removeItem(at: folder) }
        let chart = try #require(try book.chartPaths(onSheet: "Dados").first)
        let caches = try book.seriesCaches(ofChart: chart)
        #expect(caches.count == 1)
        #expect(caches.first?.textCategories == true)
        #expect(caches.first?.categories == (0..<10).map { "item \($0)" })
        #expect(caches.first?.values == (0..<10).map { Double($0 * 3) })
        let xml = try book.text(chart)
        #expect(xml.contains("<c:strCache>") && xml.contains("<c:numCache>"))
    }

    @Test func aGivenCacheIsUsedAndAGapIsLeftOut() throws {
        let (folder, url, book) = try freshBook("given", .init(constantMemory: true, chartSourceRows: 0))
        defer { try? FileManager.default.removeItem(at: folder) }
        let sheet = try book.addWorksheet(named: "S")
        for (i, value) in [4.0, 7.0].enumerated() {
            try sheet.write("d\(i)", row: i, column: 0)
            try sheet.write(value, row: i, column: 1)
        }
        let chart = try book.addChart(.line)
        try chart.addSeries(name: "v", categories: .column(0, rows: 0...2, of: sheet), values: .column(1, rows: 0...2, of: sheet),
                            cache: .init(categories: [.text("d0"), .text("d1"), .text("d2")], values: [.number(4), .number(7), .empty]))
        #expect(throws: XLSXError.self) {
            try chart.addSeries(name: "w", categories: .column(0, rows: 0...2, of: sheet), values: .column(1, rows: 0...2, of: sheet),
                                cache: .init(categories: [.text("d0")], values: [.number(4)]))
        }
        try sheet.insertChart(chart, row: 4, column: 0)
        try book.close()
        let read = try XLSXReader(url: url)
        let caches = try read.seriesCaches(ofChart: try #require(read.chartPaths.first))
        #expect(caches.first?.categories == ["d0", "d1", "d2"])
        #expect(caches.first?.values == [4, 7, nil])
    }

    @Test func aChartOfDatesGetsADateAxisUnlessItHasAFormat() throws {
        let (folder, url, book) = try freshBook("dates", .init(constantMemory: true))
        defer { try? FileManager.default.removeItem(at: folder) }
        let sheet = try book.addWorksheet(named: "Dias")
        let date = try book.format(.date("dd/mm/yyyy"))
        for i in 0..<3 {
            try sheet.write(october2026.firstDay.adding(days: i), row: i, column: 0, format: date)
            try sheet.write(Double(i), row: i, column: 1)
        }
        try sheet.write("text", row: 3, column: 0)
        let mixed = try book.addChart(.column)
        try mixed.addSeries(name: "m", categories: .column(0, rows: 0...3, of: sheet), values: .column(1, rows: 0...3, of: sheet))
        try sheet.insertChart(mixed, row: 20, column: 0)
        let plain = try book.addChart(.line)
        try plain.addSeries(name: "v", categories: .column(0, rows: 0...2, of: sheet), values: .column(1, rows: 0...2, of: sheet))
        try sheet.insertChart(plain, row: 4, column: 0)
        let chosen = try book.addChart(.line)
        try chosen.addSeries(name: "v", categories: .column(0, rows: 0...2, of: sheet), values: .column(1, rows: 0...2, of: sheet))
        try chosen.setCategoryAxisNumberFormat("dd/mm")
        try chosen.setValueAxisBounds(0...1)
        try sheet.insertChart(chosen, row: 4, column: 8)
        try book.close()
        let read = try XLSXReader(url: url)
        let charts = try read.chartPaths(onSheet: "Dias")
        // Charts are numbered in the order they were placed: mixed, plain, chosen.
        #expect(try read.axes(ofChart: charts[1]).first { $0.kind == "catAx" }?.numberFormat == "dd/mm/yyyy")
        #expect(try read.seriesCaches(ofChart: charts[1]).first?.categories == ["46296", "46297", "46298"])
        let axes = try read.axes(ofChart: charts[2])
        #expect(axes.first { $0.kind == "catAx" }?.numberFormat == "dd/mm")
        #expect(axes.first { $0.kind == "valAx" }.map { [$0.minimum, $0.maximum] } == [0, 1])
        // A range that is not all dates keeps its labels as they are.
        #expect(try read.axes(ofChart: charts[0]).first { $0.kind == "catAx" }?.numberFormat == nil)
    }

    @Test func aChartAPageBreakWouldCutStartsANewPage() throws {
        // A chart from row 26 runs past the first page (32 rows at most): the sheet prints at a fixed scale
        // with a break a row above the chart, since viewers ignore manual breaks under fit-to-page.
        let (folder, book) = try writeBook(rows: 80, chartRow: 26)
        defer { try? FileManager.default.removeItem(at: folder) }
        let setup = try #require(try book.sheetElement("Dados", "pageSetup"))
        #expect(setup["orientation"] == "landscape")
        #expect(Int(setup["scale"] ?? "") ?? 0 >= 10)
        #expect(try book.sheetElement("Dados", "pageSetUpPr")?["fitToPage"] == nil)
        #expect(try book.rowBreaks("Dados") == [25])
    }

    @Test func pageBreaksMoveOnlyChartsThatWouldBeCut() {
        #expect(XLSXPrintSetup.pageBreaks(charts: [2...18], rowsPerPage: 30) == [])
        #expect(XLSXPrintSetup.pageBreaks(charts: [2...18, 20...37], rowsPerPage: 30) == [19])
        #expect(XLSXPrintSetup.pageBreaks(charts: [2...18, 20...37, 40...56], rowsPerPage: 30) == [19, 39])
        // A chart on a page's second row keeps the page's first row above it.
        #expect(XLSXPrintSetup.pageBreaks(charts: [31...50], rowsPerPage: 30) == [30])
        // A chart taller than a page cannot be kept whole; pages then simply follow each other.
        #expect(XLSXPrintSetup.pageBreaks(charts: [0...70], rowsPerPage: 30) == [30, 60])
    }

    @Test func indexLinksAndConditionalFormatsReadBack() throws {
        let (folder, url, book) = try freshBook("links", .init(constantMemory: true))
        defer { try? FileManager.default.removeItem(at: folder) }
        let index = try book.addWorksheet(named: "Índice")
        let target = try book.addWorksheet(named: "Maria's board")
        try index.writeLink("Maria", toSheet: target.name, row: 1, column: 0, format: try book.format(.link))
        try target.write(0.9, row: 0, column: 0)
        let good = try book.format(XLSXStyle(fillColor: XLSXConditionalFormat.goodFill))
        try target.conditionalFormat(.atLeast(0.8, good), rows: 0...5, columns: 0...0)
        try target.conditionalFormat(.colorScale(low: 0xF8696B, middle: 0xFFEB84, high: 0x63BE7B), rows: 0...5, columns: 1...3)
        #expect(throws: XLSXError.self) { try target.conditionalFormat(.below(1, good), rows: 0...XLSXWorkbook.excelMaxRows, columns: 0...0) }
        try book.close()
        let read = try XLSXReader(url: url)
        #expect(try read.links("Índice") == ["A2": "'Maria''s board'!A1"])
        #expect(try read.cell("Índice", "A2")?.string == "Maria")
        let formats = try read.conditionalFormats("Maria's board")
        #expect(formats.map(\.range) == ["A1:A6", "B1:D6"])
        #expect(formats.map(\.types) == [["cellIs"], ["colorScale"]])
    }

    @Test func badLayoutCallsAreRefusedWithTheFileNamed() throws {
        let (folder, url, book) = try freshBook("bad", .init(constantMemory: true))
        defer { try? FileManager.default.removeItem(at: folder) }
        let sheet = try book.addWorksheet(named: "S")
        #expect(throws: XLSXError.self) { try sheet.repeatRowsWhenPrinted(-1...0) }
        #expect(throws: XLSXError.self) { try sheet.writeLink("x", toSheet: "S", row: -1, column: 0) }
        #expect(throws: XLSXError.self) { try sheet.writeLink("x", toSheet: "S", row: 0, column: XLSXWorkbook.excelMaxColumns) }
        let chart = try book.addChart(.bar)
        #expect(throws: XLSXError.self) {
            try chart.addSeries(name: "v", categories: .column(0, rows: 0...1, of: sheet), values: .column(1, rows: 0...1, of: sheet),
                                cache: .init(categories: [.text("a"), .text("b")], values: [.number(1)]))
        }
        try book.close()
        let error = #expect(throws: XLSXError.self) { try sheet.conditionalFormat(.colorScale(low: 0, middle: 0, high: 0), rows: 0...1, columns: 0...0) }
        #expect(error.map { "\($0)" }?.contains("bad.xlsx") == true)
        #expect(throws: XLSXError.self) { try chart.reverseCategories() }
    }
}
