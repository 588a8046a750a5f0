import TallyCore

/// A row of `expenses/couples`.
public struct CoupleRecord: Sendable, Equatable {
    public var id: String
    public var name: String
    public var currency: Currency
    public var createdAt: Timestamp?
}

/// A row of `expenses/members`.
public struct MemberRecord: Sendable, Equatable {
    public var id: String
    public var coupleId: String
    /// The display name; the member id when the export has none.
    public var displayName: String
    public var role: String?
    public var joinedAt: Timestamp?
}

/// A row of `expenses/cards`.
public struct CardRecord: Sendable, Equatable {
    public var id: String
    public var coupleId: String
    public var ownerId: String?
    public var label: String?
    public var kind: String?
}

/// A row of `expenses/fx`: 1 unit of `currency` = `rate` units of `base` from `date` on.
public struct FxRecord: Sendable, Equatable {
    public var rate: FxRate
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
    public var error: String?

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
}
