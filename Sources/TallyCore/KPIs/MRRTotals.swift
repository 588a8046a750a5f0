/// The studio's MRR at a month's end: a total per currency, and, when the
/// configuration names a reporting currency (`kpis.reportingCurrency`), one
/// studio total in it.
///
/// Each currency's total (exact minor units) converts once, with the fx rule
/// of statements (``FxTable``): the latest rate on or before the month's last
/// day, from that currency to the reporting currency only (no inverse or
/// cross rates), rounded half away from zero. When a currency has no such
/// rate the studio total is nil and ``missingRates`` names the currency: a
/// partial sum is never shown as the total.
///
/// ```swift
/// // BRL 6259.34 + USD 4.99 at 5.40 BRL on 2026-10-30, reporting in BRL:
/// totals.studioTotal   // 628629 (6286.29 BRL)
/// ```
public struct MRRTotals: Sendable, Equatable {
    /// One currency's subscribers and MRR, and its value in the reporting currency.
    public struct CurrencyTotal: Sendable, Equatable {
        public var currency: Currency
        public var subscribers: Int
        /// In `currency` minor units.
        public var mrr: Int64
        /// The rate used (nil for the reporting currency itself or when none exists).
        public var rate: FxRate?
        /// `mrr` in reporting-currency minor units; nil when it has no rate (or no reporting currency is set).
        public var converted: Int64?
    }

    public var month: YearMonth
    /// Per currency, in code order.
    public var currencies: [CurrencyTotal]
    /// The configured reporting currency, if any.
    public var reportingCurrency: Currency?
    /// The sum of every currency's converted MRR; nil without a reporting
    /// currency, when a rate is missing, or on overflow.
    public var studioTotal: Int64?
    /// Currencies without a rate to the reporting currency on or before the month's end.
    public var missingRates: [Currency]

    /// The totals of `rows` (MRR per plan) for `month`.
    public init(_ rows: [SubscriptionRows.MRR], month: YearMonth, reportingCurrency: Currency?, fx: FxTable) {
        self.month = month
        self.reportingCurrency = reportingCurrency
        var byCurrency: [Currency: (subscribers: Int, mrr: Int64)] = [:]
        for row in rows where row.month == month {
            let sofar = byCurrency[row.currency] ?? (0, 0)
            byCurrency[row.currency] = (sofar.subscribers + row.subscribers, sofar.mrr + row.mrr)
        }
        var missing: [Currency] = []
        var total: Int64? = reportingCurrency == nil ? nil : 0
        currencies = byCurrency.keys.sorted().map { currency in
            let (subscribers, mrr) = byCurrency[currency]!
            guard let target = reportingCurrency else {
                return CurrencyTotal(currency: currency, subscribers: subscribers, mrr: mrr, rate: nil, converted: nil)
            }
            let rate = currency == target ? nil : fx.rate(from: currency, to: target, on: month.lastDay)
            let converted = fx.convert(mrr, from: currency, to: target, on: month.lastDay)
            if converted == nil { missing.append(currency) }
            if let sofar = total, let converted {
                let (sum, overflow) = sofar.addingReportingOverflow(converted)
                total = overflow ? nil : sum
            }
            return CurrencyTotal(currency: currency, subscribers: subscribers, mrr: mrr, rate: rate, converted: converted)
        }
        missingRates = missing
        studioTotal = missing.isEmpty ? total : nil
    }

    /// One sentence on how the studio total was made or why there is none,
    /// for the workbook, `kpis.txt` and the CSV's note column.
    public var note: String {
        guard let target = reportingCurrency else {
            return "no studio total: set kpis.reportingCurrency in tally.yml to add the currencies up"
        }
        if !missingRates.isEmpty {
            return "no studio total in \(target.code): no fx rate from "
                + missingRates.map(\.code).joined(separator: ", ")
                + " to \(target.code) on or before \(month.lastDay) in expenses/fx"
        }
        if studioTotal == nil, !currencies.isEmpty { return "no studio total in \(target.code): the sum does not fit in 64 bits" }
        let rates = currencies.compactMap(\.rate).map { "1 \($0.currency.code) = \($0.rate) \(target.code) (\($0.date))" }
        return rates.isEmpty ? "every currency is \(target.code)"
            : "converted at the latest rate on or before \(month.lastDay): " + rates.joined(separator: ", ")
    }
}
