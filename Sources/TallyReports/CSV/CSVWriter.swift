import Foundation

/// Writes an RFC 4180 CSV file: a header row, `,` separators, LF line ends,
/// fields quoted only when they hold a comma, quote, CR or LF (quotes doubled).
/// The file appears at its destination only on ``commit()``.
public final class CSVWriter {
    public let columns: [String]
    /// The file being written (under its temporary name until committed).
    public let file: AtomicFile
    private let writer: BufferedFileWriter
    private var line: [UInt8] = []
    public private(set) var rowCount = 0

    /// Starts a CSV at `url` with `columns` as its header.
    public init(url: URL, columns: [String]) throws {
        self.columns = columns
        file = try AtomicFile(destination: url)
        writer = try BufferedFileWriter(url: file.temporary, destination: url)
        try writeRow(columns)
        rowCount = 0
    }

    /// Appends one row; it must have one field per column.
    public func writeRow(_ fields: [String]) throws {
        precondition(fields.count == columns.count, "a row of \(fields.count) fields for \(columns.count) columns")
        line.removeAll(keepingCapacity: true)
        for (i, field) in fields.enumerated() {
            if i > 0 { line.append(UInt8(ascii: ",")) }
            CSVWriter.appendField(field, to: &line)
        }
        line.append(UInt8(ascii: "\n"))
        try writer.write(bytes: line)
        rowCount += 1
    }

    /// Writes what is buffered and closes the file (errors: a full disk).
    public func close() throws {
        try writer.close()
    }

    /// Closes the file and moves it into place.
    public func commit() throws {
        try close()
        try file.commit()
    }

    /// Appends `field`, quoted when needed.
    static func appendField(_ field: String, to line: inout [UInt8]) {
        let needsQuotes = field.utf8.contains { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }
        guard needsQuotes else { line.append(contentsOf: field.utf8); return }
        line.append(34)
        for byte in field.utf8 {
            if byte == 34 { line.append(34) }
            line.append(byte)
        }
        line.append(34)
    }
}
