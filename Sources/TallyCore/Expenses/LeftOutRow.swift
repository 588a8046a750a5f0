/// The codes a couple's own rows get against their couple (``LedgerResolver``,
/// ``StatementBuilder``), worded in the report locale on the statement.
extension RejectCode {
    /// The code of an amount `fx` could not convert from `from` to `to` on
    /// `date`: no rate on or before it, or a result that does not fit.
    public static func failedConversion(_ fx: FxTable, from: Currency, to: Currency, on date: LocalDate) -> RejectCode {
        fx.rate(from: from, to: to, on: date) == nil ? .noFxRate : .amountOutOfRange
    }

    /// The code of a split that cannot be applied.
    ///
    /// ```swift
    /// RejectCode(SplitError.unknownMember("m9"))   // .splitMemberNotMember, "split_member_not_member"
    /// ```
    public init(_ error: SplitError) {
        switch error {
        case .unknownMember: self = .splitMemberNotMember
        case .percentagesDoNotSumTo100: self = .splitPercentagesNot100
        case .exactDoesNotSumToAmount: self = .splitExactNotAmount
        default: self = .splitInvalid
        }
    }
}

/// A row of a couple's month the statement does not count, as the couple
/// entered it, and why: what the statement lists under "what did not count",
/// so a couple sees that a row they entered was dropped and for what.
///
/// An expense of R$ 112,36 on 2026-10-31 whose payer left the couple:
/// `LeftOutRow(kind: .expense, id: "e9", date: 2026-10-31, description: "Feira", amount: 11236,
/// currency: BRL, reason: .payerNotMember)`.
public struct LeftOutRow: Hashable, Sendable {
    /// What kind of row it is.
    public enum Kind: String, Hashable, Sendable {
        case expense, settlement
        /// An agreement's month (the agreement's own row, or its month that could not be converted).
        case agreementMonth
    }

    public var kind: Kind
    /// The row's id (an agreement month's `agreement:<id>:<YYYY-MM>`).
    public var id: String
    public var date: LocalDate
    /// The description as entered; empty for settlements.
    public var description: String
    /// The amount as entered, in `currency` minor units.
    public var amount: Int64
    public var currency: Currency
    public var reason: RejectCode

    public init(kind: Kind, id: String, date: LocalDate, description: String, amount: Int64, currency: Currency,
                reason: RejectCode) {
        self.kind = kind
        self.id = id
        self.date = date
        self.description = description
        self.amount = amount
        self.currency = currency
        self.reason = reason
    }

    /// The order a statement lists them in: ``DateThenId`` (rows of two
    /// kinds sharing a day and an id stay in the order given).
    public static func precedes(_ a: LeftOutRow, _ b: LeftOutRow) -> Bool {
        DateThenId.precedes(a.listingOrder, b.listingOrder)
    }

    /// The row's key in ``DateThenId``.
    public var listingOrder: DateThenId<LocalDate> { DateThenId(date, id: id) }
}
