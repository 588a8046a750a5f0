import TallyCore

extension ReportLocale {
    /// The Excel number format for money in `currency`, placing the symbol as
    /// ``formatMoney(minor:currency:)`` does and tagging it with the locale's
    /// Windows language id, as Excel writes a currency chosen with its locale:
    /// pt-BR `[$R$-416] #,##0.00;-[$R$-416] #,##0.00`, en-US
    /// `[$$-409]#,##0.00;-[$$-409]#,##0.00`, es-ES
    /// `#,##0.00 [$€-C0A];-#,##0.00 [$€-C0A]` (JPY: `#,##0`, no decimals).
    ///
    /// The format code always uses `,` and `.`; the tag records which locale's
    /// currency the amount is in (Excel lists it as "R$ Portuguese (Brazil)").
    /// Separators still follow the viewer: Excel and LibreOffice both show
    /// `R$ 2,261.36` on an English desktop (LibreOffice 7.4, measured).
    public func excelMoneyFormat(for currency: Currency) -> String {
        let symbol = "[$" + currencySymbol(for: currency) + "-" + excelLanguageID + "]"
        let space = symbolNeedsSpace(currencySymbol(for: currency)) ? " " : ""
        var number = "#,##0"
        if currency.minorUnits > 0 {
            number += "." + String(repeating: "0", count: currency.minorUnits)
        }
        let positive: String
        switch self {
        case .ptBR, .enUS: positive = symbol + space + number
        case .esES: positive = number + space + symbol
        }
        return positive + ";-" + positive
    }

    /// The Windows language id (LCID, hexadecimal) that tags this locale's
    /// number formats: `416` (Portuguese, Brazil), `409` (English, United
    /// States), `C0A` (Spanish, Spain, international sort: what Excel writes
    /// for "€ Spanish (Spain)").
    public var excelLanguageID: String {
        switch self {
        case .ptBR: return "416"
        case .enUS: return "409"
        case .esES: return "C0A"
        }
    }

    /// The paper the locale prints on: A4 in Brazil and Spain, US Letter in the United States.
    public var paper: XLSXPrintSetup.Paper {
        self == .enUS ? .letter : .a4
    }

    /// The Excel number format for dates: `dd/mm/yyyy` (pt-BR, es-ES), `mm/dd/yyyy` (en-US).
    public var excelDateFormat: String {
        self == .enUS ? "mm/dd/yyyy" : "dd/mm/yyyy"
    }

    /// The Excel number format for a day and month, for date axes: `dd/mm`, `mm/dd` (en-US).
    public var excelDayMonthFormat: String {
        self == .enUS ? "mm/dd" : "dd/mm"
    }

    /// The Excel number format for a month stored as its first day: `mm/yyyy`.
    public var excelMonthFormat: String { "mm/yyyy" }

    /// The Excel number format for fractions shown as percentages: `0.0%`.
    public var excelPercentFormat: String { "0.0%" }
}
