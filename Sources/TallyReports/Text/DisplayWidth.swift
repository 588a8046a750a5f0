/// How many terminal columns text takes in a monospaced font, counted per
/// grapheme cluster (a `Character`), so every text report and the terminal
/// summary line up with emoji, flags, accents and CJK names.
///
/// A cluster is 0 columns when it is only combining marks, zero-width
/// characters or controls; 2 when it is shown as an emoji (a scalar with
/// Emoji_Presentation, any cluster with the emoji variation selector
/// U+FE0F, a flag of two regional indicators; ZWJ sequences are one cluster)
/// or when its first scalar is East Asian Wide or Fullwidth; otherwise 1.
/// East Asian Ambiguous characters (box drawing, `█`, `—`) count 1, as
/// terminals outside CJK locales draw them.
///
/// ```swift
/// DisplayWidth.of("Zoë 🏃‍♀️")   // 6: "Zoë " is 4, the runner 2
/// DisplayWidth.of("🇨🇱")        // 2
/// DisplayWidth.of("e\u{301}")  // 1
/// DisplayWidth.of("日本")       // 4
/// ```
public enum DisplayWidth {
    /// The columns `text` takes.
    ///
    /// Most report text is ASCII, Latin letters, dashes, quotes and the bar
    /// charts' block characters: scalars that are each a cluster of their own
    /// and one column wide. Such text is counted scalar by scalar; text with
    /// any other scalar is counted cluster by cluster (``of(_:)-(Character)``).
    /// The common case reads the text's UTF-8 bytes in place.
    public static func of(_ text: some StringProtocol) -> Int {
        if let alone = text.utf8.withContiguousStorageIfAvailable(widthAlone) {
            return alone ?? ofClusters(text)
        }
        var width = 0
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                if value >= 0x20 && value != 0x7F { width += 1 }
            } else if isOneColumnAlone(value) {
                width += 1
            } else {
                return ofClusters(text)
            }
        }
        return width
    }

    /// The columns of the UTF-8 `bytes` when each of their scalars is ASCII
    /// (controls 0 columns, others 1) or one column alone
    /// (``isOneColumnAlone(_:)``); nil as soon as one is not, or is encoded in
    /// four bytes (emoji, CJK extensions), for the text to be counted
    /// cluster by cluster. `bytes` is valid UTF-8 (a String's).
    static func widthAlone(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var width = 0
        var i = 0
        let count = bytes.count
        while i < count {
            let lead = bytes[i]
            if lead < 0x80 {
                if lead >= 0x20 && lead != 0x7F { width += 1 }
                i += 1
                continue
            }
            let value: UInt32
            if lead & 0xE0 == 0xC0, i + 1 < count {
                value = UInt32(lead & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F)
                i += 2
            } else if lead & 0xF0 == 0xE0, i + 2 < count {
                value = UInt32(lead & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
                i += 3
            } else {
                return nil
            }
            guard isOneColumnAlone(value) else { return nil }
            width += 1
        }
        return width
    }

    /// The columns `text` takes, counted per grapheme cluster.
    static func ofClusters(_ text: some StringProtocol) -> Int {
        var width = 0
        for character in text { width += of(character) }
        return width
    }

    /// Scalars outside ASCII that are one column wide and never join a
    /// neighbour into one cluster: Latin-1 and Latin Extended letters and
    /// symbols (not the soft hyphen, a format character), spacing modifier
    /// letters, the dashes, quotes, bullets and ellipsis of General
    /// Punctuation (U+2010–U+2027) and its primes, guillemets and marks up
    /// to U+205E (not the format characters after), the currency signs
    /// (U+20A0–U+20C0: `€`), the minus sign (U+2212), box drawing and block
    /// elements (U+2500–U+259F). None is wide, combining, a joiner or shown
    /// as an emoji on its own (`‼` is one only with U+FE0F, which is not in
    /// the set, so such text is counted by clusters).
    static func isOneColumnAlone(_ value: UInt32) -> Bool {
        switch value {
        case 0xA0...0x2FF: return value != 0xAD
        case 0x2010...0x2027, 0x2030...0x205E, 0x20A0...0x20C0, 0x2212, 0x2500...0x259F: return true
        default: return false
        }
    }

    /// The columns one grapheme cluster takes: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.isASCII { return first.value < 0x20 || first.value == 0x7F ? 0 : 1 }
        if scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        if scalars.allSatisfy(isZeroWidth) { return 0 }
        if first.properties.isEmojiPresentation { return 2 }
        if isRegionalIndicator(first) { return 2 }
        if isWide(first.value) { return 2 }
        return 1
    }

    /// Combining marks, format characters (ZWJ, ZWNJ, soft hyphen, bidi marks) and controls.
    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return true
        default: return scalar.value == 0x200B || (0x1160...0x11FF).contains(scalar.value)
        }
    }

    static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    /// East Asian Wide (W) and Fullwidth (F) blocks (Unicode's EastAsianWidth.txt, by block).
    static func isWide(_ value: UInt32) -> Bool {
        for range in wideRanges where range.contains(value) { return true }
        return false
    }

    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,   // Hangul Jamo initial consonants
        0x2E80...0x303E,   // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
        0x3041...0x33FF,   // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK strokes, enclosed, compatibility
        0x3400...0x4DBF,   // CJK Unified Ideographs Extension A
        0x4E00...0x9FFF,   // CJK Unified Ideographs
        0xA000...0xA4CF,   // Yi
        0xA960...0xA97F,   // Hangul Jamo Extended-A
        0xAC00...0xD7A3,   // Hangul syllables
        0xF900...0xFAFF,   // CJK compatibility ideographs
        0xFE10...0xFE19,   // vertical forms
        0xFE30...0xFE6F,   // CJK compatibility forms, small form variants
        0xFF00...0xFF60,   // fullwidth forms
        0xFFE0...0xFFE6,   // fullwidth signs
        0x16FE0...0x18CFF, // Tangut, Khitan
        0x1B000...0x1B2FF, // Kana supplement and extensions, Nüshu
        0x1F200...0x1F2FF, // enclosed ideographic supplement
        0x20000...0x2FFFD, // CJK Extensions B–F, compatibility supplement
        0x30000...0x3FFFD, // CJK Extensions G–H
    ]

    /// `text` padded with spaces on the right to `width` columns (unchanged when already as wide).
    public static func pad(_ text: String, to width: Int) -> String {
        let have = of(text)
        return have >= width ? text : text + String(repeating: " ", count: width - have)
    }

    /// `text` padded with spaces on the left to `width` columns (unchanged when already as wide).
    public static func padLeft(_ text: String, to width: Int) -> String {
        let have = of(text)
        return have >= width ? text : String(repeating: " ", count: width - have) + text
    }

    /// `text` cut to at most `width` columns, ending in `…` when cut; a
    /// cluster is never split (a wide one that does not fit is left out).
    public static func truncate(_ text: String, to width: Int) -> String {
        guard of(text) > width else { return text }
        guard width > 0 else { return "" }
        var kept = ""
        var used = 0
        for character in text {
            let w = of(character)
            if used + w > width - 1 { break }
            kept.append(character)
            used += w
        }
        return kept + "…"
    }
}
