import Foundation
import Testing
import TallyCore
import TallyTestSupport
@testable import TallyReports

/// A report as the contract writes it: an id, a date, a three-decimal measure, money, an integer,
/// free text with a comma, a neutralised formula, and an empty field.
private let report = """
    userId,date,distanceKm,amount,count,name,note
    -NxQ3,2026-10-03,7.568,-20.00,1234,"Ana, Bia","'=1+2"
    u2,2026-10-04,0.5,1179.00,0,7.5,

    """
private let freeText = [false, false, false, false, false, true, true]

/// Where LibreOffice is, when it is installed.
private let soffice = ["/usr/bin/soffice", "/usr/local/bin/soffice", "/usr/lib/libreoffice/program/soffice"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

@Suite("CSV spreadsheet copies (csv.dialect)")
struct CSVSpreadsheetCopyTests {
    @Test("excel-pt-BR: ';' separators, decimal commas in number fields only, a UTF-8 BOM, CRLF; quoted fields stay quoted")
    func portuguese() {
        let copy = CSVSpreadsheetCopy.convert(report, isFreeText: freeText, dialect: .excelPtBR)
        #expect(copy == "\u{FEFF}userId;date;distanceKm;amount;count;name;note\r\n"
                + "-NxQ3;2026-10-03;7,568;-20,00;1234;\"Ana, Bia\";\"'=1+2\"\r\n"
                + "u2;2026-10-04;0,5;1179,00;0;7.5;\r\n")
        #expect(Array(copy.utf8.prefix(3)) == [0xEF, 0xBB, 0xBF])
        #expect(CSVSpreadsheetCopy.convert(report, isFreeText: freeText, dialect: .excelEsES) == copy)
    }

    @Test("excel-en-US keeps ',' and '.', adding the BOM and CRLF")
    func english() {
        let copy = CSVSpreadsheetCopy.convert(report, isFreeText: freeText, dialect: .excelEnUS)
        #expect(copy == "\u{FEFF}" + report.replacingOccurrences(of: "\n", with: "\r\n"))
    }

    @Test("a separator or quote inside a field is quoted for the dialect; a doubled quote stays doubled")
    func quoting() {
        let text = "a,b\n\"x;y\",\"say \"\"hi\"\"\"\n"
        #expect(CSVSpreadsheetCopy.convert(text, isFreeText: [true, true], dialect: .excelPtBR)
                == "\u{FEFF}a;b\r\n\"x;y\";\"say \"\"hi\"\"\"\r\n")
    }

    @Test("only plain decimals get a comma: integers, ids, dates, signs alone and text keep their dots")
    func decimals() {
        for field in ["7.568", "-20.00", "0.5", "1179.00"] { #expect(CSVSpreadsheetCopy.isDecimal(Array(field.utf8)), "\(field)") }
        for field in ["1234", "-", ".5", "5.", "1.2.3", "2026-10-03", "v1.2", "1e5", ""] {
            #expect(!CSVSpreadsheetCopy.isDecimal(Array(field.utf8)), "\(field)")
        }
    }

    @Test("the copy is the same whatever the chunks the file is read in")
    func chunks() {
        var converter = CSVSpreadsheetCopy.Converter(dialect: .excelPtBR, isFreeText: freeText)
        var out: [UInt8] = [0xEF, 0xBB, 0xBF]
        for byte in Array(report.utf8) { converter.feed([byte][...], into: &out) }
        converter.finish(into: &out)
        #expect(String(decoding: out, as: UTF8.self) == CSVSpreadsheetCopy.convert(report, isFreeText: freeText, dialect: .excelPtBR))
    }

    @Test("an output set with a dialect writes <folder>/excel/<name> beside the report, which keeps its bytes")
    func besideTheReport() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputs = OutputSet(csvDialect: .excelPtBR)
        let layout = CSVLayout("scores.csv", ["userId", "date", "distanceKm", "amount", "count", .text("name"), .text("note")])
        let writer = try layout.writer(in: folder)
        try writer.writeRow(["-NxQ3", "2026-10-03", "7.568", "-20.00", "1234", "Ana, Bia", "=1+2"])
        try writer.writeRow(["u2", "2026-10-04", "0.5", "1179.00", "0", "7.5", ""])
        try outputs.add(writer)
        try outputs.commit()
        let original = try String(contentsOf: folder.appendingPathComponent("scores.csv"), encoding: .utf8)
        #expect(original == report)
        // Read as bytes: decoding a String from a file drops the byte order mark.
        let copy = String(decoding: try Data(contentsOf: folder.appendingPathComponent("excel/scores.csv")), as: UTF8.self)
        #expect(copy == CSVSpreadsheetCopy.convert(original, isFreeText: freeText, dialect: .excelPtBR))
        // Without a dialect there is no copy.
        let plain = OutputSet()
        let again = try CSVLayout("other.csv", ["a"]).writer(in: folder)
        try again.writeRow(["1.5"])
        try plain.add(again)
        try plain.commit()
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("excel/other.csv").path))
    }

    @Test("LibreOffice in pt-BR imports the excel-pt-BR copy with numbers as numbers: 7.568 km stays 7.568, money sums",
          .enabled(if: soffice != nil, "LibreOffice (soffice) is not installed: apt-get install libreoffice-calc"))
    func libreOfficeImportsNumbers() throws {
        let soffice = try #require(soffice)
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = folder.appendingPathComponent("scores.csv")
        try Data(CSVSpreadsheetCopy.convert(report, isFreeText: freeText, dialect: .excelPtBR).utf8).write(to: csv)
        // Separator ';' (59), text in '"' (34), UTF-8 (76), from line 1, language pt-BR (1046): what the pt-BR import dialog sets.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: soffice)
        process.arguments = ["-env:UserInstallation=file://\(folder.path)/profile", "--headless",
                             "--infilter=CSV:59,34,76,1,,1046", "--convert-to", "xlsx", "--outdir", folder.path, csv.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let book = try XLSXReader(url: folder.appendingPathComponent("scores.xlsx"))
        let sheet = try #require(book.sheetNames.first)
        #expect(try book.strings(sheet, 1) == ["userId", "date", "distanceKm", "amount", "count", "name", "note"])
        #expect(try book.cell(sheet, "C2") == .number(7.568), "7,568 km is 7.568, not 7568")
        #expect(try book.cell(sheet, "C3") == .number(0.5))
        #expect(try book.cell(sheet, "D2") == .number(-20))
        #expect(try book.cell(sheet, "D3") == .number(1179))
        #expect(try book.cell(sheet, "E2") == .number(1234))
        #expect(try book.cell(sheet, "A2") == .string("-NxQ3"))
        #expect(try book.cell(sheet, "F2") == .string("Ana, Bia"))
    }
}
