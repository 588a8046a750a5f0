import Foundation
import TallyCore

/// Writes the spreadsheet-ready copy of a CSV report in a ``CSVDialect``:
/// the same rows, with the dialect's separator, decimal commas in number
/// fields, a UTF-8 byte order mark and CRLF line ends, at
/// `<folder>/excel/<name>` beside the report (which it never changes).
///
/// Only fields of written-as-is columns (``CSVColumn/Content/verbatim``) that
/// are decimal numbers (`-20.00`, `7.568`) get a decimal comma; ids, codes,
/// dates, integers and free text are copied as they are, and a field quoted
/// in the report (a neutralised formula, text with a comma) stays quoted.
///
/// ```swift
/// let copy = try CSVSpreadsheetCopy.write(report: csv.file.temporary, destination: csv.file.destination,
///                                         columns: layout.columns, dialect: .excelPtBR)
/// // activity/excel/scores.csv: "userId;date;…\r\n" with 7,568 where scores.csv has 7.568
/// ```
public enum CSVSpreadsheetCopy {
    /// Where the copy of the report at `report` goes: `<folder>/excel/<name>`.
    public static func destination(of report: URL) -> URL {
        report.deletingLastPathComponent().appendingPathComponent("excel").appendingPathComponent(report.lastPathComponent)
    }

    /// Reads the RFC 4180 file at `report` (written by ``CSVWriter``, whose `isFreeText` gives each column's kind)
    /// and writes its copy in `dialect` for `destination` (the report's final place): an ``AtomicFile`` to commit.
    public static func write(report: URL, destination: URL, isFreeText: [Bool], dialect: CSVDialect) throws -> AtomicFile {
        let file = try AtomicFile(destination: Self.destination(of: destination))
        let writer = try BufferedFileWriter(url: file.temporary, destination: file.destination)
        var converter = Converter(dialect: dialect, isFreeText: isFreeText)
        try writer.write(bytes: [0xEF, 0xBB, 0xBF])
        guard let input = InputStream(url: report) else { throw OutputError("cannot read \(report.path) to copy it") }
        input.open()
        defer { input.close() }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var out: [UInt8] = []
        while true {
            let count = input.read(&chunk, maxLength: chunk.count)
            if count < 0 { throw OutputError("cannot read \(report.path) to copy it: \(input.streamError.map { "\($0)" } ?? "read error")") }
            if count == 0 { break }
            out.removeAll(keepingCapacity: true)
            converter.feed(chunk[0..<count], into: &out)
            try writer.write(bytes: out)
        }
        out.removeAll(keepingCapacity: true)
        converter.finish(into: &out)
        try writer.write(bytes: out)
        try writer.close()
        return file
    }

    /// The copy of RFC 4180 `text` in `dialect`, byte order mark included (for tests and small files).
    public static func convert(_ text: String, isFreeText: [Bool], dialect: CSVDialect) -> String {
        var converter = Converter(dialect: dialect, isFreeText: isFreeText)
        var out: [UInt8] = [0xEF, 0xBB, 0xBF]
        converter.feed(Array(text.utf8)[...], into: &out)
        converter.finish(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `field` is a decimal number as the reports write one: an optional `-`, digits, `.`, digits.
    static func isDecimal(_ field: [UInt8]) -> Bool {
        var index = field.first == UInt8(ascii: "-") ? 1 : 0
        var digitsBefore = 0, digitsAfter = 0, points = 0
        while index < field.count {
            let byte = field[index]
            if byte == UInt8(ascii: ".") { points += 1 }
            else if byte >= 0x30 && byte <= 0x39 { if points == 0 { digitsBefore += 1 } else { digitsAfter += 1 } }
            else { return false }
            index += 1
        }
        return points == 1 && digitsBefore > 0 && digitsAfter > 0
    }

    /// An RFC 4180 reader fed in chunks that writes each field again in the dialect.
    struct Converter {
        let separator: UInt8
        let decimalComma: Bool
        let isFreeText: [Bool]
        private var field: [UInt8] = []
        private var quoted = false
        /// Inside a quoted field; after a quote inside one (its end, or the first of a doubled quote).
        private var inQuotes = false
        private var quoteSeen = false
        private var column = 0
        private var lineHasContent = false

        init(dialect: CSVDialect, isFreeText: [Bool]) {
            separator = UInt8(ascii: dialect.separator.unicodeScalars.first!)
            decimalComma = dialect.usesDecimalComma
            self.isFreeText = isFreeText
        }

        mutating func feed(_ bytes: ArraySlice<UInt8>, into out: inout [UInt8]) {
            for byte in bytes {
                if inQuotes {
                    if quoteSeen {
                        quoteSeen = false
                        if byte == 34 { field.append(34); continue }   // a doubled quote
                        inQuotes = false                                // the closing quote: fall through
                    } else if byte == 34 {
                        quoteSeen = true
                        continue
                    } else {
                        field.append(byte)
                        continue
                    }
                }
                switch byte {
                case 34 where field.isEmpty && !quoted:
                    quoted = true
                    inQuotes = true
                    lineHasContent = true
                case UInt8(ascii: ","):
                    emitField(into: &out)
                    out.append(separator)
                    column += 1
                case 10:
                    if lineHasContent || column > 0 { emitField(into: &out) }
                    out.append(contentsOf: [13, 10])
                    column = 0
                    lineHasContent = false
                case 13:
                    break   // the reports end lines with LF; a CR outside quotes is dropped
                default:
                    field.append(byte)
                    lineHasContent = true
                }
            }
        }

        mutating func finish(into out: inout [UInt8]) {
            if quoteSeen { quoteSeen = false; inQuotes = false }
            if lineHasContent || column > 0 {
                emitField(into: &out)
                out.append(contentsOf: [13, 10])
            }
        }

        private mutating func emitField(into out: inout [UInt8]) {
            defer { field.removeAll(keepingCapacity: true); quoted = false }
            let freeText = column < isFreeText.count ? isFreeText[column] : true
            if decimalComma && !quoted && !freeText && CSVSpreadsheetCopy.isDecimal(field) {
                for byte in field { out.append(byte == UInt8(ascii: ".") ? UInt8(ascii: ",") : byte) }
                return
            }
            let needsQuotes = quoted || field.contains { $0 == separator || $0 == 34 || $0 == 10 || $0 == 13 }
            guard needsQuotes else { out.append(contentsOf: field); return }
            out.append(34)
            for byte in field {
                if byte == 34 { out.append(34) }
                out.append(byte)
            }
            out.append(34)
        }
    }
}
