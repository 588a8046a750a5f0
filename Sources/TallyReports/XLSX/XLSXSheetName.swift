/// Turns any text into a worksheet name Excel accepts.
///
/// Excel's rules: 1 to 31 characters, none of `[ ] : * ? / \`, not starting
/// or ending with an apostrophe, unique in the workbook ignoring case, and
/// not `History` (reserved).
public enum XLSXSheetName {
    /// The longest name Excel allows.
    public static let maxLength = 31

    /// The characters Excel refuses in a sheet name.
    public static let forbidden: Set<Unicode.Scalar> = ["[", "]", ":", "*", "?", "/", "\\"]

    /// `name` made valid: forbidden characters and control characters become
    /// `_`, apostrophes at either end are dropped, it is cut to 31 characters
    /// (counting UTF-16 units, as Excel does, without splitting a character),
    /// and an empty result becomes `Sheet`.
    public static func sanitize(_ name: String) -> String {
        var cleaned = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            if forbidden.contains(scalar) || scalar.value < 0x20 || scalar.value == 0x7F {
                cleaned.append("_")
            } else {
                cleaned.append(scalar)
            }
        }
        var text = String(cleaned)
        while text.hasPrefix("'") { text.removeFirst() }
        while text.hasSuffix("'") { text.removeLast() }
        text = truncate(text, toUTF16: maxLength)
        while text.hasSuffix("'") { text.removeLast() }
        if text.isEmpty { return "Sheet" }
        if text.lowercased() == "history" { return text + "_" }
        return text
    }

    /// `sanitize(name)`, made unique against `taken` (compared ignoring case):
    /// the first free of `name`, `name (2)`, `name (3)`, … with the base cut so
    /// the whole stays within 31 characters.
    public static func unique(_ name: String, taken: Set<String>) -> String {
        unique(base: sanitize(name), taken: taken, firstCounter: 2).name
    }

    /// ``unique(_:taken:)`` for an already sanitized `base`, trying counters
    /// from `firstCounter` on: a caller that only ever adds names to `taken`
    /// knows that every counter below the one it last got for `base` is
    /// taken, and need not try them again (with thousands of sheets sharing
    /// a few dozen names, retrying from 2 each time is quadratic). Returns
    /// the name and its counter (nil when `base` itself was free).
    static func unique(base: String, taken: Set<String>, firstCounter: Int) -> (name: String, counter: Int?) {
        if !taken.contains(base.lowercased()) { return (base, nil) }
        var counter = max(firstCounter, 2)
        while true {
            let suffix = " (\(counter))"
            var candidate = truncate(base, toUTF16: maxLength - suffix.utf16.count)
            while candidate.hasSuffix("'") { candidate.removeLast() }
            candidate += suffix
            if !taken.contains(candidate.lowercased()) { return (candidate, counter) }
            counter += 1
        }
    }

    /// The longest prefix of `text` made of whole characters with at most `limit` UTF-16 units.
    static func truncate(_ text: String, toUTF16 limit: Int) -> String {
        if text.utf16.count <= limit { return text }
        var result = ""
        var used = 0
        for character in text {
            let width = character.utf16.count
            if used + width > limit { break }
            result.append(character)
            used += width
        }
        return result
    }
}
