import Foundation
import TallyCore

/// One output file being written: a CSV or NDJSON table (or an XML export),
/// buffered in memory and handed to its sink in large chunks, so a table is
/// never held whole. Counts the data records it writes.
final class TableFile {
    /// The path relative to the output folder (`expenses/expenses.csv`).
    let relativePath: String
    /// A short description of the spelling, for the summary (`CSV, BOM, CRLF, snake_case`).
    let formatNote: String
    var buffer = ByteBuffer(capacity: TableFile.flushThreshold + 64 * 1024)
    private(set) var records = 0
    private let sink: ByteSink
    private let crlf: Bool
    private var fieldsInRecord = 0
    private static let flushThreshold = 1 << 20

    /// Opens `relativePath` under `directory`, gzip-compressed when `gzipLevel` is set.
    /// With `zip`, the file is a zip holding the bytes as entry `zip.entry` beside `zip.extras` (see ``ZipFileWriter``).
    init(directory: URL, relativePath: String, formatNote: String, crlf: Bool = false, gzipLevel: Int32? = nil,
         zip: (entry: String, extras: [(path: String, bytes: [UInt8])])? = nil) throws {
        self.relativePath = relativePath
        self.formatNote = formatNote
        self.crlf = crlf
        let url = directory.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if let zip {
            sink = try ZipFileWriter(url: url, entryPath: zip.entry, extras: zip.extras)
        } else if let level = gzipLevel {
            sink = try GzipFileWriter(url: url, level: level)
        } else {
            sink = try FileByteSink(url: url)
        }
    }

    // MARK: Records

    /// Ends a data record: writes the line ending and counts it.
    func endRecord() throws {
        newline()
        records += 1
        fieldsInRecord = 0
        if buffer.count >= TableFile.flushThreshold { try flush() }
    }

    /// Ends a record without a line ending (the last line of a file that has no final newline).
    func endRecordWithoutNewline() {
        records += 1
        fieldsInRecord = 0
    }

    /// Writes a line ending that is not a record (after a header, or a blank line).
    func newline() {
        if crlf { buffer.byte(13) }
        buffer.byte(10)
    }

    /// Writes the buffer to the sink.
    func flush() throws {
        try sink.write(buffer.bytes)
        buffer.removeAll()
    }

    /// Flushes, closes and describes the file.
    func finish() throws -> GenerationSummary.File {
        try flush()
        let bytes = try sink.close()
        return GenerationSummary.File(path: relativePath, format: formatNote, records: records, bytes: bytes)
    }

    // MARK: CSV

    /// The header row; `bom` puts a UTF-8 byte order mark before it.
    func csvHeader(_ names: [String], bom: Bool = false) {
        if bom { buffer.append([0xEF, 0xBB, 0xBF]) }
        buffer.append(names.joined(separator: ","))
        newline()
    }

    @inline(__always)
    private func separator() {
        if fieldsInRecord > 0 { buffer.byte(44) }
        fieldsInRecord += 1
    }

    func csv(_ text: String) { separator(); buffer.csvField(text) }
    func csvRaw(_ text: StaticString) { separator(); buffer.append(text) }
    func csvEmpty() { separator() }
    func csvInt(_ value: Int64) { separator(); buffer.int(value) }
    func csvInt(_ value: Int) { separator(); buffer.int(Int64(value)) }
    func csvDecimal(_ minor: Int64, scale: Int) { separator(); buffer.decimal(minor, scale: scale) }
    func csvDate(_ date: LocalDate) { separator(); buffer.date(date) }
    func csvTimestamp(_ seconds: Int64, micros: Int = 0, style: TimestampStyle) {
        separator()
        buffer.timestamp(seconds, micros: micros, style: style)
    }

    /// A field written verbatim, with no quoting (for deliberately malformed rows).
    func csvVerbatim(_ text: String) { separator(); buffer.append(text) }

    // MARK: NDJSON

    func beginObject() { buffer.byte(UInt8(ascii: "{")); fieldsInRecord = 0 }
    func endObject() { buffer.byte(UInt8(ascii: "}")) }

    /// Writes `"name":` (with the comma before it when needed).
    func key(_ name: StaticString) {
        separator()
        buffer.byte(34)
        buffer.append(name)
        buffer.append("\":")
    }

    func json(_ name: StaticString, _ value: String, escapeNonASCII: Bool = false) {
        key(name)
        buffer.jsonString(value, escapeNonASCII: escapeNonASCII)
    }

    func json(_ name: StaticString, int value: Int) { key(name); buffer.int(Int64(value)) }
    func jsonNull(_ name: StaticString) { key(name); buffer.append("null") }

    func json(_ name: StaticString, date: LocalDate) {
        key(name)
        buffer.byte(34); buffer.date(date); buffer.byte(34)
    }

    func json(_ name: StaticString, timestamp seconds: Int64, micros: Int = 0, style: TimestampStyle) {
        key(name)
        buffer.byte(34)
        buffer.timestamp(seconds, micros: micros, style: style)
        buffer.byte(34)
    }
}
