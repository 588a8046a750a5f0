/// Limits a configuration must keep before it is parsed, so that a hostile
/// `tally.yml` cannot exhaust the stack (Yams composes nested nodes
/// recursively) or memory.
extension ConfigLoader {
    /// The most bytes a configuration may have: it is a few lines.
    public static let maxBytes = 1 << 20
    /// The deepest nesting of flow collections (`[…]`, `{…}`).
    public static let maxDepth = 64
    /// The widest indentation of a line (block nesting is at most this deep).
    public static let maxIndent = 256

    /// Throws a ``ConfigError`` naming `file` (and the line) when `text` is
    /// too large, nested too deep in flow collections, or indented too far.
    /// Quoted strings and comments are skipped, so brackets in them do not count.
    private static let tokenStarts: Set<UInt8> = [0x20, 0x09, 0x0A, UInt8(ascii: "["), UInt8(ascii: "{"),
                                                  UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "-")]

    static func checkShape(_ text: String, file: String) throws {
        guard text.utf8.count <= maxBytes else {
            throw ConfigError("\(file): larger than \(maxBytes) bytes; a tally configuration is a few lines")
        }
        var line = 1
        var depth = 0
        var indent = 0
        var atLineStart = true
        var quote: UInt8?
        var inComment = false
        var previous: UInt8 = 0x20
        for byte in text.utf8 {
            defer { previous = byte }
            if byte == 0x0A {
                line += 1
                indent = 0
                atLineStart = true
                inComment = false
                continue
            }
            if atLineStart {
                if byte == 0x20 {
                    indent += 1
                    if indent > maxIndent { throw ConfigError("\(file) line \(line): indented more than \(maxIndent) columns") }
                    continue
                }
                atLineStart = false
            }
            if inComment { continue }
            if let open = quote {
                if byte == open && previous != UInt8(ascii: "\\") { quote = nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "#") where previous == 0x20 || previous == 0x09 || previous == 0x0A:
                inComment = true
            case UInt8(ascii: "'") where tokenStarts.contains(previous), UInt8(ascii: "\"") where tokenStarts.contains(previous):
                // A quote opens a quoted scalar only where a token starts (`don't` is plain text).
                quote = byte
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > maxDepth { throw ConfigError("\(file) line \(line): nested more than \(maxDepth) levels deep") }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth = max(0, depth - 1)
            default:
                break
            }
        }
    }
}
