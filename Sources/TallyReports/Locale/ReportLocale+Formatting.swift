import TallyCore

extension ReportLocale {
    // MARK: Numbers

    /// `value × 10^-scale` with this locale's separators and exactly `scale`
    /// digits after the decimal separator (pt-BR: `-1.234,50`; en-US: `-1,234.50`).
    /// With `grouping` false no thousands separator is written.
    public func formatDecimal(_ value: Int64, scale: Int, grouping: Bool = true) -> String {
        precondition(scale >= 0 && scale <= 18, "scale \(scale) out of 0...18")
        var out = TextBuffer(capacity: 32)
        if value < 0 { out.append("-") }
        appendDecimal(value.magnitude, scale: scale, grouping: grouping, to: &out)
        return out.text
    }

    /// Appends the digits of `magnitude` minor units at `scale`, grouped in
    /// threes from four digits on when `grouping`, to `out`: one buffer,
    /// where joining pieces of text costs a string per piece, and money is
    /// formatted for every line of every statement.
    func appendDecimal(_ magnitude: UInt64, scale: Int, grouping: Bool, to out: inout TextBuffer) {
        let divisor = UInt64(Decimal10.pow10(scale))
        let zero = UInt8(ascii: "0")
        // The whole part's digits, last first (at most 20), then written in order with the separators.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            var whole = magnitude / divisor
            repeat {
                digits[count] = zero + UInt8(whole % 10)
                whole /= 10
                count += 1
            } while whole > 0
            for i in 0..<count {
                if grouping, i > 0, (count - i) % 3 == 0 { out.append(groupingSeparator) }
                out.append(byte: digits[count - 1 - i])
            }
        }
        guard scale > 0 else { return }
        out.append(decimalSeparator)
        // The fraction's `scale` digits, zeros first.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: scale) { digits in
            var fraction = magnitude % divisor
            for k in stride(from: scale - 1, through: 0, by: -1) {
                digits[k] = zero + UInt8(fraction % 10)
                fraction /= 10
            }
            out.append(bytes: UnsafeBufferPointer(digits))
        }
    }

    /// An integer with thousands separators (`12.345` / `12,345`).
    public func formatInteger(_ value: Int64) -> String { formatDecimal(value, scale: 0) }

    /// A fraction as a percentage rounded half away from zero to `decimals`
    /// digits: 0.1532 → `15,3%` (pt-BR), `15.3%` (en-US), `15,3 %` (es-ES).
    /// Empty for a non-finite value.
    public func formatPercent(_ fraction: Double, decimals: Int = 1) -> String {
        precondition(decimals >= 0 && decimals <= 6, "decimals \(decimals) out of 0...6")
        let scaled = (fraction * 100 * Double(Decimal10.pow10(decimals))).rounded(.toNearestOrAwayFromZero)
        guard scaled.isFinite, abs(scaled) < 9.0e15 else { return "" }
        let number = formatDecimal(Int64(scaled), scale: decimals)
        return self == .esES ? number + " %" : number + "%"
    }

    // MARK: Money

    /// The symbol shown for `currency`.
    ///
    /// The rule: a fixed table of well-known symbols (`BRL` R$, `EUR` €, `GBP` £,
    /// `JPY` ¥, `CNY` CN¥, `CAD` CA$, `AUD` A$, `MXN` MX$, `INR` ₹, `KRW` ₩);
    /// `USD` is `$` in en-US and `US$` elsewhere (a bare `$` is ambiguous to a
    /// Brazilian or Spanish reader). Any other currency shows its ISO code (`CHF`).
    public func currencySymbol(for currency: Currency) -> String {
        switch currency.code {
        case "USD": return self == .enUS ? "$" : "US$"
        default: return Self.symbols[currency.code] ?? currency.code
        }
    }

    private static let symbols: [String: String] = [
        "BRL": "R$", "EUR": "€", "GBP": "£", "JPY": "¥", "CNY": "CN¥", "CAD": "CA$",
        "AUD": "A$", "MXN": "MX$", "INR": "₹", "KRW": "₩",
    ]

    /// Whether a space separates the symbol from the number: always in pt-BR
    /// (`R$ 1.234,56`) and es-ES (`1.234,56 €`); in en-US only when the symbol
    /// ends in a letter, i.e. is an ISO code (`CHF 1,234.56`, but `R$1,234.56`).
    func symbolNeedsSpace(_ symbol: String) -> Bool {
        guard self == .enUS else { return true }
        guard let last = symbol.unicodeScalars.last else { return false }
        return ("A"..."Z").contains(last) || ("a"..."z").contains(last)
    }

    /// Money as text, with the currency's minor digits: `R$ 1.234,56`, `-R$ 0,05`
    /// (pt-BR); `$1,234.56`, `R$1,234.56`, `¥1,235` (en-US); `1.234,56 €`,
    /// `1.234,56 R$` (es-ES). The sign comes first: `-$5.00`, `-5,00 €`.
    public func formatMoney(_ money: Money) -> String {
        formatMoney(minor: money.minor, currency: money.currency)
    }

    /// Minor units of `currency` as money text; see ``formatMoney(_:)``.
    public func formatMoney(minor: Int64, currency: Currency) -> String {
        let symbol = currencySymbol(for: currency)
        let space = symbolNeedsSpace(symbol) ? " " : ""
        var out = TextBuffer(capacity: 32)
        if minor < 0 { out.append("-") }
        switch self {
        case .ptBR, .enUS:
            out.append(symbol)
            out.append(space)
            appendDecimal(minor.magnitude, scale: currency.minorUnits, grouping: true, to: &out)
        case .esES:
            appendDecimal(minor.magnitude, scale: currency.minorUnits, grouping: true, to: &out)
            out.append(space)
            out.append(symbol)
        }
        return out.text
    }

    // MARK: Dates

    /// A date: `03/10/2026` (pt-BR, es-ES: day first), `10/03/2026` (en-US: month first).
    public func formatDate(_ date: LocalDate) -> String {
        let day = Self.pad(date.day, 2), month = Self.pad(date.month, 2), year = Self.pad(date.year, 4)
        switch self {
        case .ptBR, .esES: return "\(day)/\(month)/\(year)"
        case .enUS: return "\(month)/\(day)/\(year)"
        }
    }

    /// The month's name as used inside a sentence: `outubro`, `October`, `octubre`.
    public func monthName(_ month: Int) -> String {
        precondition((1...12).contains(month), "month \(month) out of 1...12")
        switch self {
        case .ptBR: return Self.portugueseMonths[month - 1]
        case .enUS: return Self.englishMonths[month - 1]
        case .esES: return Self.spanishMonths[month - 1]
        }
    }

    /// A month with its year: `outubro de 2026`, `October 2026`, `octubre de 2026`.
    public func formatMonth(_ period: YearMonth) -> String {
        switch self {
        case .ptBR, .esES: return "\(monthName(period.month)) de \(period.year)"
        case .enUS: return "\(monthName(period.month)) \(period.year)"
        }
    }

    /// A short month label for chart axes: `out/2026`, `Oct 2026`, `oct 2026`.
    public func formatShortMonth(_ period: YearMonth) -> String {
        let short = String(monthName(period.month).prefix(3))
        switch self {
        case .ptBR: return "\(short)/\(period.year)"
        case .enUS, .esES: return "\(short) \(period.year)"
        }
    }

    private static let portugueseMonths = [
        "janeiro", "fevereiro", "março", "abril", "maio", "junho",
        "julho", "agosto", "setembro", "outubro", "novembro", "dezembro",
    ]
    private static let englishMonths = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]
    private static let spanishMonths = [
        "enero", "febrero", "marzo", "abril", "mayo", "junio",
        "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre",
    ]

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.utf8.count)) + text
    }
}
