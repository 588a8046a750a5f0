/// Runs of one glyph for text reports: rules (`─`, `═`) and bars (`█`, `░`),
/// as a `String` (``TextBuffer/append(run:count:)`` appends one to a text
/// being written).
///
/// ```swift
/// TextRuns.run(of: "─", count: 3)   // "───"
/// ```
enum TextRuns {
    /// `count` copies of `glyph` (none when `count` is not positive).
    static func run(of glyph: Character, count: Int) -> String {
        var out = TextBuffer()
        out.append(run: glyph, count: count)
        return out.text
    }
}
