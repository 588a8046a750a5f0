import TallyCore

/// A row of `expenses/couples`.
public struct CoupleRecord: Sendable, Equatable {
    public var id: String
    public var name: String
    public var currency: Currency
    public var createdAt: Timestamp?

    public init(id: String, name: String, currency: Currency, createdAt: Timestamp?) {
        self.id = id
        self.name = name
        self.currency = currency
        self.createdAt = createdAt
    }
}

/// A row of `expenses/members`.
public struct MemberRecord: Sendable, Equatable {
    public var id: String
    public var coupleId: String
    /// The display name; the member id when the export has none.
    public var displayName: String
    public var role: String?
    public var joinedAt: Timestamp?

    public init(id: String, coupleId: String, displayName: String, role: String?, joinedAt: Timestamp?) {
        self.id = id
        self.coupleId = coupleId
        self.displayName = displayName
        self.role = role
        self.joinedAt = joinedAt
    }
}

/// A row of `expenses/cards`.
public struct CardRecord: Sendable, Equatable {
    public var id: String
    public var coupleId: String
    public var ownerId: String?
    public var label: String?
    public var kind: String?

    public init(id: String, coupleId: String, ownerId: String?, label: String?, kind: String?) {
        self.id = id
        self.coupleId = coupleId
        self.ownerId = ownerId
        self.label = label
        self.kind = kind
    }
}

/// A row of `expenses/fx`: 1 unit of `currency` = `rate` units of `base` from `date` on.
public struct FxRecord: Sendable, Equatable {
    public var rate: FxRate

    public init(rate: FxRate) {
        self.rate = rate
    }
}

/// One version of an expense (a row of `expenses/expenses`).
///
/// Versions are stored as read; the one with the latest `updatedAt` wins.
/// Only the winner is validated, so a version carries its own parse error
/// (`error`) instead of being rejected when it is read.
public struct ExpenseVersion: Sendable, Equatable {
    public var id: String
    public var updatedAt: Timestamp
    public var deletedAt: Timestamp?
    /// The parsed expense; nil for a deletion or when `error` is set.
    public var body: Body?
    /// Why this version cannot be used, should it win.
    public var error: RejectReason?
    /// What the version wrote, when `error` is set: for its couple's statement.
    public var written: WrittenRow?

    /// The fields of a live expense.
    public struct Body: Sendable, Equatable {
        public var coupleId: String
        public var paidBy: String
        public var amount: Int64
        public var currency: Currency
        public var date: LocalDate
        public var description: String
        public var tag: String
        public var cardId: String?
        public var agreementId: String?
        public var split: SplitRule
    

    public init(coupleId: String, paidBy: String, amount: Int64, currency: Currency, date: LocalDate, description: String, tag: String, cardId: String?, agreementId: String?, split: SplitRule) {
        self.coupleId = coupleId
        self.paidBy = paidBy
        self.amount = amount
        self.currency = currency
        self.date = date
        self.description = description
        self.tag = tag
        self.cardId = cardId
        self.agreementId = agreementId
        self.split = split
    }
}

    public init(id: String, updatedAt: Timestamp, deletedAt: Timestamp?, body: Body?, error: RejectReason?,
                written: WrittenRow? = nil) {
        self.id = id
        self.updatedAt = updatedAt
        self.deletedAt = deletedAt
        self.body = body
        self.error = error
        self.written = written
    }
}

/// A row of `expenses/settlements`.
public struct SettlementRecord: Sendable, Equatable {
    public var id: String
    public var coupleId: String
    public var fromMember: String
    public var toMember: String
    public var amount: Int64
    public var currency: Currency
    public var date: LocalDate
    public var note: String?

    public init(id: String, coupleId: String, fromMember: String, toMember: String, amount: Int64, currency: Currency, date: LocalDate, note: String?) {
        self.id = id
        self.coupleId = coupleId
        self.fromMember = fromMember
        self.toMember = toMember
        self.amount = amount
        self.currency = currency
        self.date = date
        self.note = note
    }
}
