/// A text report being written, as UTF-8 bytes: lines, padding and rules
/// are appended to one byte array, and the text is made a `String` once,
/// when it is complete.
///
/// A statement is rendered per couple, tens of thousands of times a run;
/// appending each cell, padding and newline to a `String` pays String's
/// bookkeeping on every append, where appending bytes is a copy.
///
/// ```swift
/// var out = TextBuffer()
/// out.append("  Ana")
/// out.append(spaces: 3)
/// out.line("R$ 10,00")
/// out.line(run: "─", count: 3)
/// out.text   // "  Ana   R$ 10,00\n───\n"
/// ```
struct TextBuffer {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// The text written so far.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends `text`.
    mutating func append(_ text: some StringProtocol) {
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { bytes.append(contentsOf: $0) }
        if copied == nil { bytes.append(contentsOf: text.utf8) }
    }

    /// Appends one byte of UTF-8 (an ASCII character, or part of a character the caller completes).
    mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends UTF-8 bytes (whole characters).
    mutating func append(bytes more: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: more)
    }

    /// Appends `text` and a newline.
    mutating func line(_ text: some StringProtocol) {
        append(text)
        bytes.append(0x0A)
    }

    /// Appends a newline.
    mutating func newline() {
        bytes.append(0x0A)
    }

    /// Appends `count` spaces (none when `count` is not positive).
    mutating func append(spaces count: Int) {
        guard count > 0 else { return }
        bytes.append(contentsOf: repeatElement(0x20, count: count))
    }

    /// Appends `count` copies of `glyph` (none when `count` is not positive).
    mutating func append(run glyph: Character, count: Int) {
        guard count > 0 else { return }
        let unit = Array(glyph.utf8)
        var at = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: unit.count * count))
        bytes.withUnsafeMutableBufferPointer { out in
            for _ in 0..<count {
                for byte in unit {
                    out[at] = byte
                    at += 1
                }
            }
        }
    }

    /// Appends `count` copies of `glyph`, then a newline.
    mutating func line(run glyph: Character, count: Int) {
        append(run: glyph, count: count)
        bytes.append(0x0A)
    }

    /// Removes the spaces at the end of what is written, so no line ends in spaces.
    mutating func dropTrailingSpaces() {
        while bytes.last == 0x20 { bytes.removeLast() }
    }
}
