import Foundation

/// Writes an RFC 4180 CSV file: a header row, `,` separators, LF line ends,
/// fields quoted only when they hold a comma, quote, CR or LF (quotes doubled).
/// Values of free-text columns (``CSVColumn/text(_:)``) that could start a
/// formula are neutralised with a leading `'` (see ``CSVColumn``).
/// The file appears at its destination only on ``commit()``.
public final class CSVWriter {
    /// The header names.
    public let columns: [String]
    /// Per column: whether its values are neutralised free text.
    public let isFreeText: [Bool]
    /// The file being written (under its temporary name until committed).
    public let file: AtomicFile
    private let writer: BufferedFileWriter
    private var line: [UInt8] = []
    public private(set) var rowCount = 0

    /// Starts a CSV at `url` with `columns` as its header.
    public init(url: URL, columns: [CSVColumn]) throws {
        self.columns = columns.map(\.name)
        isFreeText = columns.map { $0.content == .freeText }
        file = try AtomicFile(destination: url)
        writer = try BufferedFileWriter(url: file.temporary, destination: url)
        try writeLine(self.columns, neutralising: false)
    }

    /// Appends one row; it must have one field per column.
    public func writeRow(_ fields: [String]) throws {
        precondition(fields.count == columns.count, "a row of \(fields.count) fields for \(columns.count) columns")
        try writeLine(fields, neutralising: true)
        rowCount += 1
    }

    private func writeLine(_ fields: [String], neutralising: Bool) throws {
        line.removeAll(keepingCapacity: true)
        for (i, field) in fields.enumerated() {
            if i > 0 { line.append(UInt8(ascii: ",")) }
            if neutralising && isFreeText[i] && CSVColumn.couldStartFormula(field) {
                CSVWriter.appendNeutralised(field, to: &line)
            } else {
                CSVWriter.appendField(field, to: &line)
            }
        }
        line.append(UInt8(ascii: "\n"))
        try writer.write(bytes: line)
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
        appendQuoted(field, prefix: nil, to: &line)
    }

    /// Appends `field` quoted, after a `'` that makes a spreadsheet read it as text.
    static func appendNeutralised(_ field: String, to line: inout [UInt8]) {
        appendQuoted(field, prefix: UInt8(ascii: "'"), to: &line)
    }

    private static func appendQuoted(_ field: String, prefix: UInt8?, to line: inout [UInt8]) {
        line.append(34)
        if let prefix { line.append(prefix) }
        for byte in field.utf8 {
            if byte == 34 { line.append(34) }
            line.append(byte)
        }
        line.append(34)
    }
}
