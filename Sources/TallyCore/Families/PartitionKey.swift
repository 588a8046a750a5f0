/// The key of a partition (a couple id, a challenge id, a user id, or a
/// tuple of them), compared as UTF-8 bytes: the order SQLite's BINARY
/// collation and a byte sort (Spark, `sort` with `LC_ALL=C`) give, and
/// never canonical equivalence (`"ä"` and `"a\u{308}"` are two keys).
///
/// ```swift
/// PartitionKey("c-10") < PartitionKey("c-9")            // true: byte order
/// PartitionKey("ä") == PartitionKey("a\u{308}")          // false
/// PartitionKey(["fisioflow", "u-1"])                     // a composite key
/// ```
public struct PartitionKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The key's bytes; a composite key's parts are joined by a 0 byte.
    public let bytes: [UInt8]

    public init(_ id: String) { bytes = Array(id.utf8) }

    /// A key of these bytes (as read from the wire).
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// A composite key: `parts` in order, each followed by a 0 byte except
    /// the last, so keys sharing their first parts sort together.
    public init(_ parts: [String]) {
        var bytes: [UInt8] = []
        for (i, part) in parts.enumerated() {
            if i > 0 { bytes.append(0) }
            bytes.append(contentsOf: part.utf8)
        }
        self.bytes = bytes
    }

    public static func < (a: PartitionKey, b: PartitionKey) -> Bool {
        a.bytes.lexicographicallyPrecedes(b.bytes)
    }

    public var description: String { String(decoding: bytes.map { $0 == 0 ? 0x1F : $0 }, as: UTF8.self) }
}
