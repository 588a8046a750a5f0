import TallyCore
/// One record's fields, valid only during the callback that receives it: its
/// bytes live in the reader's buffer, which the next record overwrites. Copy
/// what you keep (``string(_:)`` makes a copy).
///
/// Fields are indexed like the `fields` the ``TableReader`` was opened with.
/// Field bytes are well-formed UTF-8 without NUL bytes (records that are not
/// arrive as ``ReadEvent/malformed(line:reason:)`` instead). CSV values are
/// unquoted and unescaped but not trimmed. NDJSON strings are unescaped;
/// numbers, `true` and `false` are their JSON text; a nested object or array
/// is its raw JSON text.
public struct RecordView {
    /// The physical 1-based line where the record starts (the CSV header is
    /// line 1; NDJSON: the line number).
    public let line: Int
    /// How many fields the reader was opened with.
    public let fieldCount: Int
    private let base: UnsafePointer<UInt8>
    /// Two entries per field: start and end offsets from `base`; a start below
    /// zero marks an absent field.
    private let spans: UnsafePointer<Int>

    init(line: Int, fieldCount: Int, base: UnsafePointer<UInt8>, spans: UnsafePointer<Int>) {
        self.line = line
        self.fieldCount = fieldCount
        self.base = base
        self.spans = spans
    }

    /// The raw bytes of field `index` (index into the `fields` the reader was
    /// opened with), or nil when the field is absent, empty, or JSON null.
    @inline(__always)
    public func bytes(_ index: Int) -> UnsafeBufferPointer<UInt8>? {
        precondition(index >= 0 && index < fieldCount, "field index \(index) out of range 0..<\(fieldCount)")
        let start = spans[2 * index]
        guard start >= 0 else { return nil }
        return UnsafeBufferPointer(start: base + start, count: spans[2 * index + 1] - start)
    }

    /// The field as a String (nil when absent, empty, or JSON null).
    public func string(_ index: Int) -> String? {
        bytes(index).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether field `index` has a value (is neither absent, empty, nor null).
    public func isPresent(_ index: Int) -> Bool {
        precondition(index >= 0 && index < fieldCount, "field index \(index) out of range 0..<\(fieldCount)")
        return spans[2 * index] >= 0
    }
}

/// What a ``TableReader`` hands out for each record of a file, in file order.
public enum ReadEvent {
    /// A record read as a record (its values still to be typed and validated).
    case record(RecordView)
    /// A record that could not be read as a record at all (wrong CSV field
    /// count, unbalanced quote at end of file, invalid JSON line, record over
    /// the size limit, invalid UTF-8, NUL bytes…), with the line where it starts
    /// and a reason a person can act on.
    case malformed(line: Int, reason: RejectReason)
}
