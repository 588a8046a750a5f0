import Testing
@testable import TallyReports

@Suite("Runs of one glyph")
struct TextRunsTests {
    @Test("a run is the glyph repeated, whatever its UTF-8 length, and empty for no count")
    func runs() {
        for glyph: Character in ["─", "═", "█", "░", "-", "🏃‍♀️"] {
            for count in [-1, 0, 1, 2, 7, 64] {
                #expect(TextRuns.run(of: glyph, count: count) == String(repeating: glyph, count: max(0, count)))
            }
        }
        #expect(DisplayWidth.of(TextRuns.run(of: "─", count: 12)) == 12)
    }
}

@Suite("Statement text: descriptions on one line")
struct OneLineTests {
    @Test("line breaks of every kind become single spaces, blank lines go; text without one is kept as it is")
    func oneLine() {
        for text in ["Mercado", "", "café — pão", "a\nb", "a\r\nb", "a\n\n b", "\na\n", "a\u{85}b", "a\u{2028}b", "a\u{2029}b",
                     "a\u{0B}b\u{0C}c\rd", "日本 €", "ok\u{00A0}nbsp"] {
            #expect(TextLines.oneLine(text) == text.split(whereSeparator: \.isNewline).joined(separator: " "), "\(text.debugDescription)")
        }
    }
}
