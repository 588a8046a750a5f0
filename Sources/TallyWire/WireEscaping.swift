import TallyCore

/// The escapes of a wire field: any byte string becomes bytes with no tab,
/// line feed or carriage return, and back.
///
/// | byte(s) in the value | on the wire |
/// |---|---|
/// | `\` (0x5C) | `\\` |
/// | tab (0x09) | `\t` |
/// | line feed (0x0A) | `\n` |
/// | carriage return (0x0D) | `\r` |
/// | every other byte, invalid UTF-8 included | itself |
///
/// A nil value is the field `\N`, which no escaped value can be, so nil and
/// the empty string (a field of no bytes) stay apart.
///
/// Escaping keeps grouping: an escaped value holds no tab, so the bytes of a
/// line up to the tab after its key are the same for every line of that key
/// and a prefix of no other key's lines. A byte sort of lines therefore
/// keeps each key's lines together, whatever bytes the keys hold. It also
/// keeps the keys' own byte order for keys without C0 control bytes (below
/// 0x20): `\` escapes to `\\`, which begins with the byte it stands for.
public enum WireEscaping {
    static let backslash = UInt8(ascii: "\\")
    public static let tab = UInt8(ascii: "\t")
    public static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    /// The field that stands for nil: `\N`.
    public static let nilField: [UInt8] = [backslash, UInt8(ascii: "N")]

    /// Whether `byte` must be escaped.
    @inline(__always)
    static func needsEscape(_ byte: UInt8) -> Bool {
        byte == backslash || byte == tab || byte == lineFeed || byte == carriageReturn
    }

    /// Appends the escaped form of `value` to `output`.
    public static func escape(_ value: some Sequence<UInt8>, into output: inout [UInt8]) {
        for byte in value {
            switch byte {
            case backslash: output.append(backslash); output.append(backslash)
            case tab: output.append(backslash); output.append(UInt8(ascii: "t"))
            case lineFeed: output.append(backslash); output.append(UInt8(ascii: "n"))
            case carriageReturn: output.append(backslash); output.append(UInt8(ascii: "r"))
            default: output.append(byte)
            }
        }
    }

    /// The escaped form of `value`.
    public static func escaped(_ value: some Sequence<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        escape(value, into: &output)
        return output
    }

    /// Why a field's escapes could not be undone.
    public enum UnescapeError: Error, Equatable, Sendable, CustomStringConvertible {
        /// A `\` followed by a byte that is no escape (`N` included: nil is only a whole field).
        case unknownEscape(UInt8)
        /// A `\` at the end of the field.
        case trailingBackslash

        public var description: String {
            switch self {
            case .unknownEscape(let byte):
                let shown = byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "0x" + String(byte, radix: 16)
                return "unknown escape '\\\(shown)' (escapes are \\\\, \\t, \\n, \\r; \\N alone is nil)"
            case .trailingBackslash: return "ends with a lone '\\'"
            }
        }
    }

    /// Appends the value of the escaped field `field` to `output`.
    public static func unescape(_ field: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) throws(UnescapeError) {
        var i = 0
        let n = field.count
        while i < n {
            let byte = field[i]
            if byte != backslash {
                output.append(byte)
                i += 1
                continue
            }
            guard i + 1 < n else { throw .trailingBackslash }
            switch field[i + 1] {
            case backslash: output.append(backslash)
            case UInt8(ascii: "t"): output.append(tab)
            case UInt8(ascii: "n"): output.append(lineFeed)
            case UInt8(ascii: "r"): output.append(carriageReturn)
            case let other: throw .unknownEscape(other)
            }
            i += 2
        }
    }

    /// The value of the escaped field `field`.
    public static func unescaped(_ field: some Collection<UInt8>) throws(UnescapeError) -> [UInt8] {
        let bytes = Array(field)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        try bytes.withUnsafeBufferPointer { (buffer) throws(UnescapeError) in try unescape(buffer, into: &output) }
        return output
    }
}
