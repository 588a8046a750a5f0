/// Where a stored row came from, for rejects a person can trace.
public struct SourceRef: Hashable, Sendable {
    /// The input file, relative to the data folder.
    public var file: String
    /// The physical line where the record starts.
    public var line: Int

    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }
}

/// An expense as loaded: well-formed, but not yet checked against its couple
/// (members, fx rates). ``LedgerResolver`` turns it into an ``Expense``.
public struct ExpenseFact: Hashable, Sendable {
    public var id: String
    public var coupleId: String
    public var paidBy: String
    /// Signed amount in `currency` minor units.
    public var amount: Int64
    public var currency: Currency
    public var date: LocalDate
    public var description: String
    public var tag: String
    public var agreementId: String?
    public var split: SplitRule
    public var source: SourceRef

    public init(id: String, coupleId: String, paidBy: String, amount: Int64, currency: Currency, date: LocalDate,
                description: String, tag: String, agreementId: String?, split: SplitRule, source: SourceRef) {
        self.id = id
        self.coupleId = coupleId
        self.paidBy = paidBy
        self.amount = amount
        self.currency = currency
        self.date = date
        self.description = description
        self.tag = tag
        self.agreementId = agreementId
        self.split = split
        self.source = source
    }
}

/// A settlement as loaded, in its own currency.
public struct SettlementFact: Hashable, Sendable {
    public var id: String
    public var coupleId: String
    public var fromMember: String
    public var toMember: String
    public var amount: Int64
    public var currency: Currency
    public var date: LocalDate
    public var source: SourceRef

    public init(id: String, coupleId: String, fromMember: String, toMember: String, amount: Int64,
                currency: Currency, date: LocalDate, source: SourceRef) {
        self.id = id
        self.coupleId = coupleId
        self.fromMember = fromMember
        self.toMember = toMember
        self.amount = amount
        self.currency = currency
        self.date = date
        self.source = source
    }
}
