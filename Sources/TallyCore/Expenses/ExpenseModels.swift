/// A couple's shared space in ContaCasal. A space can have any number of members.
public struct Couple: Hashable, Sendable {
    public var id: String
    public var name: String
    public var currency: Currency

    public init(id: String, name: String, currency: Currency) {
        self.id = id
        self.name = name
        self.currency = currency
    }
}

/// A member of a couple's space.
public struct Member: Hashable, Sendable {
    public var id: String
    public var coupleId: String
    public var displayName: String

    public init(id: String, coupleId: String, displayName: String) {
        self.id = id
        self.coupleId = coupleId
        self.displayName = displayName
    }
}

/// How an expense is divided among members.
public enum SplitType: String, Hashable, Sendable, CaseIterable {
    /// Equally among every member of the couple (also an empty splitType).
    case equal
    /// By weights (`m1:2;m2:1`).
    case shares
    /// By percents that sum to 100 (`m1:60;m2:40`).
    case percentage
    /// By amounts that sum to the expense amount (`m1:30.00;m2:70.00`).
    case exact
    /// One member owes all of it (`split` names them).
    case full
}

/// One `memberId:value` pair of a `split` field. `value` is nil for `full`.
public struct SplitEntry: Hashable, Sendable {
    public var memberId: String
    public var value: Decimal10?

    public init(memberId: String, value: Decimal10?) {
        self.memberId = memberId
        self.value = value
    }
}

/// A split type with its entries, as written in an expense or agreement.
public struct SplitRule: Hashable, Sendable {
    public var type: SplitType
    public var entries: [SplitEntry]

    public init(type: SplitType, entries: [SplitEntry]) {
        self.type = type
        self.entries = entries
    }

    public static let equal = SplitRule(type: .equal, entries: [])
}

/// An expense as the statements see it: valid, in the couple's currency.
public struct Expense: Hashable, Sendable {
    public var id: String
    public var coupleId: String
    public var paidBy: String
    /// Signed amount in the couple's currency minor units; negative is a refund.
    public var amount: Int64
    public var date: LocalDate
    public var description: String
    /// The category; empty when the expense has none.
    public var tag: String
    public var agreementId: String?
    public var split: SplitRule
    /// The amount as written and the rate that converted it, when it was in another currency.
    public var conversion: Conversion?

    public init(id: String, coupleId: String, paidBy: String, amount: Int64, date: LocalDate,
                description: String, tag: String, agreementId: String?, split: SplitRule, conversion: Conversion? = nil) {
        self.id = id
        self.coupleId = coupleId
        self.paidBy = paidBy
        self.amount = amount
        self.date = date
        self.description = description
        self.tag = tag
        self.agreementId = agreementId
        self.split = split
        self.conversion = conversion
    }
}

/// Money one member paid another to settle up, in the couple's currency.
public struct Settlement: Hashable, Sendable {
    public var id: String
    public var coupleId: String
    public var fromMember: String
    public var toMember: String
    public var amount: Int64
    public var date: LocalDate
    /// The amount as written and the rate that converted it, when it was in another currency.
    public var conversion: Conversion?

    public init(id: String, coupleId: String, fromMember: String, toMember: String, amount: Int64, date: LocalDate,
                conversion: Conversion? = nil) {
        self.id = id
        self.coupleId = coupleId
        self.fromMember = fromMember
        self.toMember = toMember
        self.amount = amount
        self.date = date
        self.conversion = conversion
    }
}

/// A recurring expense: each month from startDate's to endDate's (nil: ongoing)
/// it falls on `dayOfMonth` unless a real expense with its id covers the month.
public struct Agreement: Hashable, Sendable {
    public var id: String
    public var coupleId: String
    public var description: String
    /// Amount in `currency` minor units (converted to the couple's currency per month).
    public var amount: Int64
    public var currency: Currency
    public var paidBy: String
    public var split: SplitRule
    public var tag: String
    public var dayOfMonth: Int
    public var startDate: LocalDate
    public var endDate: LocalDate?
    /// Where the agreement was read, for rejects of its months.
    public var sourceFile: String
    public var sourceLine: Int

    public init(id: String, coupleId: String, description: String, amount: Int64, currency: Currency,
                paidBy: String, split: SplitRule, tag: String, dayOfMonth: Int, startDate: LocalDate,
                endDate: LocalDate?, sourceFile: String = "", sourceLine: Int = 0) {
        self.id = id
        self.coupleId = coupleId
        self.description = description
        self.amount = amount
        self.currency = currency
        self.paidBy = paidBy
        self.split = split
        self.tag = tag
        self.dayOfMonth = dayOfMonth
        self.startDate = startDate
        self.endDate = endDate
        self.sourceFile = sourceFile
        self.sourceLine = sourceLine
    }
}

/// An fx rate: 1 unit of `currency` = `rate` units of `base`, from `date` on.
public struct FxRate: Hashable, Sendable {
    public var date: LocalDate
    public var currency: Currency
    public var base: Currency
    public var rate: Decimal10

    public init(date: LocalDate, currency: Currency, base: Currency, rate: Decimal10) {
        self.date = date
        self.currency = currency
        self.base = base
        self.rate = rate
    }
}
