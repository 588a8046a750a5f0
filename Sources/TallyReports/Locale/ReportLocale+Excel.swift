import TallyCore

extension ReportLocale {
    /// The Excel number format for money in `currency`, placing the symbol as
    /// ``formatMoney(minor:currency:)`` does: pt-BR `"R$" #,##0.00;-"R$" #,##0.00`,
    /// en-US `"$"#,##0.00;-"$"#,##0.00`, es-ES `#,##0.00 "€";-#,##0.00 "€"`
    /// (JPY: `#,##0`, no decimals).
    ///
    /// The format code always uses `,` and `.`; the spreadsheet shows them with
    /// the reader's own separators, as Excel and LibreOffice do for every format.
    public func excelMoneyFormat(for currency: Currency) -> String {
        let symbol = "\"" + currencySymbol(for: currency) + "\""
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
