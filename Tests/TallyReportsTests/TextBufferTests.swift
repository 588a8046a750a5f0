import Testing
@testable import TallyReports

@Suite("Text written as bytes")
struct TextBufferTests {
    /// Pieces of every UTF-8 length, with spaces at either end and line breaks.
    static let pieces = ["", "a", " ", "  x  ", "Zoë", "—", "R$ 1.234,56", "日本", "🏃‍♀️", "🇨🇱", "e\u{301}", "\n", "\r\n", "tab\t"]

    @Test("appending strings, substrings, spaces, runs and newlines gives what appending them to a String gives")
    func matchesString() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var buffer = TextBuffer()
            var expected = ""
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                let piece = Self.pieces.randomElement(using: &generator)!
                switch Int.random(in: 0...5, using: &generator) {
                case 0:
                    buffer.append(piece)
                    expected += piece
                case 1:
                    buffer.line(piece)
                    expected += piece + "\n"
                case 2:
                    let slice = piece.dropFirst()
                    buffer.append(slice)
                    expected += slice
                case 3:
                    let count = Int.random(in: -2...70, using: &generator)
                    buffer.append(spaces: count)
                    expected += String(repeating: " ", count: max(0, count))
                case 4:
                    let glyph: Character = (["─", "═", "█", "🏃‍♀️"] as [Character]).randomElement(using: &generator)!
                    let count = Int.random(in: -1...40, using: &generator)
                    buffer.append(run: glyph, count: count)
                    expected += String(repeating: glyph, count: max(0, count))
                default:
                    buffer.dropTrailingSpaces()
                    while expected.utf8.last == UInt8(ascii: " ") { expected.removeLast() }
                }
            }
            #expect(buffer.text == expected)
            #expect(buffer.bytes == Array(expected.utf8))
        }
    }

    @Test("only spaces are dropped from the end, never a newline or other text")
    func dropTrailingSpaces() {
        var buffer = TextBuffer()
        buffer.line("a  ")
        buffer.append("b \t  ")
        buffer.dropTrailingSpaces()
        #expect(buffer.text == "a  \nb \t")
    }

    @Test("a table pads columns to their widest cell by display width, rules the header and ends no line in spaces")
    func table() {
        var buffer = TextBuffer()
        StatementText.appendTable([["Membro", "Valor", "Nota"], ["Zoë 🏃‍♀️", "R$ 1,00", ""], ["日本", "R$ 10,00", "ok"]],
                                  to: &buffer, rightAligned: [1])
        #expect(buffer.text == """
              Membro     Valor  Nota
              ──────────────────────
              Zoë 🏃‍♀️   R$ 1,00
              日本    R$ 10,00  ok

            """)
    }
}
