/// The fx rates of a run, ready for conversions.
///
/// A rate row says 1 unit of `currency` = `rate` units of `base` from its
/// `date` on. Conversions use only rows from the amount's currency to the
/// target currency (`currency == from && base == to`): no inverse and no cross
/// rates (contract, section 3). The rows of each pair are kept sorted by date,
/// so a lookup is a binary search.
public struct FxTable: Sendable {
    private struct Pair: Hashable, Sendable {
        var from: String
        var to: String
    }

    /// The rates of one pair, sorted by day; one rate per day.
    private struct Series: Sendable {
        var days: [Int64] = []
        var rates: [FxRate] = []

        /// The index of the latest rate dated on or before `day`, or nil.
        func index(onOrBefore day: Int64) -> Int? {
            var low = 0
            var high = days.count
            while low < high {
                let mid = (low + high) / 2
                if days[mid] <= day { low = mid + 1 } else { high = mid }
            }
            return low == 0 ? nil : low - 1
        }
    }

    private var series: [Pair: Series]

    /// The number of distinct (date, currency, base) rates held.
    public let count: Int

    /// A table of `rates`. When several rows have the same date, currency and
    /// base, the last one in `rates` wins (rates are expected to be positive;
    /// the reader that produced them validates that).
    public init(_ rates: some Sequence<FxRate>) {
        var byPair: [Pair: [Int64: FxRate]] = [:]
        for rate in rates {
            byPair[Pair(from: rate.currency.code, to: rate.base.code), default: [:]][rate.date.daysSinceEpoch] = rate
        }
        var series: [Pair: Series] = [:]
        var count = 0
        for (pair, byDay) in byPair {
            let days = byDay.keys.sorted()
            series[pair] = Series(days: days, rates: days.map { byDay[$0]! })
            count += days.count
        }
        self.series = series
        self.count = count
    }

    /// An empty table: only same-currency conversions succeed.
    public init() { self.init([]) }

    /// The latest rate from `from` to `to` dated on or before `date`, or nil.
    ///
    /// Only rows with `currency == from` and `base == to` count. For
    /// `from == to` this is nil too (no row is needed; see ``convert(_:from:to:on:)``).
    public func rate(from: Currency, to: Currency, on date: LocalDate) -> FxRate? {
        guard let pairSeries = series[Pair(from: from.code, to: to.code)],
              let index = pairSeries.index(onOrBefore: date.daysSinceEpoch) else { return nil }
        return pairSeries.rates[index]
    }

    /// `amount` minor units of `from` in minor units of `to`, on `date`.
    ///
    /// The same currency returns `amount` unchanged. Otherwise the latest rate
    /// on or before `date` is applied exactly and the result is rounded half
    /// away from zero to `to`'s minor units (minor units may differ: 3500 JPY
    /// at 0.0365 BRL is 127.75 BRL, 12775 minor units). Nil when there is no
    /// such rate or the result does not fit in 64 bits.
    public func convert(_ amount: Int64, from: Currency, to: Currency, on date: LocalDate) -> Int64? {
        if from.code == to.code { return amount }
        guard let rate = rate(from: from, to: to, on: date) else { return nil }
        return FxTable.apply(rate.rate, to: amount, fromMinorUnits: from.minorUnits, toMinorUnits: to.minorUnits)
    }

    /// `amount × rate`, moved from `fromMinorUnits` to `toMinorUnits` digits,
    /// rounded half away from zero; nil on overflow.
    static func apply(_ rate: Decimal10, to amount: Int64, fromMinorUnits: Int, toMinorUnits: Int) -> Int64? {
        // amount·10^-fromMU × mantissa·10^-scale = result·10^-toMU
        // ⇒ result = amount × mantissa × 10^(toMU − fromMU − scale).
        let (product, overflow) = Int128(amount).multipliedReportingOverflow(by: Int128(rate.mantissa))
        if overflow { return nil }
        let exponent = toMinorUnits - fromMinorUnits - rate.scale
        let result: Int128
        if exponent >= 0 {
            guard let factor = Rounding.pow10(exponent) else { return product == 0 ? 0 : nil }
            let (scaled, o) = product.multipliedReportingOverflow(by: factor)
            if o { return nil }
            result = scaled
        } else if let divisor = Rounding.pow10(-exponent) {
            result = Rounding.divideHalfAwayFromZero(product, by: divisor)
        } else {
            // A divisor above 10^38 exceeds twice any Int128: the quotient rounds to 0.
            result = 0
        }
        guard result >= Int128(Int64.min), result <= Int128(Int64.max) else { return nil }
        return Int64(result)
    }
}
