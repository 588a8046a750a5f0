/// Runs of one glyph for text reports: rules (`─`, `═`) and bars (`█`, `░`).
///
/// `String(repeating:count:)` with a multi-byte glyph appends it one
/// `Character` at a time; a run built from its UTF-8 bytes is one copy,
/// which matters in statements that draw several rules per couple.
///
/// ```swift
/// TextRuns.run(of: "─", count: 3)   // "───"
/// ```
enum TextRuns {
    /// `count` copies of `glyph` (none when `count` is not positive).
    static func run(of glyph: Character, count: Int) -> String {
        guard count > 0 else { return "" }
        let unit = Array(String(glyph).utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(unit.count * count)
        for _ in 0..<count { bytes += unit }
        return String(decoding: bytes, as: UTF8.self)
    }
}
