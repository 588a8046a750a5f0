import Testing
@testable import TallyCore

/// Hostile amounts that each read fine but together would overflow a
/// statement's Int64 sums, and agreements that would expand without bound:
/// left out with a reason, never a crash.
@Suite("Couple limits: totals that cannot overflow")
struct CoupleLimitsTests {
    static let max = Money.maxMinorMagnitude   // 10^15 minor units

    static func fact(_ id: String, _ amount: Int64, currency: Currency, line: Int) -> ExpenseFact {
        ExpenseFact(id: id, coupleId: "c1", paidBy: "m1", amount: amount, currency: currency, date: day("2026-10-05"),
                    description: "", tag: "x", agreementId: nil, split: .equal,
                    source: SourceRef(file: "expenses/expenses.csv", line: line))
    }

    @Test func convertedAmountsPastTheCoupleTotalAreRejectedAndTheRestBalances() {
        // 10^15 USD cents at 1000 BRL per USD: 10^18 BRL cents each. Ten of
        // them overflowed the Int64 sums (a trap); past the second they are left out.
        let fx = FxTable([FxRate(date: day("2026-01-01"), currency: usd, base: brl, rate: dec("1000"))])
        let facts = (1...10).map { Self.fact("e\($0)", Self.max, currency: usd, line: $0 + 1) }
        let resolution = LedgerResolver.resolve(
            couple: Couple(id: "c1", name: "C", currency: brl),
            members: [Member(id: "m1", coupleId: "c1", displayName: "A"), Member(id: "m2", coupleId: "c1", displayName: "B")],
            expenses: facts, settlements: [], agreements: [], fx: fx)
        #expect(resolution.ledger.expenses.map(\.id) == ["e1", "e2"])
        #expect(resolution.rejects.map(\.line) == Array(4...11))
        #expect(resolution.rejects.first?.reason == "amount 10000000000000000.00 BRL would take the totals of couple c1 past 2·10^18 minor units, more than tally adds up exactly")
        let statement = StatementBuilder.build(resolution.ledger, period: month("2026-10"), fx: fx)
        #expect(statement.balances.map(\.closing) == [1_000_000_000_000_000_000, -1_000_000_000_000_000_000])
    }

    @Test func anAgreementRunningMoreThanACenturyIsLeftOut() {
        let l = ledger(agreements: [agreement("old", paidBy: "m1", 100, day: 1, from: "0001-01-01"),
                                    agreement("rent", paidBy: "m1", 100, day: 1, from: "2026-01-01")])
        let statement = StatementBuilder.build(l, period: month("2026-10"), fx: FxTable())
        #expect(statement.rejects.map(\.reason) == ["agreement runs 24310 months up to 2026-10, more than the 1200 tally follows; it is left out of the statement"])
        #expect(statement.balances.map(\.opening) == [450, -450])   // rent's nine earlier months only
    }

    @Test func agreementMonthsPastTheCoupleTotalAreLeftOutFromThatMonth() {
        // 1200 months of 10^15 = 1.2·10^18; a second such agreement passes 2·10^18.
        let l = ledger(agreements: [agreement("a", paidBy: "m1", Self.max, day: 1, from: "1926-11-01"),
                                    agreement("b", paidBy: "m2", Self.max, day: 1, from: "1926-11-01")])
        let statement = StatementBuilder.build(l, period: month("2026-10"), fx: FxTable())
        #expect(statement.rejects.count == 1)
        #expect(statement.rejects.first?.id == "agreement:b:1993-07")
        #expect(statement.rejects.first?.reason.hasSuffix("its months from 1993-07 on are left out of the statement") == true)
        #expect(statement.balances.map(\.closing).reduce(0, +) == 0)
    }
}
