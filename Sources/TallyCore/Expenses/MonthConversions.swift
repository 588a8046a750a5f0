/// The month's expenses in another currency than the couple's, per currency:
/// what they added up to as entered, each rate that converted them with the
/// date of its fx row (the latest on or before the expense's date, so it may
/// be earlier), and what they came to in the couple's currency. Refunds count
/// negative, as in the balances. Settlements are not included (the statement
/// lists each with its rate).
///
/// Two dinners in USD, 100.00 on 2026-10-05 and 20.00 on 2026-10-06, both at
/// the 2026-10-01 rate 5.4321: one ``CurrencyConversions`` for USD with
/// `original` 12000, `converted` 65185 and one ``RateUse`` (2026-10-01, two expenses).
public struct CurrencyConversions: Hashable, Sendable {
    /// The currency the expenses were entered in.
    public var currency: Currency
    /// The expenses counted.
    public var count: Int
    /// Their amounts as entered, added up, in `currency` minor units.
    public var original: Int64
    /// Their converted amounts added up, in the couple's currency minor units.
    public var converted: Int64
    /// Each rate used, by the date of its fx row.
    public var rates: [RateUse]

    public init(currency: Currency, count: Int, original: Int64, converted: Int64, rates: [RateUse]) {
        self.currency = currency
        self.count = count
        self.original = original
        self.converted = converted
        self.rates = rates
    }

    /// The conversions of `expenses` (the month's, in the couple's currency), one per currency in code
    /// order; expenses without a ``Conversion`` are in the couple's currency and left out. A currency
    /// whose amounts would add up past 64 bits (only hostile exports do that) is left out too.
    ///
    /// ```swift
    /// CurrencyConversions.of(month.expenses.map(\.expense))   // [USD: 2 expenses, 1 rate]
    /// ```
    public static func of(_ expenses: [Expense]) -> [CurrencyConversions] {
        struct Key: Hashable {
            var currency: String
            var rateDate: LocalDate
        }
        var byRate: [Key: (rate: Decimal10, currency: Currency, count: Int, original: Int128, converted: Int128)] = [:]
        for expense in expenses {
            guard let conversion = expense.conversion else { continue }
            let key = Key(currency: conversion.currency.code, rateDate: conversion.rateDate)
            var use = byRate[key] ?? (conversion.rate, conversion.currency, 0, 0, 0)
            use.count += 1
            use.original += Int128(conversion.amount)
            use.converted += Int128(expense.amount)
            byRate[key] = use
        }
        var byCurrency: [String: [(Key, RateUse)]] = [:]
        var overflowed = Set<String>()
        for (key, use) in byRate {
            guard let original = Int64(exactly: use.original), let converted = Int64(exactly: use.converted) else {
                overflowed.insert(key.currency)
                continue
            }
            byCurrency[key.currency, default: []].append(
                (key, RateUse(rate: use.rate, rateDate: key.rateDate, count: use.count, original: original, converted: converted)))
        }
        return byCurrency.keys.sorted(by: ByteOrder.precedes).compactMap { code -> CurrencyConversions? in
            guard !overflowed.contains(code) else { return nil }
            let rates = byCurrency[code]!.map(\.1).sorted { $0.rateDate < $1.rateDate }
            let original = rates.reduce(Int128(0)) { $0 + Int128($1.original) }
            let converted = rates.reduce(Int128(0)) { $0 + Int128($1.converted) }
            guard let original = Int64(exactly: original), let converted = Int64(exactly: converted) else { return nil }
            return CurrencyConversions(currency: byRate[Key(currency: code, rateDate: rates[0].rateDate)]!.currency,
                                       count: rates.reduce(0) { $0 + $1.count }, original: original,
                                       converted: converted, rates: rates)
        }
    }
}

/// One fx rate as a month's expenses used it: the rate, the date of its fx
/// row, and the expenses it converted (how many, added up as entered and as converted).
public struct RateUse: Hashable, Sendable {
    /// One unit of the expenses' currency in the couple's.
    public var rate: Decimal10
    /// The date of the fx row: the latest on or before each expense's date.
    public var rateDate: LocalDate
    public var count: Int
    /// In the expenses' currency minor units.
    public var original: Int64
    /// In the couple's currency minor units.
    public var converted: Int64

    public init(rate: Decimal10, rateDate: LocalDate, count: Int, original: Int64, converted: Int64) {
        self.rate = rate
        self.rateDate = rateDate
        self.count = count
        self.original = original
        self.converted = converted
    }
}
