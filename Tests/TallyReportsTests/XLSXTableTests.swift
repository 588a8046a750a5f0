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
