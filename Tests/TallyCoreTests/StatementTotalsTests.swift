import Testing
@testable import TallyCore

@Suite struct StatementTotalsTests {
    func statement(_ couple: String, currency: Currency, members: Int, categories: [(String, Int64)],
                   expenses: Int, transfers: Int = 1, method: TransferMethod = .exact) -> CoupleStatement {
        CoupleStatement(
            couple: Couple(id: couple, name: couple, currency: currency), period: month("2026-03"),
            balances: (0..<members).map {
                MemberBalance(memberId: "m\($0)", displayName: "", opening: 0, paid: 0, share: 0,
                              settlementsSent: 0, settlementsReceived: 0, closing: 0)
            },
            transfers: Array(repeating: Transfer(from: "a", to: "b", amount: 1), count: transfers), method: method,
            categories: categories.map { CategoryTotal(tag: $0.0, amount: $0.1, shareByMember: [:]) },
            trend: [], expenseCount: expenses, rejects: [])
    }

    @Test func sumsStatementsPerCurrency() {
        let a = statement("c1", currency: brl, members: 2, categories: [("food", 1000), ("rent", 5000)], expenses: 3)
        let b = statement("c2", currency: brl, members: 3, categories: [("food", -200), ("", 50)], expenses: 2, method: .greedy)
        let c = statement("c3", currency: usd, members: 2, categories: [("food", 700)], expenses: 1, transfers: 0)
        let totals = StatementTotals([a, b, c])
        #expect(totals.couples == 3)
        #expect(totals.members == 7)
        #expect(totals.expenses == 6)
        #expect(totals.transfers == 2)
        #expect(totals.greedyStatements == 1)
        #expect(totals.currencies == [brl, usd])
        #expect(totals.spending(in: brl) == 5850)
        #expect(totals.spending(in: usd) == 700)
        #expect(totals.spending(in: eur) == 0)
        let byTag = totals.spendingByTag(in: brl)
        #expect(byTag.map(\.tag) == ["rent", "food", ""])
        #expect(byTag.map(\.amount) == [5000, 800, 50])
    }

    @Test func mergingPartitionsEqualsTotallingEverything() {
        let statements = [
            statement("c1", currency: brl, members: 2, categories: [("food", 1000)], expenses: 3),
            statement("c2", currency: usd, members: 3, categories: [("food", 10)], expenses: 2),
            statement("c3", currency: brl, members: 4, categories: [("rent", 99), ("food", 1)], expenses: 1),
            statement("c4", currency: jpy, members: 1, categories: [], expenses: 0, transfers: 0),
        ]
        let whole = StatementTotals(statements)
        let left = StatementTotals(statements[0..<2])
        let right = StatementTotals(statements[2...])
        #expect(left.merging(right) == whole)
        #expect(right.merging(left) == whole)
        #expect(StatementTotals().merging(whole) == whole)
        var stepwise = StatementTotals()
        for s in statements.reversed() { stepwise.merge(StatementTotals(s)) }
        #expect(stepwise == whole)
    }
}
