import Foundation

/// Streams the records of one table file (CSV or NDJSON, optionally gzipped),
/// handing out each record's fields as byte views.
///
/// Memory does not grow with the file: the file is read in 1 MiB chunks and
/// only the current record is kept (at most `maxRecordBytes` of it; a longer
/// record is skipped and reported as malformed).
///
/// ```swift
/// let reader = try TableReader(url: url, fields: ["id", "coupleId", "amount"])
/// try reader.read { event in
///     switch event {
///     case .record(let record): use(record.string(0), record.bytes(2))
///     case .malformed(let line, let reason): reject(line, reason)
///     }
/// }
/// ```
///
/// CSV: an optional UTF-8 BOM, then a header row (read by `init`), then
/// records. Empty lines are skipped. A file with no bytes, or only a header,
/// has no records (and, without a header, no missing fields). A record is
/// malformed when it has more or fewer fields than the header, an
/// unterminated quote at the end of the file, text after a closing quote,
/// a NUL byte or invalid UTF-8 in any field, or more than `maxRecordBytes`
/// bytes. A malformed record whose quoted text spans lines costs its first
/// line only: that line is malformed alone and the lines after it are read
/// as records again. A `"` inside an unquoted field is kept as data
/// (lenient). Values are not trimmed.
///
/// NDJSON: each line holds one JSON object (an optional BOM may lead the
/// file; lines holding only whitespace are skipped). Top-level keys match
/// fields like CSV header names; strings are unescaped (`\uXXXX` and surrogate
/// pairs become UTF-8); numbers keep their text (`1e400` included); `true` and
/// `false` are their words; `null` and `""` are absent; a nested object or
/// array is handed out as its raw JSON text (any depth, parsed without
/// recursion); a repeated key: the last value wins. A line is malformed when
/// it is not exactly one valid JSON object (trailing text included), holds
/// invalid UTF-8 or a NUL (`\u0000` too), or is longer than `maxRecordBytes`.
public final class TableReader {
    /// The file being read.
    public let url: URL
    /// The syntax of the file, from its name.
    public let format: TableFormat
    /// Whether the file is gzip-compressed, from its name.
    public let isCompressed: Bool
    /// The table's field names, in schema order.
    public let fields: [String]
    /// The size above which a record is reported as malformed.
    public let maxRecordBytes: Int

    /// Header names / JSON keys that are not among `fields` (after
    /// snake_case → camelCase normalisation), each once, in first-seen order.
    /// For NDJSON it grows while the file is read (at most 1,000 names).
    /// An unnamed CSV column appears as `(unnamed column N)`.
    public var unknownFields: [String] {
        switch format {
        case .csv: csvUnknownFields
        case .ndjson: json?.unknownFields ?? []
        }
    }
    /// Fields of `fields` that the CSV header lacks (empty for NDJSON, and for
    /// a CSV file without a header).
    public internal(set) var missingFields: [String] = []
    /// Records seen so far (data records including malformed ones; the header
    /// and blank lines excluded).
    public internal(set) var recordsRead = 0
    /// Bytes of the file consumed so far (compressed bytes for .gz), for
    /// progress display. Not safe to read from another thread.
    public var bytesConsumed: Int64 { buffer.bytesConsumed }

    /// The file's size and SHA-256 (as ``FileFingerprint`` gives them), once
    /// ``read(_:)`` has read the whole file of a reader made with
    /// `fingerprinting`; nil otherwise.
    public var fingerprint: (bytes: Int64, sha256: String)? {
        // A gzip file's bytes are read by the read-ahead thread, which has
        // made its last read before the reader sees the end of the data.
        buffer.isAtEnd ? fingerprintOfFile() : nil
    }
    private let fingerprintOfFile: () -> (bytes: Int64, sha256: String)?

    let buffer: ChunkBuffer
    /// Two entries per field (start, end) for the record being delivered.
    let spans: UnsafeMutablePointer<Int>
    let matcher: FieldMatcher
    /// The physical line where the next record starts.
    var line = 1
    var hasBeenRead = false

    // CSV
    let csv = CSVScanner()
    var csvUnknownFields: [String] = []
    /// The header's names, trimmed, per column.
    var headerNames: [String] = []
    /// The column of each field, or -1 when the header lacks it.
    var columnOfField: [Int] = []
    var hasHeader = false
    /// Whether the record being scanned spans lines and outgrew
    /// `maxRecordBytes` (scanning stopped with its first line held).
    var csvRecordOverflows = false

    // NDJSON
    var json: JSONLineParser?

    /// Opens `url` and, for CSV, reads its header row.
    ///
    /// - Parameters:
    ///   - fields: the table's field names in camelCase, in schema order;
    ///     ``RecordView`` index i is `fields[i]`.
    ///   - maxRecordBytes: records longer than this are malformed (and skipped
    ///     without being buffered whole).
    /// - Throws: ``ReaderError`` when the name has no supported extension, the
    ///   file cannot be opened or read, its gzip data is corrupt, or its CSV
    ///   header is unusable.
    ///   - fingerprinting: hash the file's bytes as they are read
    ///     (``fingerprint``), so a new file is read once, not once to hash
    ///     and once to load.
    public convenience init(url: URL, fields: [String], maxRecordBytes: Int = 64 << 20,
                            fingerprinting: Bool = false) throws(ReaderError) {
        try self.init(url: url, fields: fields, maxRecordBytes: maxRecordBytes, chunkSize: FileByteSource.defaultChunkSize,
                      fingerprinting: fingerprinting)
    }

    /// As the public initializer, with the read size chosen (tests use tiny chunks).
    init(url: URL, fields: [String], maxRecordBytes: Int, chunkSize: Int, fingerprinting: Bool = false) throws(ReaderError) {
        guard let name = TableFileName(url.lastPathComponent) else {
            throw ReaderError(.unsupportedFileName, file: url, reason: "unsupported file name: expected .csv, .ndjson or .jsonl, optionally followed by .gz")
        }
        self.url = url
        self.format = name.format
        self.isCompressed = name.isCompressed
        self.fields = fields
        self.maxRecordBytes = max(maxRecordBytes, 1)
        matcher = FieldMatcher(fields: fields)
        // gzip is inflated ahead on a thread of its own (ReadAheadByteSource).
        let source: any ByteSource
        if name.isCompressed {
            let gzip = try GzipByteSource(url: url, inputChunkSize: chunkSize, fingerprinting: fingerprinting)
            fingerprintOfFile = { gzip.fingerprint }
            source = ReadAheadByteSource(gzip, chunkSize: chunkSize)
        } else {
            let file = try FileByteSource(url: url, fingerprinting: fingerprinting)
            fingerprintOfFile = { file.fingerprint }
            source = file
        }
        buffer = ChunkBuffer(source: source, chunkSize: chunkSize, keepLimit: self.maxRecordBytes)
        spans = .allocate(capacity: max(2 * fields.count, 1))
        try skipByteOrderMark()
        switch format {
        case .csv:
            try readHeader()
        case .ndjson:
            json = JSONLineParser(matcher: matcher)
        }
    }

    deinit {
        spans.deallocate()
    }

    /// Reads the whole file, calling `body` for every record or malformed
    /// record, in file order. Call it once.
    ///
    /// - Throws: what `body` throws (reading stops there), or a
    ///   ``ReaderError`` when the file cannot be read further (an I/O error,
    ///   corrupt or truncated gzip data); records before it were delivered.
    public func read(_ body: (ReadEvent) throws -> Void) throws {
        precondition(!hasBeenRead, "TableReader.read may be called only once")
        hasBeenRead = true
        switch format {
        case .csv: try readCSVRecords(body)
        case .ndjson: try readNDJSONLines(body)
        }
    }

    /// Drops a leading UTF-8 byte order mark.
    private func skipByteOrderMark() throws(ReaderError) {
        while buffer.available < 3 && !buffer.isAtEnd { try buffer.fill() }
        let p = buffer.current
        if buffer.available >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF {
            buffer.consume(3)
        } else if buffer.available >= 2 && ((p[0] == 0xFF && p[1] == 0xFE) || (p[0] == 0xFE && p[1] == 0xFF)) {
            // Excel's "Unicode Text" and some exporters write UTF-16: every
            // row would be rejected, so the file is refused as a whole.
            throw ReaderError(.badHeader, file: url, reason: format == .csv
                ? "the file is UTF-16 text (as Excel's \"Unicode Text\" saves it); tally reads UTF-8: export as CSV UTF-8 (comma delimited)"
                : "the file is UTF-16 text; tally reads UTF-8: save it as UTF-8")
        }
    }

    /// The record view of the spans filled for the current record.
    func recordView(base: UnsafePointer<UInt8>) -> RecordView {
        RecordView(line: line, fieldCount: fields.count, base: base, spans: spans)
    }
}
