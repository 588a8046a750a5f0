import Foundation
import Testing
import TallyCore
import TallyTestSupport
@testable import TallyReports

@Suite final class XLSXTableTests {
    /// A fresh folder per test (Swift Testing makes one instance per test), removed afterwards.
    private let folder: URL

    init() throws { folder = try temporaryFolder() }
    deinit { try? FileManager.default.removeItem(at: folder) }

    @Test func spillsToContinuationSheetsAtTheRowLimit() throws {
        let url = folder.appendingPathComponent("spill.xlsx")
        // 4 rows per sheet: the header and 3 data rows.
        let book = try XLSXWorkbook(path: url.path, options: .init(constantMemory: true, maxRowsPerSheet: 4))
        let table = try XLSXTable(workbook: book, name: "Saldos", columns: [.init("N"), .init("Texto")])
        for n in 1...8 {
            try table.appendRow { row in
                try row.write(Int64(n))
                try row.write("linha \(n)")
            }
        }
        try table.finish()
        #expect(table.rowCount == 8)
        #expect(table.sheets.map(\.name) == ["Saldos", "Saldos (2)", "Saldos (3)"])
        try book.close()

        let reader = try XLSXReader(url: url)
        #expect(reader.sheetNames == ["Saldos", "Saldos (2)", "Saldos (3)"])
        var seen: [Double] = []
        for sheet in reader.sheetNames {
            #expect(try reader.strings(sheet, 1) == ["N", "Texto"], "each part repeats the header")
            #expect(try reader.rowCount(sheet) <= 4)
            let xml = try reader.sheetXML(sheet)
            #expect(xml.contains("state=\"frozen\""))
            #expect(xml.contains("<autoFilter ref=\"A1:B"))
            for row in 2...4 {
                if let value = try reader.cell(sheet, "A\(row)")?.number { seen.append(value) }
            }
        }
        #expect(seen == (1...8).map(Double.init), "no row lost or repeated")
        #expect(try reader.cell("Saldos (3)", "B3") == .string("linha 8"))
    }

    @Test func titleRowsRepeatOnEverySheetAndRowsBelowTheTableSpillToo() throws {
        let url = folder.appendingPathComponent("titled.xlsx")
        // 5 rows per sheet: the title, the header and 3 data rows.
        let book = try XLSXWorkbook(path: url.path, options: .init(constantMemory: true, maxRowsPerSheet: 5))
        let layout = XLSXTable.Layout(titleRows: 1) { sheet, part in
            let rows = part.rows(of: 7).map { "\($0.lowerBound)–\($0.upperBound)" } ?? "none"
            try sheet.writeSpanning("Part \(part.number): rows \(rows)", row: 0)
        }
        #expect(XLSXTable.sheetCount(rows: 7, in: book, layout: layout) == 3)
        #expect(XLSXTable.sheetCount(rows: 0, in: book, layout: layout) == 1)
        let table = try XLSXTable(workbook: book, name: "T", columns: [.init("N")], layout: layout)
        #expect(table.rowsPerSheet == 3)
        for n in 1...7 { try table.appendRow { try $0.write(Int64(n)) } }
        try table.finish()
        // Part 3 holds row 7 on its row 3; the total and a note fill it, the third line starts part 4.
        for line in ["Total", "Note", "Last"] {
            try table.appendBelow { sheet, row in try sheet.write(line, row: row, column: 0) }
        }
        #expect(throws: XLSXError.self) { try table.appendRow { try $0.write("late") } }
        try book.close()

        let reader = try XLSXReader(url: url)
        #expect(reader.sheetNames == ["T", "T (2)", "T (3)", "T (4)"])
        #expect(try reader.cell("T", "A1") == .string("Part 1: rows 1–3"))
        #expect(try reader.cell("T (3)", "A1") == .string("Part 3: rows 7–7"))
        #expect(try reader.cell("T (4)", "A1") == .string("Part 4: rows none"))
        var seen: [Double] = []
        for sheet in reader.sheetNames {
            #expect(try reader.cell(sheet, "A2") == .string("N"), "each part repeats the header under the title")
            #expect(try reader.sheetXML(sheet).contains("<pane ySplit=\"2\" topLeftCell=\"A3\""))
            for row in 3...5 { if let value = try reader.cell(sheet, "A\(row)")?.number { seen.append(value) } }
        }
        #expect(seen == (1...7).map(Double.init), "no row lost or repeated")
        #expect(try reader.sheetXML("T (2)").contains("<autoFilter ref=\"A2:A5\"/>"))
        #expect(try reader.sheetXML("T (3)").contains("<autoFilter ref=\"A2:A3\"/>"), "the filter ends at the last data row")
        #expect(try !reader.sheetXML("T (4)").contains("<autoFilter"), "a sheet without data rows has no filter")
        #expect(try reader.strings("T (3)", 4) == ["Total"])
        #expect(try reader.strings("T (3)", 5) == ["Note"])
        #expect(try reader.strings("T (4)", 3) == ["Last"])
    }

    @Test func anEmptyTableHasItsHeaderAndNoFilter() throws {
        let url = folder.appendingPathComponent("empty.xlsx")
        let book = try XLSXWorkbook(path: url.path)
        let table = try XLSXTable(workbook: book, name: "T", columns: [.init("N"), .init("Texto")])
        try table.finish()
        try book.close()
        let reader = try XLSXReader(url: url)
        #expect(try reader.strings("T", 1) == ["N", "Texto"])
        #expect(try !reader.sheetXML("T").contains("<autoFilter"))
    }

    @Test func aTitleThatLeavesNoRoomForDataIsRefused() throws {
        let book = try XLSXWorkbook(path: folder.appendingPathComponent("tight.xlsx").path, options: .init(maxRowsPerSheet: 3))
        #expect(throws: XLSXError.self) { try XLSXTable(workbook: book, name: "T", columns: [.init("N")], layout: .init(titleRows: 2)) }
    }

    @Test func exactlyFullSheetDoesNotStartAnEmptyContinuation() throws {
        let url = folder.appendingPathComponent("full.xlsx")
        let book = try XLSXWorkbook(path: url.path, options: .init(maxRowsPerSheet: 4))
        let table = try XLSXTable(workbook: book, name: "T", columns: [.init("N")])
        for n in 1...3 { try table.appendRow { try $0.write(Double(n)) } }
        try table.finish()
        #expect(table.sheets.count == 1)
        try book.close()
    }

    @Test func usesTheColumnFormatUnlessTheCellGivesOne() throws {
        let url = folder.appendingPathComponent("formats.xlsx")
        let book = try XLSXWorkbook(path: url.path)
        let percent = try book.format(.percent)
        let integer = try book.format(.integer)
        let table = try XLSXTable(workbook: book, name: "T", columns: [.init("Taxa", format: percent), .init("Vazio", minimumWidth: 12)])
        try table.appendRow { row in
            try row.write(0.5)
            try row.skip()
        }
        try table.appendRow { row in
            try row.write(Int64(7), format: integer)
        }
        try table.finish()
        #expect(throws: XLSXError.self) { try table.appendRow { try $0.write("late") } }
        #expect(table.currentSheet.columnWidths[1] == 12)
        try book.close()
        let reader = try XLSXReader(url: url)
        #expect(try reader.numberFormat("T", "A2") == "0.0%")
        #expect(try reader.numberFormat("T", "A3") == "#,##0")
        #expect(try reader.numberFormat("T", "A1") != "0.0%", "the header keeps the header format")
    }
}
