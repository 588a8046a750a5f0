/// Totals over many couples' statements for one period: how many couples,
/// members, expenses and transfers, and spending by tag per currency.
///
/// Totals are a commutative monoid: ``init()`` is the empty total and
/// ``merge(_:)`` is associative and commutative, so a distributed engine can
/// total each partition of couples on its own and merge the partial results
/// in any order. Money is never summed across currencies.
public struct StatementTotals: Hashable, Sendable {
    /// Statements (couples) counted.
    public var couples: Int
    /// Member lines counted (all-zero lines included).
    public var members: Int
    /// Expenses counted in the month (real and from agreements).
    public var expenses: Int
    /// Suggested transfers.
    public var transfers: Int
    /// Statements whose transfers came from the greedy fallback rather than the exact search.
    public var greedyStatements: Int
    /// Agreement months (and other ledger rows) the statements rejected.
    public var rejects: Int
    /// Spending in the month, net of refunds: currency → tag ("" untagged) → amount in minor units.
    public var spendingByTag: [Currency: [String: Int64]]

    /// The empty total.
    public init() {
        couples = 0
        members = 0
        expenses = 0
        transfers = 0
        greedyStatements = 0
        rejects = 0
        spendingByTag = [:]
    }

    /// The totals of one statement.
    public init(_ statement: CoupleStatement) {
        self.init()
        add(statement)
    }

    /// The totals of `statements`.
    public init(_ statements: some Sequence<CoupleStatement>) {
        self.init()
        for statement in statements { add(statement) }
    }

    /// Adds one statement.
    public mutating func add(_ statement: CoupleStatement) {
        couples += 1
        members += statement.balances.count
        expenses += statement.expenseCount
        transfers += statement.transfers.count
        if statement.method == .greedy { greedyStatements += 1 }
        rejects += statement.rejects.count
        // A currency is listed only with spending, so equal totals compare (and encode) equal.
        guard !statement.categories.isEmpty else { return }
        var byTag = spendingByTag[statement.couple.currency] ?? [:]
        for category in statement.categories { byTag[category.tag, default: 0] += category.amount }
        spendingByTag[statement.couple.currency] = byTag
    }

    /// Adds the totals of another partition.
    public mutating func merge(_ other: StatementTotals) {
        couples += other.couples
        members += other.members
        expenses += other.expenses
        transfers += other.transfers
        greedyStatements += other.greedyStatements
        rejects += other.rejects
        for (currency, otherByTag) in other.spendingByTag where !otherByTag.isEmpty {
            var byTag = spendingByTag[currency] ?? [:]
            for (tag, amount) in otherByTag { byTag[tag, default: 0] += amount }
            spendingByTag[currency] = byTag
        }
    }

    /// These totals merged with `other`'s.
    public func merging(_ other: StatementTotals) -> StatementTotals {
        var total = self
        total.merge(other)
        return total
    }

    /// The currencies with spending, by code.
    public var currencies: [Currency] {
        spendingByTag.keys.sorted { ByteOrder.precedes($0.code, $1.code) }
    }

    /// Total spending in `currency` (net of refunds), in its minor units.
    public func spending(in currency: Currency) -> Int64 {
        (spendingByTag[currency] ?? [:]).values.reduce(0, +)
    }

    /// Spending by tag in `currency`, largest first, then by tag (byte order).
    public func spendingByTag(in currency: Currency) -> [(tag: String, amount: Int64)] {
        (spendingByTag[currency] ?? [:]).map { (tag: $0.key, amount: $0.value) }.sorted { a, b in
            a.amount != b.amount ? a.amount > b.amount : ByteOrder.precedes(a.tag, b.tag)
        }
    }
}
