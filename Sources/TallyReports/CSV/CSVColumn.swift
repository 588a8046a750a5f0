/// A column of a CSV report: its header name and what its values are, which
/// decides how ``CSVWriter`` writes them.
///
/// Ids, codes, dates and numbers are written as they are (`-20.00` stays a
/// number, a Firebase push id such as `-NxQ3…` stays joinable). Free text that
/// a person typed in an app (a display name, a tag, a paywall context) or that
/// quotes such text (a reject reason) is **neutralised** against CSV (formula)
/// injection as OWASP recommends: a value beginning with `=`, `+`, `-`, `@`, a
/// tab or a carriage return is written quoted with a leading `'`, so Excel and
/// LibreOffice show it as text instead of running it.
///
/// ```swift
/// let csv = try CSVWriter(url: url, columns: ["coupleId", "memberId", .text("displayName"), "closing"])
/// try csv.writeRow(["cpl-1", "-NxQ3", "=HYPERLINK(\"http://x\",\"Pix\")", "-20.00"])
/// // cpl-1,-NxQ3,"'=HYPERLINK(""http://x"",""Pix"")",-20.00
/// ```
public struct CSVColumn: Hashable, Sendable, ExpressibleByStringLiteral {
    /// What a column's values are.
    public enum Content: Hashable, Sendable {
        /// Ids, codes, dates, numbers: written as they are.
        case verbatim
        /// Text typed by a person: neutralised when it could start a formula.
        case freeText
    }

    /// The header name.
    public let name: String
    public let content: Content

    public init(_ name: String, content: Content) {
        self.name = name
        self.content = content
    }

    /// A column written as it is (an id, a code, a date, a number).
    public init(stringLiteral name: String) {
        self.init(name, content: .verbatim)
    }

    /// A column of typed free text, neutralised against formula injection.
    public static func text(_ name: String) -> CSVColumn {
        CSVColumn(name, content: .freeText)
    }

    /// Whether a spreadsheet would read `value` as the start of a formula:
    /// it begins with `=`, `+`, `-`, `@`, a tab or a carriage return.
    public static func couldStartFormula(_ value: String) -> Bool {
        guard let first = value.utf8.first else { return false }
        return first == UInt8(ascii: "=") || first == UInt8(ascii: "+") || first == UInt8(ascii: "-")
            || first == UInt8(ascii: "@") || first == 0x09 || first == 0x0D
    }
}
