/// An amount written in another currency than its couple's, and the fx rate
/// that converted it (see ``FxTable/convert(_:from:to:on:)``).
///
/// A 100.00 USD dinner in a BRL couple converted at 5.4321 (the rate of
/// 2026-10-01) keeps `Conversion(amount: 10000, currency: USD, rate: 5.4321, rateDate: 2026-10-01)`
/// beside its converted amount, 543.21 BRL.
public struct Conversion: Hashable, Sendable {
    /// The amount as written, in `currency` minor units.
    public var amount: Int64
    public var currency: Currency
    /// 1 unit of `currency` = `rate` units of the couple's currency.
    public var rate: Decimal10
    /// The day of the rate used (the latest on or before the expense's date).
    public var rateDate: LocalDate

    public init(amount: Int64, currency: Currency, rate: Decimal10, rateDate: LocalDate) {
        self.amount = amount
        self.currency = currency
        self.rate = rate
        self.rateDate = rateDate
    }
}

extension FxTable {
    /// ``convert(_:from:to:on:)`` with the ``Conversion`` to show beside the
    /// result (nil for the same currency); nil when there is no rate or the
    /// result does not fit.
    public func converted(_ amount: Int64, from: Currency, to: Currency, on date: LocalDate)
        -> (amount: Int64, conversion: Conversion?)?
    {
        guard let result = convert(amount, from: from, to: to, on: date) else { return nil }
        guard from.code != to.code, let rate = rate(from: from, to: to, on: date) else { return (result, nil) }
        return (result, Conversion(amount: amount, currency: from, rate: rate.rate, rateDate: rate.date))
    }
}

/// One expense of the month as a statement counted it: the expense (in the
/// couple's currency, with its ``Conversion`` when it was foreign) and each
/// member's share, from the same split the balances use.
public struct ItemisedExpense: Hashable, Sendable {
    public var expense: Expense
    /// Each member's share, in the order of ``CoupleStatement/balances``; they sum to the amount.
    public var shares: [Int64]
    /// Whether the line is an agreement's month with no real expense for it
    /// (id `agreement:<id>:<YYYY-MM>`), added by ``StatementBuilder``.
    public var fromAgreement: Bool

    public init(expense: Expense, shares: [Int64], fromAgreement: Bool) {
        self.expense = expense
        self.shares = shares
        self.fromAgreement = fromAgreement
    }

    /// A refund: a negative amount, whose shares are negative too.
    public var isRefund: Bool { expense.amount < 0 }
}

/// Everything a couple's month is made of, line by line: the expenses
/// (real ones and agreements' months) and the settlements dated in the
/// month, each by date then id (byte order). Summing the expenses' shares per
/// member gives ``MemberBalance/share``; summing their amounts per payer gives
/// ``MemberBalance/paid``; the settlements give the sent and received columns.
///
/// Built by ``StatementBuilder/build(_:period:fx:trendMonths:exactTransferLimit:itemised:)``
/// with `itemised: true`, from the very loop that builds the balances.
public struct ItemisedMonth: Sendable {
    public var expenses: [ItemisedExpense]
    public var settlements: [Settlement]

    public init(expenses: [ItemisedExpense], settlements: [Settlement]) {
        self.expenses = expenses
        self.settlements = settlements
    }
}
