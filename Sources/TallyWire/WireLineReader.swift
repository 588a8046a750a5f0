import TallyCore

/// Splits a buffer of wire lines into ``WireLine``s, at the byte level.
///
/// ```swift
/// try bytes.withUnsafeBufferPointer { buffer in
///     var reader = WireLineReader(buffer)
///     while let line = try reader.next() {
///         if line.is(Member.self) { members.append(try line.decode(Member.self)) }
///     }
/// }
/// ```
///
/// A line ends at a line feed (the last one may have none); an empty line
/// is skipped. Each line's tag is read (`kind.vN`); the fields are read on
/// demand by ``WireLine/decode(_:)``. Nothing is copied: lines are views
/// into the buffer, valid while it is.
public struct WireLineReader {
    private let buffer: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var lineNumber: Int

    /// A reader of `buffer`, whose first line is line `firstLineNumber`.
    public init(_ buffer: UnsafeBufferPointer<UInt8>, firstLineNumber: Int = 1) {
        self.buffer = buffer
        self.lineNumber = firstLineNumber - 1
    }

    /// A reader of raw bytes.
    public init(_ buffer: UnsafeRawBufferPointer, firstLineNumber: Int = 1) {
        self.init(buffer.bindMemory(to: UInt8.self), firstLineNumber: firstLineNumber)
    }

    /// The next line, or nil at the end. Throws when the line's tag is not `kind.vN`.
    public mutating func next() throws(WireError) -> WireLine? {
        while position < buffer.count {
            lineNumber += 1
            let start = position
            var end = start
            while end < buffer.count && buffer[end] != WireEscaping.lineFeed { end += 1 }
            position = end + 1
            guard end > start else { continue }
            return try WireLine(UnsafeBufferPointer(rebasing: buffer[start..<end]), number: lineNumber)
        }
        return nil
    }

    /// Calls `body` with every line of `bytes`.
    public static func forEachLine(in bytes: [UInt8], _ body: (WireLine) throws(WireError) -> Void) throws(WireError) {
        try bytes.withUnsafeBufferPointer { (buffer) throws(WireError) in
            var reader = WireLineReader(buffer)
            while let line = try reader.next() { try body(line) }
        }
    }

    /// Every line of `bytes` decoded as `Record`; a line of another kind is an error.
    public static func records<Record: WireRecord>(_ type: Record.Type, in bytes: [UInt8]) throws(WireError) -> [Record] {
        var records: [Record] = []
        try forEachLine(in: bytes) { (line) throws(WireError) in records.append(try line.decode(Record.self)) }
        return records
    }
}

/// One wire line (without its line feed) and its tag, as a view into the
/// bytes read.
public struct WireLine {
    /// The line's bytes, without the line feed.
    public let bytes: UnsafeBufferPointer<UInt8>
    /// The 1-based line number.
    public let number: Int
    /// The tag's kind bytes (`expense` of `expense.v1`).
    public let kind: UnsafeBufferPointer<UInt8>
    /// The tag's version (1 of `expense.v1`).
    public let version: Int
    /// Where the first field after the tag starts (past its tab), or `bytes.count + 1` when there is none.
    let fieldsStart: Int

    /// Reads the tag of `bytes`: `kind.vN`, then a tab or the end of the line.
    public init(_ bytes: UnsafeBufferPointer<UInt8>, number: Int) throws(WireError) {
        self.bytes = bytes
        self.number = number
        var tagEnd = 0
        while tagEnd < bytes.count && bytes[tagEnd] != WireEscaping.tab { tagEnd += 1 }
        let tag = UnsafeBufferPointer(rebasing: bytes[0..<tagEnd])
        func refuse(_ reason: String) -> WireError {
            WireError(line: number, kind: "'" + WireLine.shown(tag) + "'", reason: reason)
        }
        // The version is the digits after the last ".v".
        var dot = tagEnd - 1
        while dot >= 0 && bytes[dot] >= UInt8(ascii: "0") && bytes[dot] <= UInt8(ascii: "9") { dot -= 1 }
        guard dot >= 1, dot < tagEnd - 1, bytes[dot] == UInt8(ascii: "v"), bytes[dot - 1] == UInt8(ascii: ".") else {
            throw refuse("is not a record tag: a tag is kind.vN (expense.v1)")
        }
        var version = 0
        for i in (dot + 1)..<tagEnd {
            version = version &* 10 &+ Int(bytes[i] &- UInt8(ascii: "0"))
            guard version <= 1_000_000 else { throw refuse("has a version out of range") }
        }
        let kindEnd = dot - 1
        guard kindEnd > 0, (0..<kindEnd).allSatisfy({ WireLine.isKindByte(bytes[$0]) }) else {
            throw refuse("is not a record tag: a kind is lower case letters, digits and '-'")
        }
        self.kind = UnsafeBufferPointer(rebasing: bytes[0..<kindEnd])
        self.version = version
        self.fieldsStart = tagEnd + 1
    }

    /// A record's fields in the binary field form, which have no tag: the
    /// version is the record type's (``WireFields/decodeBinary(_:from:number:)``).
    init(binaryFields bytes: UnsafeBufferPointer<UInt8>, number: Int, version: Int) {
        self.bytes = bytes
        self.number = number
        self.kind = UnsafeBufferPointer(rebasing: bytes[0..<0])
        self.version = version
        self.fieldsStart = 0
    }

    private static func isKindByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "-")
    }

    /// The tag as the line spells it (`expense.v1`), for messages.
    public var tag: String {
        guard fieldsStart > 0 else { return "(binary fields)" }
        return WireLine.shown(UnsafeBufferPointer(rebasing: bytes[0..<(fieldsStart - 1)]))
    }

    /// Whether the line is a record of `Record`'s kind (any version).
    public func `is`<Record: WireRecord>(_ type: Record.Type) -> Bool {
        var wanted = Record.wireKind
        return wanted.withUTF8 { $0.count == kind.count && $0.elementsEqual(kind) }
    }

    /// The line's record. Throws when the line is another kind, a version
    /// this tally does not read, or a field is missing, extra or wrong.
    public func decode<Record: WireRecord>(_ type: Record.Type) throws(WireError) -> Record {
        guard self.is(Record.self) else {
            throw WireError(line: number, kind: tag, reason: "is not a record kind read here (expected \(Record.wireKind))")
        }
        if version > Record.wireVersion {
            throw WireError(line: number, kind: tag, reason: "is newer than this tally reads (v\(Record.wireVersion))")
        }
        if version < Record.wireOldestVersion {
            throw WireError(line: number, kind: tag,
                            reason: "is older than this tally reads (v\(Record.wireOldestVersion) to v\(Record.wireVersion))")
        }
        var fields = WireFields(self)
        let record = try Record(fields: &fields)
        try fields.finish()
        return record
    }

    /// The key fields of the line as they are on the wire (escaped, tabs
    /// between them): the bytes to route or group by. Lines of the same kind
    /// and key have the same key bytes.
    public func key<Record: WireRecord>(of type: Record.Type) -> UnsafeBufferPointer<UInt8> {
        var end = fieldsStart
        var remaining = Record.wireKeyFieldCount
        guard remaining > 0, fieldsStart <= bytes.count else {
            return UnsafeBufferPointer(rebasing: bytes[min(fieldsStart, bytes.count)..<min(fieldsStart, bytes.count)])
        }
        while end < bytes.count {
            if bytes[end] == WireEscaping.tab {
                remaining -= 1
                if remaining == 0 { break }
            }
            end += 1
        }
        return UnsafeBufferPointer(rebasing: bytes[fieldsStart..<end])
    }

    /// At most 64 bytes of `bytes` as text, for messages.
    static func shown(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: bytes.prefix(64), as: UTF8.self)
        return bytes.count > 64 ? text + "…" : text
    }
}
