import TallyCore

/// The language and conventions a human-facing report is written in.
///
/// The people reading tally's statements are Brazilian couples first, so
/// ``ptBR`` is the default. Everything here is pure Swift and table-driven
/// (no `NumberFormatter`/`DateFormatter`), so the same input gives the same
/// bytes on every machine.
///
/// Conventions, per locale:
///
/// | | pt-BR | en-US | es-ES |
/// | --- | --- | --- | --- |
/// | number | `1.234,56` | `1,234.56` | `1.234,56` |
/// | money | `R$ 1.234,56` | `$1,234.56`, `R$1,234.56` | `1.234,56 €`, `1.234,56 R$` |
/// | negative money | `-R$ 1.234,56` | `-$1,234.56` | `-1.234,56 €` |
/// | date | `03/10/2026` | `10/03/2026` | `03/10/2026` |
/// | month | `outubro de 2026` | `October 2026` | `octubre de 2026` |
///
/// See ``currencySymbol(for:)`` for the symbol rule.
public enum ReportLocale: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Portuguese (Brazil): the default.
    case ptBR = "pt-BR"
    /// English (United States).
    case enUS = "en-US"
    /// Spanish (Spain).
    case esES = "es-ES"

    /// The locale used when none is configured: ``ptBR``.
    public static let `default`: ReportLocale = .ptBR

    /// Parses `pt-BR`, `en-US` or `es-ES`, ignoring case and accepting `_` for `-`
    /// (`pt_br`, `EN-us`). Surrounding spaces are ignored. Nil for anything else.
    public init?(identifier: String) {
        var normalized = ""
        for scalar in identifier.unicodeScalars {
            switch scalar {
            case "_": normalized.unicodeScalars.append("-")
            case "A"..."Z": normalized.unicodeScalars.append(Unicode.Scalar(scalar.value + 32)!)
            case " ", "\t": continue
            default: normalized.unicodeScalars.append(scalar)
            }
        }
        switch normalized {
        case "pt-br": self = .ptBR
        case "en-us": self = .enUS
        case "es-es": self = .esES
        default: return nil
        }
    }

    /// The BCP 47 tag (`pt-BR`).
    public var identifier: String { rawValue }

    public var description: String { rawValue }

    /// The decimal separator: `,` in pt-BR and es-ES, `.` in en-US.
    public var decimalSeparator: String { self == .enUS ? "." : "," }

    /// The thousands separator: `.` in pt-BR and es-ES, `,` in en-US.
    /// Groups are always of three digits, from four-digit numbers on (`1.234`).
    public var groupingSeparator: String { self == .enUS ? "," : "." }
}
