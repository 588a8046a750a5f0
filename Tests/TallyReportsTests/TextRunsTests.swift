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
