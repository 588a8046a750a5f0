/// What the statement of the month before said a couple's balances were,
/// when a run published it from the same warehouse: the closing balance per
/// member, and the input files loaded since (as reports name them). The
/// warehouse looks it up; a dataflow has none.
///
/// ```swift
/// let published = PublishedClosing(month: YearMonth("2026-09")!, closing: ["m1": 1500, "m2": -1500],
///                                  filesSince: ["2026-10/expenses/expenses.csv"])
/// ```
public struct PublishedClosing: Sendable, Equatable {
    /// The month of the published statement.
    public var month: YearMonth
    /// Each member's closing balance as published, in minor units (member id → closing).
    public var closing: [String: Int64]
    /// The input files loaded after the statement was published.
    public var filesSince: Set<String>
    /// The couple's agreements delivered since with content no earlier
    /// delivery had (new or changed; the agreements table is delivered whole
    /// every month, so an agreement delivered again as it was is not one).
    public var changedAgreements: Set<String>

    public init(month: YearMonth, closing: [String: Int64], filesSince: Set<String>, changedAgreements: Set<String> = []) {
        self.month = month
        self.closing = closing
        self.filesSince = filesSince
        self.changedAgreements = changedAgreements
    }
}

/// A couple's opening balance that no longer equals the closing balance it
/// was sent the month before: rows dated before the period arrived, changed
/// or went away after that statement was published. The statement says so:
/// each member's balance as sent and as it is now, and the couple's
/// expenses and settlements dated before the period that were delivered
/// since (``Row``), and its agreements new or changed since (their table is
/// delivered whole every month: one delivered again as it was is not listed).
///
/// ```swift
/// let restated = RestatedOpening.of(statement, published: published, rows: coupleRows)
/// restated?.balances.map(\.difference)   // [+2500, -2500]
/// ```
public struct RestatedOpening: Sendable, Equatable {
    /// A member's balance at the end of ``month``: as sent, and now.
    public struct Balance: Sendable, Equatable {
        public var memberId: String
        public var displayName: String
        public var published: Int64
        public var now: Int64
        public var difference: Int64 { now - published }
    }

    /// A row of the couple dated before the period (or a deletion, undated)
    /// from a file delivered after the statement was sent.
    public struct Row: Sendable, Equatable {
        public enum Kind: String, Sendable {
            /// An expense that counts now: new, or a new version of one.
            case expense
            /// A version that deletes an expense.
            case deletion
            case settlement
            /// An agreement new or changed since (its months before the period count in the opening).
            case agreement
        }
        public var kind: Kind
        public var id: String
        public var date: LocalDate?
        public var description: String
        /// The amount as delivered, in `currency`; nil for a deletion.
        public var amount: Int64?
        public var currency: Currency?
        public var source: SourceRef
    }

    /// The month whose closing was sent (the period's month before).
    public var month: YearMonth
    public var balances: [Balance]
    /// By date (undated deletions last), then id.
    public var rows: [Row]

    /// The restatement of `statement`'s opening balances against `published`,
    /// nil when every member opens with the closing balance they were sent
    /// (a member the published statement did not have was sent 0).
    public static func of(_ statement: CoupleStatement, published: PublishedClosing, rows: CoupleRows) -> RestatedOpening? {
        let balances = statement.balances.map {
            Balance(memberId: $0.memberId, displayName: $0.displayName, published: published.closing[$0.memberId] ?? 0, now: $0.opening)
        }
        let members = Set(statement.balances.map(\.memberId))
        let gone = published.closing.filter { !members.contains($0.key) && $0.value != 0 }
        guard balances.contains(where: { $0.difference != 0 }) || !gone.isEmpty else { return nil }
        let first = statement.period.firstDay
        let since = published.filesSince
        var listed: [Row] = []
        for expense in rows.expenses where since.contains(expense.source.file) {
            if expense.deleted {
                listed.append(Row(kind: .deletion, id: expense.id, date: nil, description: "", amount: nil, currency: nil,
                                  source: expense.source))
            } else if let fact = expense.fact, expense.error == nil, fact.date < first {
                listed.append(Row(kind: .expense, id: fact.id, date: fact.date, description: fact.description,
                                  amount: fact.amount, currency: fact.currency, source: expense.source))
            }
        }
        for settlement in rows.settlements where since.contains(settlement.source.file) && settlement.date < first {
            listed.append(Row(kind: .settlement, id: settlement.id, date: settlement.date, description: "",
                              amount: settlement.amount, currency: settlement.currency, source: settlement.source))
        }
        for agreement in rows.agreements where published.changedAgreements.contains(agreement.id) && agreement.startDate < first {
            listed.append(Row(kind: .agreement, id: agreement.id, date: agreement.startDate, description: agreement.description,
                              amount: agreement.amount, currency: agreement.currency,
                              source: SourceRef(file: agreement.sourceFile, line: agreement.sourceLine)))
        }
        listed.sort { a, b in
            switch (a.date, b.date) {
            case let (x?, y?) where x != y: return x < y
            case (nil, _?): return false
            case (_?, nil): return true
            default: return ByteOrder.precedes(a.id, b.id)
            }
        }
        let goneBalances = gone.keys.sorted(by: ByteOrder.precedes).map {
            Balance(memberId: $0, displayName: $0, published: gone[$0]!, now: 0)
        }
        return RestatedOpening(month: published.month, balances: balances + goneBalances, rows: listed)
    }
}
