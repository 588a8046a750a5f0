import Testing
@testable import TallyReports

@Suite("Display width")
struct DisplayWidthTests {
    @Test("emoji with ZWJ and variation selector, flags, combining marks and CJK take their terminal columns")
    func widths() {
        #expect(DisplayWidth.of("Zoë 🏃‍♀️") == 6)
        #expect(DisplayWidth.of("🏃‍♀️") == 2)
        #expect(DisplayWidth.of("🇨🇱") == 2)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("Zoe\u{308}") == 3)
        #expect(DisplayWidth.of("日本") == 4)
        #expect(DisplayWidth.of("ｶﾀｶﾅ") == 4, "halfwidth katakana are narrow")
        #expect(DisplayWidth.of("ＡＢ") == 4, "fullwidth Latin is wide")
        #expect(DisplayWidth.of("👨‍👩‍👧‍👦") == 2, "a family ZWJ sequence is one cluster")
        #expect(DisplayWidth.of("❤️") == 2, "a text-default symbol with U+FE0F shows as emoji")
        #expect(DisplayWidth.of("❤") == 1, "without U+FE0F it is text")
        #expect(DisplayWidth.of("Ana") == 3)
        #expect(DisplayWidth.of("") == 0)
        #expect(DisplayWidth.of("a\u{200B}b") == 2, "zero-width space")
        #expect(DisplayWidth.of("█│—…") == 4, "ambiguous-width glyphs count one")
    }

    @Test("counting scalar by scalar gives what counting clusters gives, for every string of up to three pieces")
    func scalarCountEqualsClusterCount() {
        // Each piece from the one-column-alone set, its edges and what joins
        // or widens a cluster: combining marks, ZWJ, U+FE0F, regional
        // indicators, Hangul jamo, CR LF, controls and the soft hyphen.
        let pieces = ["a", " ", "\r", "\n", "\t", "\u{7F}", "\u{9F}", "\u{A0}", "\u{AD}", "ë", "\u{2FF}", "\u{300}",
                      "\u{200B}", "\u{200D}", "\u{2010}", "—", "…", "\u{2028}", "‼", "€", "−", "\u{20D0}", "█", "│", "\u{25A0}", "\u{FE0F}",
                      "🇨", "🇱", "\u{1100}", "\u{1161}", "❤", "日"]
        var strings = [""]
        var last = [""]
        for _ in 1...3 {
            last = last.flatMap { prefix in pieces.map { prefix + $0 } }
            strings += last
        }
        for text in strings {
            #expect(DisplayWidth.of(text) == DisplayWidth.ofClusters(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test("padding and truncation count columns, never split a cluster")
    func padAndTruncate() {
        #expect(DisplayWidth.pad("🇨🇱", to: 4) == "🇨🇱  ")
        #expect(DisplayWidth.padLeft("日本", to: 5) == " 日本")
        #expect(DisplayWidth.pad("Zoë 🏃‍♀️", to: 6) == "Zoë 🏃‍♀️")
        #expect(DisplayWidth.truncate("日本語テキスト", to: 6) == "日本…")
        #expect(DisplayWidth.of(DisplayWidth.truncate("日本語テキスト", to: 6)) == 5)
        #expect(DisplayWidth.truncate("Zoë 🏃‍♀️ runs", to: 6) == "Zoë …")
        #expect(DisplayWidth.truncate("short", to: 10) == "short")
        #expect(DisplayWidth.truncate("e\u{301}e\u{301}e\u{301}", to: 2) == "e\u{301}…")
    }

    @Test("bars line up when labels hold emoji, flags and CJK")
    func barsAlign() {
        let lines = TextChart.bars([
            .init(label: "Zoë 🏃‍♀️", value: 3, shown: "3"),
            .init(label: "🇨🇱 Chile", value: 2, shown: "2"),
            .init(label: "Rene\u{301}", value: 1, shown: "1"),
            .init(label: "日本", value: 1, shown: "1"),
        ], width: 10)
        let barColumns = lines.map { line in DisplayWidth.of(line[..<line.firstIndex(of: "│")!]) }
        #expect(Set(barColumns).count == 1, "the bars start in one column: \(lines)")
        #expect(Set(lines.map { DisplayWidth.of($0) }).count == 1, "every line is as wide: \(lines)")
    }
}

@Suite("Display width: counting from UTF-8 bytes")
struct DisplayWidthBytesTests {
    @Test("the byte count gives what counting clusters gives, for strings and substrings of every encoded length")
    func bytesEqualClusters() {
        let pieces = ["a", " ", "\u{7F}", "\u{80}", "\u{A0}", "\u{AD}", "ë", "\u{2FF}", "\u{300}", "\u{7FF}", "\u{800}", "\u{200B}",
                      "\u{2010}", "—", "\u{2027}", "\u{2028}", "\u{2030}", "‼", "\u{205E}", "\u{205F}", "\u{2060}",
                      "\u{20A0}", "€", "\u{20C0}", "\u{20C1}", "\u{20D0}", "\u{2211}", "−", "\u{2213}", "█", "\u{259F}", "\u{25A0}", "\u{FFFD}", "日", "\u{10000}", "🏃", "🇨"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(DisplayWidth.of(text) == DisplayWidth.ofClusters(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            let slice = text.dropFirst()
            #expect(DisplayWidth.of(slice) == DisplayWidth.ofClusters(slice))
        }
    }
}
