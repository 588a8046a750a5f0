import Foundation
import Testing
import TallyCore
import TallyTestSupport
@testable import TallyReports

@Suite("CSV: typed text never becomes a formula; ids and numbers stay as they are")
struct CSVInjectionTests {
    private func written(_ columns: [CSVColumn], _ rows: [[String]]) throws -> String {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("t.csv")
        let csv = try CSVWriter(url: url, columns: columns)
        for row in rows { try csv.writeRow(row) }
        try csv.commit()
        return String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    @Test("a free-text value starting with = + - @ tab or CR is quoted after a leading '", arguments: [
        ("=HYPERLINK(\"http://x\",\"Pix\")", "\"'=HYPERLINK(\"\"http://x\"\",\"\"Pix\"\")\""),
        ("+55 11 9999", "\"'+55 11 9999\""),
        ("-cmd|' /C calc'!A0", "\"'-cmd|' /C calc'!A0\""),
        ("@SUM(1+1)", "\"'@SUM(1+1)\""),
        ("\tTab", "\"'\tTab\""),
        ("\rCR", "\"'\rCR\""),
        ("Ana = Bia", "Ana = Bia"),
        ("", ""),
        ("Ana, \"a\" Bia", "\"Ana, \"\"a\"\" Bia\""),
    ])
    func freeTextIsNeutralised(value: String, expected: String) throws {
        let text = try written(["id", .text("displayName"), "amount"], [["-NxQ3abc", value, "-20.00"]])
        #expect(text == "id,displayName,amount\n-NxQ3abc,\(expected),-20.00\n")
    }

    @Test("ids, numbers and the header are written as they are")
    func verbatimColumns() throws {
        let text = try written(["memberId", .text("=note"), "closing"], [["-Mx1", "+1", "+3.50"], ["@id", "ok", "-0.01"]])
        #expect(text == "memberId,=note,closing\n-Mx1,\"'+1\",+3.50\n@id,ok,-0.01\n")
    }

    @Test("a spreadsheet reading the neutralised cell sees the text, with its quote mark as the text prefix")
    func roundTrip() throws {
        let text = try written([.text("name")], [["=1+1"]])
        // RFC 4180 reading of the second line: one field, `'=1+1`.
        #expect(text.split(separator: "\n")[1] == "\"'=1+1\"")
        #expect(CSVColumn.couldStartFormula("=1+1") && !CSVColumn.couldStartFormula("1+1") && !CSVColumn.couldStartFormula(""))
    }

    @Test("measures keep their input's precision: exact day sums, trailing zeros trimmed, at most 3 decimals", arguments: [
        (307.04, "307.04"), (3.425, "3.425"), (3425 * 0.001, "3.425"), (0.1 + 0.2, "0.3"), (12.0, "12"), (9182.0, "9182"),
        (343.40, "343.4"), (0.0, "0"), (1.23456, "1.235"), (0.0004, "0"), (1_000_000.125, "1000000.125"),
    ] as [(Double, String)])
    func trimmedNumbers(value: Double, expected: String) {
        #expect(CSVNumber.trimmed(value) == expected)
    }

    @Test("a day summed from many small records is written as the decimal sum")
    func longSums() {
        var km = 0.0
        for _ in 0..<10_000 { km += 0.001 }
        #expect(CSVNumber.trimmed(km) == "10")
        var kcal = 0.0
        for value in [0.07, 12.31, 0.5, 294.16] { kcal += value }
        #expect(CSVNumber.trimmed(kcal) == "307.04")
    }

    @Test("typed text is written to XLSX as a string cell, never as a formula")
    func workbookStringsStayStrings() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("t.xlsx").path
        let workbook = try XLSXWorkbook(path: path)
        let sheet = try workbook.addWorksheet(named: "S")
        try sheet.write("=HYPERLINK(\"http://x\",\"Pix\")", row: 0, column: 0)
        try sheet.write("+1", row: 1, column: 0)
        try workbook.close()
        let reader = try XLSXReader(path: path)
        #expect(try reader.cell("S", "A1") == .string("=HYPERLINK(\"http://x\",\"Pix\")"))
        #expect(try reader.cell("S", "A2") == .string("+1"))
        #expect(try !reader.sheetXML("S").contains("<f>"))
    }
}
