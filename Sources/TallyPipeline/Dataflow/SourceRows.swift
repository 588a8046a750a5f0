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
/// let rows = SourceRows(columns: ["id", "amount"], firstLine: 1)
/// try rows.append(index: 0, json: Array(#"{"id":"E1","amount":"12.50"}"#.utf8), line: 2)
/// try rows.finish()   // rows.url: one line per row
/// ```
final class SourceRows {
    /// The file's columns, as the engine listed them.
    let columns: [String]
    /// The input line of the columns: where messages point.
    let firstLine: Int
    private let spool: SpoolFile
    private(set) var count = 0

    /// The NDJSON file holding the rows, once ``finish()`` was called.
    var url: URL { spool.url }

    init(columns: [String], firstLine: Int) {
        self.columns = columns
        self.firstLine = firstLine
        spool = SpoolFile(url: FileManager.default.temporaryDirectory
                              .appendingPathComponent("tally-source-\(ProcessInfo.processInfo.processIdentifier)-\(firstLine).ndjson"),
                          flushBytes: 1 << 20, holding: "the rows of a file from the engine")
    }

    /// Takes one record an engine sent for a file, read on input line
    /// `line`: its columns, which start `rows`, or one of its rows. Says
    /// whether the record was one of those.
    static func take(_ record: FlowRecord, into rows: inout SourceRows?, line: Int) throws -> Bool {
        switch record {
        case .sourceColumns(let columns):
            guard rows == nil else { throw DataflowError("line \(line): a second source-columns line for one file") }
            rows = SourceRows(columns: columns, firstLine: line)
        case .sourceRow(let index, let json):
            guard let rows else { throw DataflowError("line \(line): a source-row line before its file's source-columns line") }
            try rows.append(index: index, json: json, line: line)
        default:
            return false
        }
        return true
    }

    /// Adds row `index` (its JSON object), read on input line `line`.
    func append(index: Int, json: [UInt8], line: Int) throws {
        guard index == count else {
            throw DataflowError("line \(line): source row \(index) came where row \(count) was due: the engine sends every row of a file once, in order")
        }
        guard !json.contains(where: { $0 == 0x0A || $0 == 0x0D }) else {
            throw DataflowError("line \(line): source row \(index) holds a line break (a row is one JSON object on one line)")
        }
        try spool.append(json)
        try spool.append(CollectionOfOne(UInt8(0x0A)))
        count += 1
    }

    /// Writes what is held: ``url`` then holds every row.
    func finish() throws {
        try spool.finish()
    }

    /// Removes the file.
    func discard() {
        spool.discard()
    }
}
