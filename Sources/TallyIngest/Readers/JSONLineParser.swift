import Foundation

/// Parses one NDJSON line, a JSON object, into field spans, without recursion
/// (nesting depth is limited only by the line's length).
///
/// Top-level keys are matched to the table's fields like CSV header names
/// (``FieldName/matchKey(_:)``). Values: a string is unescaped in place (its
/// bytes shrink, never grow) and UTF-8-checked; a number is kept as its text
/// after a strict grammar check (`1e400` passes: the typed layer decides);
/// `true`/`false` are their text; `null` and `""` make the field absent; a
/// nested object or array is validated and kept as its raw JSON text. When a
/// key repeats, the last value wins. Keys of unknown fields are collected,
/// each once (at most ``maxUnknownFields``).
///
/// Malformed: anything but one JSON object (with optional surrounding
/// whitespace), invalid JSON anywhere in it, invalid UTF-8, and `\u0000` or a
/// raw NUL anywhere.
struct JSONLineParser {
    /// What a line turned out to be.
    enum Outcome: Equatable {
        /// Only whitespace: not a record.
        case blank
        /// A JSON object; the spans are filled.
        case record
        /// Not a usable JSON object, with the reason.
        case malformed(String)
    }

    /// Why a line failed, and where (0-based byte offset in the line).
    struct Failure: Error {
        enum Kind { case syntax, notObject, invalidUTF8, nul }
        let kind: Kind
        let message: String
        let offset: Int
    }

    /// The most unknown field names remembered.
    static let maxUnknownFields = 1000
    private static let maxCachedKeys = 4096

    let matcher: FieldMatcher
    /// Keys that are none of the fields, each once, in first-seen order.
    private(set) var unknownFields: [String] = []
    private var unknownSeen: Set<String> = []
    private var cachedKeys: [[UInt8]] = []
    private var cachedFieldIndex: [Int] = []
    /// The cache entry of the key at each position of the previous line.
    private var previousOrder: [Int] = []
    private var stack: [UInt8] = []

    init(matcher: FieldMatcher) {
        self.matcher = matcher
    }

    // MARK: Bytes

    private static let quote: UInt8 = 0x22
    private static let backslash: UInt8 = 0x5C
    private static let openBrace: UInt8 = 0x7B
    private static let closeBrace: UInt8 = 0x7D
    private static let openBracket: UInt8 = 0x5B
    private static let closeBracket: UInt8 = 0x5D
    private static let comma: UInt8 = 0x2C
    private static let colon: UInt8 = 0x3A
    private static let minus: UInt8 = 0x2D
    private static let zero: UInt8 = 0x30
    private static let nine: UInt8 = 0x39
    private static let objectMark: UInt8 = 0
    private static let arrayMark: UInt8 = 1

    // MARK: Parsing a line

    /// Parses the `count` bytes at `p` (one line, without its LF). Fills
    /// `spans` (two entries per field: start, end; start -1 when absent) with
    /// offsets from `p`. May rewrite the line's bytes.
    mutating func parse(_ p: UnsafeMutablePointer<UInt8>, count n: Int, spans: UnsafeMutablePointer<Int>) -> Outcome {
        var i = 0
        Self.skipSpace(p, n, &i)
        if i == n { return .blank }
        for field in 0..<matcher.fields.count { spans[2 * field] = -1 }
        var keyStart = -1
        var keyEnd = -1
        var keyField = -1
        do throws(Failure) {
            guard p[i] == Self.openBrace else {
                throw Failure(kind: .notObject, message: "it starts with \(Self.describe(p, n, i))", offset: i)
            }
            i += 1
            Self.skipSpace(p, n, &i)
            if i < n && p[i] == Self.closeBrace {
                i += 1
            } else {
                var position = 0
                while true {
                    guard i < n, p[i] == Self.quote else {
                        throw Self.syntax("expected a key in double quotes, found \(Self.describe(p, n, i))", i)
                    }
                    keyStart = -1
                    keyField = -1
                    let key = try Self.scanString(p, n, &i, decode: true)
                    keyStart = key.start
                    keyEnd = key.end
                    keyField = fieldIndex(p, key.start, key.end, position: position)
                    position += 1
                    Self.skipSpace(p, n, &i)
                    guard i < n, p[i] == Self.colon else {
                        throw Self.syntax("expected ':' after a key, found \(Self.describe(p, n, i))", i)
                    }
                    i += 1
                    Self.skipSpace(p, n, &i)
                    guard i < n else { throw Self.syntax("expected a value, found the end of the line", i) }
                    var valueStart = -1
                    var valueEnd = -1
                    switch p[i] {
                    case Self.quote:
                        let value = try Self.scanString(p, n, &i, decode: true)
                        (valueStart, valueEnd) = (value.start, value.end)
                    case Self.minus, Self.zero...Self.nine:
                        valueStart = i
                        try Self.scanNumber(p, n, &i)
                        valueEnd = i
                    case UInt8(ascii: "t"):
                        valueStart = i
                        try Self.scanLiteral("true", p, n, &i)
                        valueEnd = i
                    case UInt8(ascii: "f"):
                        valueStart = i
                        try Self.scanLiteral("false", p, n, &i)
                        valueEnd = i
                    case UInt8(ascii: "n"):
                        try Self.scanLiteral("null", p, n, &i)
                    case Self.openBrace, Self.openBracket:
                        valueStart = i
                        try skipNested(p, n, &i)
                        valueEnd = i
                    default:
                        throw Self.syntax("expected a value, found \(Self.describe(p, n, i))", i)
                    }
                    if keyField >= 0 {
                        if valueStart >= 0 && valueEnd > valueStart {
                            spans[2 * keyField] = valueStart
                            spans[2 * keyField + 1] = valueEnd
                        } else {
                            spans[2 * keyField] = -1
                        }
                    }
                    keyStart = -1
                    keyField = -1
                    Self.skipSpace(p, n, &i)
                    guard i < n else { throw Self.syntax("expected ',' or '}', found the end of the line", i) }
                    if p[i] == Self.comma {
                        i += 1
                        Self.skipSpace(p, n, &i)
                        continue
                    }
                    if p[i] == Self.closeBrace {
                        i += 1
                        break
                    }
                    throw Self.syntax("expected ',' or '}' after a value, found \(Self.describe(p, n, i))", i)
                }
            }
            Self.skipSpace(p, n, &i)
            if i < n {
                throw Self.syntax("unexpected \(Self.describe(p, n, i)) after the end of the object", i)
            }
            return .record
        } catch {
            var fieldName: String?
            if keyField >= 0 {
                fieldName = matcher.fields[keyField]
            } else if keyStart >= 0 {
                fieldName = String(decoding: UnsafeBufferPointer(start: p + keyStart, count: keyEnd - keyStart), as: UTF8.self)
            }
            return .malformed(Self.reason(error, fieldName: fieldName))
        }
    }

    private static func reason(_ failure: Failure, fieldName: String?) -> String {
        let at = "at byte \(failure.offset + 1)"
        let place = fieldName.map { "field '\($0)'" } ?? "a key"
        switch failure.kind {
        case .notObject:
            return "line is not a JSON object: \(failure.message)"
        case .syntax:
            let context = fieldName.map { " (in field '\($0)')" } ?? ""
            return "line is not valid JSON: \(failure.message) \(at)\(context)"
        case .invalidUTF8:
            return "invalid UTF-8 in \(place) \(at)"
        case .nul:
            return "NUL character in \(place) \(at)"
        }
    }

    private static func syntax(_ message: String, _ offset: Int) -> Failure {
        Failure(kind: .syntax, message: message, offset: offset)
    }

    /// `'x'` for a printable ASCII byte, else its hex value; "the end of the line" past the end.
    static func describe(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: Int) -> String {
        guard i < n else { return "the end of the line" }
        let c = p[i]
        if c >= 0x21 && c <= 0x7E { return "'\(Character(Unicode.Scalar(c)))'" }
        let hex = String(c, radix: 16, uppercase: true)
        return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
    }

    @inline(__always)
    private static func skipSpace(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int) {
        while i < n {
            let c = p[i]
            guard c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A else { return }
            i += 1
        }
    }

    // MARK: Keys

    /// The field index of the key at `p[start..<end]` (decoded), or -1.
    private mutating func fieldIndex(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, position: Int) -> Int {
        let length = end - start
        func matches(_ entry: Int) -> Bool {
            cachedKeys[entry].withUnsafeBufferPointer { key in
                key.count == length && (length == 0 || memcmp(key.baseAddress!, p + start, length) == 0)
            }
        }
        if position < previousOrder.count {
            let entry = previousOrder[position]
            if entry >= 0 && matches(entry) { return cachedFieldIndex[entry] }
        }
        var found = -1
        for entry in cachedKeys.indices where matches(entry) {
            found = entry
            break
        }
        let index: Int
        if found >= 0 {
            index = cachedFieldIndex[found]
        } else {
            let name = String(decoding: UnsafeBufferPointer(start: p + start, count: length), as: UTF8.self)
            index = matcher.index(of: name) ?? -1
            if index < 0 && unknownFields.count < Self.maxUnknownFields && unknownSeen.insert(name).inserted {
                unknownFields.append(name)
            }
            if cachedKeys.count < Self.maxCachedKeys {
                cachedKeys.append(Array(UnsafeBufferPointer(start: p + start, count: length)))
                cachedFieldIndex.append(index)
                found = cachedKeys.count - 1
            }
        }
        if position < Self.maxCachedKeys {
            while previousOrder.count <= position { previousOrder.append(-1) }
            previousOrder[position] = found
        }
        return index
    }

    // MARK: Values

    /// Scans the string whose opening quote is at `p[i]`; leaves `i` after the
    /// closing quote and returns the span of its content. With `decode`, the
    /// content is unescaped in place and the span is the decoded bytes;
    /// without, the bytes are only checked.
    private static func scanString(_ p: UnsafeMutablePointer<UInt8>, _ n: Int, _ i: inout Int, decode: Bool) throws(Failure) -> (start: Int, end: Int) {
        let start = i + 1
        var read = start
        // Fast path: no escapes, so nothing moves.
        while read < n {
            let c = p[read]
            if c >= 0x20 && c < 0x80 && c != quote && c != backslash {
                read += 1
                continue
            }
            if c == quote {
                i = read + 1
                return (start, read)
            }
            if c == backslash { break }
            if c >= 0x80 {
                let length = UTF8Validation.sequenceLength(p, at: read, end: n)
                guard length > 0 else { throw Failure(kind: .invalidUTF8, message: "", offset: read) }
                read += length
                continue
            }
            throw controlCharacter(c, read)
        }
        // Slow path: copy behind the read position, decoding escapes.
        var write = read
        while read < n {
            let c = p[read]
            if c == quote {
                i = read + 1
                return (start, decode ? write : read)
            }
            if c == backslash {
                guard read + 1 < n else { break }
                let escaped = p[read + 1]
                var decoded: UInt8 = 0
                switch escaped {
                case quote, backslash, UInt8(ascii: "/"): decoded = escaped
                case UInt8(ascii: "b"): decoded = 0x08
                case UInt8(ascii: "f"): decoded = 0x0C
                case UInt8(ascii: "n"): decoded = 0x0A
                case UInt8(ascii: "r"): decoded = 0x0D
                case UInt8(ascii: "t"): decoded = 0x09
                case UInt8(ascii: "u"):
                    let escapeStart = read
                    var scalar = try hex4(p, n, read + 2)
                    read += 6
                    if scalar >= 0xD800 && scalar <= 0xDBFF {
                        guard read + 1 < n, p[read] == backslash, p[read + 1] == UInt8(ascii: "u") else {
                            throw syntax("unpaired surrogate \\u\(String(scalar, radix: 16, uppercase: true))", escapeStart)
                        }
                        let low = try hex4(p, n, read + 2)
                        guard low >= 0xDC00 && low <= 0xDFFF else {
                            throw syntax("unpaired surrogate \\u\(String(scalar, radix: 16, uppercase: true))", escapeStart)
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        read += 6
                    } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                        throw syntax("unpaired surrogate \\u\(String(scalar, radix: 16, uppercase: true))", escapeStart)
                    }
                    if scalar == 0 { throw Failure(kind: .nul, message: "", offset: escapeStart) }
                    if decode { write += encodeUTF8(scalar, into: p + write) }
                    continue
                default:
                    throw syntax("invalid escape \\\(Character(Unicode.Scalar(escaped)))", read)
                }
                if decode {
                    p[write] = decoded
                    write += 1
                }
                read += 2
                continue
            }
            if c < 0x20 { throw controlCharacter(c, read) }
            var length = 1
            if c >= 0x80 {
                length = UTF8Validation.sequenceLength(p, at: read, end: n)
                guard length > 0 else { throw Failure(kind: .invalidUTF8, message: "", offset: read) }
            }
            if decode {
                for k in 0..<length { p[write + k] = p[read + k] }
                write += length
            }
            read += length
        }
        throw syntax("unterminated string", start - 1)
    }

    private static func controlCharacter(_ c: UInt8, _ offset: Int) -> Failure {
        if c == 0 { return Failure(kind: .nul, message: "", offset: offset) }
        let hex = String(c, radix: 16, uppercase: true)
        return syntax("unescaped control character 0x\(hex.count == 1 ? "0" + hex : hex) in a string", offset)
    }

    /// The value of the four hex digits at `p[at...]`.
    private static func hex4(_ p: UnsafePointer<UInt8>, _ n: Int, _ at: Int) throws(Failure) -> UInt32 {
        guard at + 4 <= n else { throw syntax("incomplete \\u escape", at - 2) }
        var value: UInt32 = 0
        for k in at..<(at + 4) {
            let c = p[k]
            let digit: UInt8
            switch c {
            case 0x30...0x39: digit = c - 0x30
            case 0x41...0x46: digit = c - 0x41 + 10
            case 0x61...0x66: digit = c - 0x61 + 10
            default: throw syntax("invalid \\u escape", at - 2)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Writes `scalar` as UTF-8 at `out` and returns the byte count.
    private static func encodeUTF8(_ scalar: UInt32, into out: UnsafeMutablePointer<UInt8>) -> Int {
        switch scalar {
        case 0..<0x80:
            out[0] = UInt8(scalar)
            return 1
        case 0x80..<0x800:
            out[0] = UInt8(0xC0 | scalar >> 6)
            out[1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case 0x800..<0x10000:
            out[0] = UInt8(0xE0 | scalar >> 12)
            out[1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            out[0] = UInt8(0xF0 | scalar >> 18)
            out[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            out[2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }

    /// Checks the number at `p[i]` against the JSON grammar and moves past it.
    private static func scanNumber(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int) throws(Failure) {
        let start = i
        @inline(__always) func isDigit(_ k: Int) -> Bool { k < n && p[k] >= zero && p[k] <= nine }
        if p[i] == minus { i += 1 }
        guard isDigit(i) else { throw syntax("invalid number", start) }
        if p[i] == zero {
            i += 1
        } else {
            while isDigit(i) { i += 1 }
        }
        if i < n && p[i] == UInt8(ascii: ".") {
            i += 1
            guard isDigit(i) else { throw syntax("invalid number", start) }
            while isDigit(i) { i += 1 }
        }
        if i < n && (p[i] == UInt8(ascii: "e") || p[i] == UInt8(ascii: "E")) {
            i += 1
            if i < n && (p[i] == UInt8(ascii: "+") || p[i] == minus) { i += 1 }
            guard isDigit(i) else { throw syntax("invalid number", start) }
            while isDigit(i) { i += 1 }
        }
    }

    /// Checks that `word` (`true`, `false`, `null`) is at `p[i]` and moves past it.
    private static func scanLiteral(_ word: StaticString, _ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int) throws(Failure) {
        let length = word.utf8CodeUnitCount
        guard i + length <= n, memcmp(p + i, word.utf8Start, length) == 0 else {
            throw syntax("unexpected \(describe(p, n, i))", i)
        }
        i += length
    }

    /// Checks the object or array at `p[i]` (any depth, iteratively) and moves past it.
    private mutating func skipNested(_ p: UnsafeMutablePointer<UInt8>, _ n: Int, _ i: inout Int) throws(Failure) {
        stack.removeAll(keepingCapacity: true)
        var expectingValue = true
        while true {
            if expectingValue {
                Self.skipSpace(p, n, &i)
                guard i < n else { throw Self.syntax("expected a value, found the end of the line", i) }
                switch p[i] {
                case Self.openBrace:
                    i += 1
                    Self.skipSpace(p, n, &i)
                    if i < n && p[i] == Self.closeBrace {
                        i += 1
                    } else {
                        stack.append(Self.objectMark)
                        try Self.skipKey(p, n, &i)
                        continue
                    }
                case Self.openBracket:
                    i += 1
                    Self.skipSpace(p, n, &i)
                    if i < n && p[i] == Self.closeBracket {
                        i += 1
                    } else {
                        stack.append(Self.arrayMark)
                        continue
                    }
                case Self.quote:
                    _ = try Self.scanString(p, n, &i, decode: false)
                case Self.minus, Self.zero...Self.nine:
                    try Self.scanNumber(p, n, &i)
                case UInt8(ascii: "t"):
                    try Self.scanLiteral("true", p, n, &i)
                case UInt8(ascii: "f"):
                    try Self.scanLiteral("false", p, n, &i)
                case UInt8(ascii: "n"):
                    try Self.scanLiteral("null", p, n, &i)
                default:
                    throw Self.syntax("expected a value, found \(Self.describe(p, n, i))", i)
                }
            }
            // A value is complete.
            guard let container = stack.last else { return }
            Self.skipSpace(p, n, &i)
            guard i < n else { throw Self.syntax("unclosed \(container == Self.objectMark ? "object" : "array"), found the end of the line", i) }
            let c = p[i]
            if c == Self.comma {
                i += 1
                if container == Self.objectMark { try Self.skipKey(p, n, &i) }
                expectingValue = true
            } else if (c == Self.closeBrace && container == Self.objectMark) || (c == Self.closeBracket && container == Self.arrayMark) {
                i += 1
                stack.removeLast()
                expectingValue = false
            } else {
                let closer = container == Self.objectMark ? "'}'" : "']'"
                throw Self.syntax("expected ',' or \(closer), found \(Self.describe(p, n, i))", i)
            }
        }
    }

    /// Checks `"key" :` inside a nested object and moves past the colon.
    private static func skipKey(_ p: UnsafeMutablePointer<UInt8>, _ n: Int, _ i: inout Int) throws(Failure) {
        skipSpace(p, n, &i)
        guard i < n, p[i] == quote else {
            throw syntax("expected a key in double quotes, found \(describe(p, n, i))", i)
        }
        _ = try scanString(p, n, &i, decode: false)
        skipSpace(p, n, &i)
        guard i < n, p[i] == colon else {
            throw syntax("expected ':' after a key, found \(describe(p, n, i))", i)
        }
        i += 1
    }
}
