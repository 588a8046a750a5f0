/// Text that reports show on one line: a description in a statement's
/// table, a workbook cell, a note. A description may hold line breaks (a
/// quoted CSV field can); a line of a table cannot.
///
/// ```swift
/// TextLines.oneLine("Mercado\nda esquina")   // "Mercado da esquina"
/// ```
enum TextLines {
    /// `text` on one line: its lines joined by single spaces, blank lines
    /// dropped. Text without a line break (nearly every description) is
    /// returned as it is, without splitting it.
    static func oneLine(_ text: String) -> String {
        // Every line break's UTF-8 starts with one of these bytes (U+000A–U+000D; U+0085 is C2 85; U+2028, U+2029 are E2 80 A8/A9).
        guard text.utf8.contains(where: { (0x0A...0x0D).contains($0) || $0 == 0xC2 || $0 == 0xE2 }) else { return text }
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
