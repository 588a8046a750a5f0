import Foundation
import TallyWire

/// The rows of a file an engine read itself (a Parquet part), as they reach
/// the decode worker: held as NDJSON, one JSON object per line, in a
/// temporary file until the file's task comes, when ``DecodeStage`` reads
/// them as it reads an NDJSON export.
///
/// Rows must come once each, in the file's order (indexes 0, 1, 2, …): a
/// row missing, repeated or out of order stops the worker, since its
/// reports would silently lack a row or count one twice.
///
/// ```swift
/// let rows = try SourceRows(columns: ["id", "amount"], firstLine: 1)
/// try rows.append(index: 0, json: Array(#"{"id":"E1","amount":"12.50"}"#.utf8), line: 2)
/// try rows.finish()   // rows.url: one line per row
/// ```
final class SourceRows {
    /// The file's columns, as the engine listed them.
    let columns: [String]
    /// The input line of the columns: where messages point.
    let firstLine: Int
    /// The NDJSON file holding the rows.
    let url: URL
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private(set) var count = 0

    init(columns: [String], firstLine: Int) throws {
        self.columns = columns
        self.firstLine = firstLine
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("tally-source-\(ProcessInfo.processInfo.processIdentifier)-\(firstLine).ndjson")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw DataflowError("line \(firstLine): cannot create the file \(url.path) for a file's rows (is the temporary folder writable and not full?)")
        }
        handle = try FileHandle(forWritingTo: url)
        buffer.reserveCapacity(1 << 20)
    }

    /// Adds row `index` (its JSON object), read on input line `line`.
    func append(index: Int, json: [UInt8], line: Int) throws {
        guard index == count else {
            throw DataflowError("line \(line): source row \(index) came where row \(count) was due: the engine sends every row of a file once, in order")
        }
        guard !json.contains(where: { $0 == 0x0A || $0 == 0x0D }) else {
            throw DataflowError("line \(line): source row \(index) holds a line break (a row is one JSON object on one line)")
        }
        buffer.append(contentsOf: json)
        buffer.append(0x0A)
        count += 1
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Writes what is held and closes the file: ``url`` then holds every row.
    func finish() throws {
        try flush()
        try handle.close()
    }

    /// Removes the file.
    func discard() {
        try? handle.close()
        try? FileManager.default.removeItem(at: url)
    }

    private func flush() throws {
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
