/// How a spreadsheet expects a CSV file, for the spreadsheet-ready copies of
/// the CSV reports (`csv.dialect` in `tally.yml`).
///
/// The reports themselves are always RFC 4180 (`,` separators, `.` decimals,
/// UTF-8 without a byte order mark): that is the data contract, and
/// ``rfc4180`` (the default) writes nothing else. Another dialect also writes
/// a copy of every CSV report beside it, in the family's `excel/` folder,
/// that a spreadsheet of that locale opens with numbers as numbers:
///
/// | dialect | separator | decimals | byte order mark | line end |
/// | --- | --- | --- | --- | --- |
/// | `rfc4180` | `,` | `7.568` | no | LF (no copies) |
/// | `excel-pt-BR`, `excel-es-ES` | `;` | `7,568` | UTF-8 | CRLF |
/// | `excel-en-US` | `,` | `7.568` | UTF-8 | CRLF |
///
/// ```swift
/// CSVDialect(name: "excel-pt-BR")   // .excelPtBR
/// CSVDialect.excelPtBR.separator   // ";"
/// ```
public enum CSVDialect: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// The contract's format alone: no spreadsheet copies (the default).
    case rfc4180 = "rfc4180"
    /// Excel or LibreOffice in Portuguese (Brazil).
    case excelPtBR = "excel-pt-BR"
    /// Excel or LibreOffice in Spanish (Spain).
    case excelEsES = "excel-es-ES"
    /// Excel or LibreOffice in English (United States).
    case excelEnUS = "excel-en-US"

    /// Parses a dialect's name, ignoring case and accepting `_` for `-` (`excel-pt-br`); nil for anything else.
    public init?(name: String) {
        let normalized = String(name.lowercased().map { $0 == "_" ? "-" : $0 })
        guard let dialect = Self.allCases.first(where: { $0.rawValue.lowercased() == normalized }) else { return nil }
        self = dialect
    }

    public var description: String { rawValue }

    /// Whether spreadsheet-ready copies are written beside the reports.
    public var writesCopies: Bool { self != .rfc4180 }

    /// The field separator: `;` where the decimal separator is a comma.
    public var separator: Character { usesDecimalComma ? ";" : "," }

    /// Whether decimals are written with a comma (`7,568`).
    public var usesDecimalComma: Bool { self == .excelPtBR || self == .excelEsES }
}
