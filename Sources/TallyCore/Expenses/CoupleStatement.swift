/// Everything one couple's statement for a month rests on: the partition of
/// work for statements. A distributed engine can build each couple's ledger
/// on its own node and run ``StatementBuilder`` there.
public struct CoupleLedger: Sendable {
    public var couple: Couple
    /// Every member, in id byte order.
    public var members: [Member]
    /// Every valid, non-deleted expense up to the end of the period (any order).
    public var expenses: [Expense]
    public var settlements: [Settlement]
    public var agreements: [Agreement]

    public init(couple: Couple, members: [Member], expenses: [Expense], settlements: [Settlement], agreements: [Agreement]) {
        self.couple = couple
        self.members = members
        self.expenses = expenses
        self.settlements = settlements
        self.agreements = agreements
    }
}

/// One member's line on a monthly statement. All amounts in the couple's currency minor units.
public struct MemberBalance: Hashable, Sendable {
    public var memberId: String
    public var displayName: String
    /// Net of everything before the month (positive: this member is owed).
    public var opening: Int64
    /// What the member paid in the month (refunds negative).
    public var paid: Int64
    /// The member's share of the month's expenses (refunds negative).
    public var share: Int64
    public var settlementsSent: Int64
    public var settlementsReceived: Int64
    /// opening + paid − share + sent − received.
    public var closing: Int64

    public init(memberId: String, displayName: String, opening: Int64, paid: Int64, share: Int64,
                settlementsSent: Int64, settlementsReceived: Int64, closing: Int64) {
        self.memberId = memberId
        self.displayName = displayName
        self.opening = opening
        self.paid = paid
        self.share = share
        self.settlementsSent = settlementsSent
        self.settlementsReceived = settlementsReceived
        self.closing = closing
    }
}

/// A suggested payment that settles closing balances: `from` owes `to` `amount` (> 0).
public struct Transfer: Hashable, Sendable {
    public var from: String
    public var to: String
    public var amount: Int64

    public init(from: String, to: String, amount: Int64) {
        self.from = from
        self.to = to
        self.amount = amount
    }
}

/// How the suggested transfers were found.
public enum TransferMethod: String, Hashable, Sendable, CaseIterable {
    /// The true fewest transfers (exact search over zero-sum groups).
    case exact
    /// A group too large for the exact search: greedy largest-debtor-to-largest-creditor matching.
    case greedy
}

/// Spending of one tag in the month, net of refunds, with each member's share of it.
public struct CategoryTotal: Hashable, Sendable {
    /// The tag; empty for untagged expenses.
    public var tag: String
    public var amount: Int64
    /// Each member's share of this tag's spending, by member id.
    public var shareByMember: [String: Int64]

    public init(tag: String, amount: Int64, shareByMember: [String: Int64]) {
        self.tag = tag
        self.amount = amount
        self.shareByMember = shareByMember
    }
}

/// A couple's statement for one month.
public struct CoupleStatement: Sendable {
    public var couple: Couple
    public var period: YearMonth
    /// One line per member, in member id byte order (all-zero lines included).
    public var balances: [MemberBalance]
    /// Transfers that zero the closing balances, fewest possible (see ``method``).
    public var transfers: [Transfer]
    public var method: TransferMethod
    /// Spending by tag, largest first then by tag.
    public var categories: [CategoryTotal]
    /// Total spending (net of refunds) for the 6 months ending with the period, oldest first.
    public var trend: [(month: YearMonth, amount: Int64)]
    /// Expenses counted in the month (real and from agreements).
    public var expenseCount: Int
    /// Agreement months that could not be included (no fx rate), as rejects.
    public var rejects: [Reject]
    /// The month line by line, when the statement was built with `itemised: true`; nil otherwise.
    public var itemised: ItemisedMonth?
    /// The couple's rows of the month that do not count, each with its reason code, by date then id:
    /// what the couple's own statement lists as not counted. ``StatementBuilder`` adds the agreement
    /// months it leaves out, ``StatementsFamily`` the rows ``LedgerResolver`` rejected. Like ``itemised``,
    /// not sent on the wire: the couple's files are written where the statement is computed.
    public var leftOut: [LeftOutRow] = []
    /// The couple's recurring agreements in force in the month, with their next date and what remains
    /// (``AgreementInForce/list(_:in:)``). Like ``leftOut``, not sent on the wire.
    public var agreementsInForce: [AgreementInForce] = []
    /// The month's expenses in other currencies, per currency, with the rates used and their dates
    /// (``CurrencyConversions/of(_:)``). Not sent on the wire.
    public var conversions: [CurrencyConversions] = []
    /// The month's likely mistakes, to check (``StatementAudit``). Not sent on the wire.
    public var auditNotes: [AuditNote] = []
    /// The couple's rows refused before the statement (they could not be read) that the
    /// period lists (``RefusedRow/listed(_:in:)``): dated ones by date then id, then undated ones.
    public var refused: [RefusedRow] = []
    /// The opening balances when they differ from the closing balances the
    /// statement of the month before was published with (``RestatedOpening``).
    /// Not sent on the wire.
    public var restated: RestatedOpening?

    /// How many of the couple's rows the statement lists as not counted (``leftOut`` and ``refused``).
    public var notCounted: Int { leftOut.count + refused.count }

    public init(couple: Couple, period: YearMonth, balances: [MemberBalance], transfers: [Transfer],
                method: TransferMethod, categories: [CategoryTotal], trend: [(month: YearMonth, amount: Int64)],
                expenseCount: Int, rejects: [Reject]) {
        self.couple = couple
        self.period = period
        self.balances = balances
        self.transfers = transfers
        self.method = method
        self.categories = categories
        self.trend = trend
        self.expenseCount = expenseCount
        self.rejects = rejects
    }
}
