import Testing
@testable import TallyCore

/// The itemised month (`itemised: true`) comes from the same loop as the
/// balances: its lines add up to them, and carry the fx rate, refund and
/// agreement marks a couple needs to check the statement.
@Suite struct ItemisedMonthTests {
    let fx = FxTable([FxRate(date: day("2026-03-01"), currency: usd, base: brl, rate: dec("5.4321"))])

    /// Three members: a foreign dinner, a refund, an agreement's own month, an
    /// agreement paid by a real expense, a settlement, and rows outside the month.
    func resolved() -> CoupleLedger {
        let couple = Couple(id: "c1", name: "República Aurora", currency: brl)
        let members = ["m1", "m2", "m3"].map { Member(id: $0, coupleId: "c1", displayName: "Name \($0)") }
        let source = SourceRef(file: "expenses/expenses.csv", line: 2)
        func fact(_ id: String, _ payer: String, _ amount: Int64, _ currency: Currency, _ date: String,
                  split: SplitRule = .equal, agreementId: String? = nil) -> ExpenseFact {
            ExpenseFact(id: id, coupleId: "c1", paidBy: payer, amount: amount, currency: currency, date: day(date),
                        description: "expense \(id)", tag: "casa", agreementId: agreementId, split: split, source: source)
        }
        let expenses = [
            fact("e-dinner", "m2", 10_000, usd, "2026-03-05"),
            fact("e-refund", "m1", -3000, brl, "2026-03-09", split: rule(.full, "m3")),
            fact("e-rent", "m3", 120_000, brl, "2026-03-10", agreementId: "a-rent"),
            fact("e-old", "m1", 999, brl, "2026-02-27"),
            fact("e-later", "m1", 999, brl, "2026-04-01"),
        ]
        let settlements = [
            SettlementFact(id: "s1", coupleId: "c1", fromMember: "m1", toMember: "m2", amount: 1000, currency: usd,
                           date: day("2026-03-20"), source: source),
            SettlementFact(id: "s0", coupleId: "c1", fromMember: "m1", toMember: "m2", amount: 500, currency: brl,
                           date: day("2026-02-20"), source: source),
        ]
        let agreements = [agreement("a-rent", paidBy: "m3", 120_000, day: 10, from: "2026-01-01"),
                          agreement("a-gym", paidBy: "m1", 9_000, day: 31, from: "2026-03-01", split: rule(.full, "m1"))]
        let resolution = LedgerResolver.resolve(couple: couple, members: members, expenses: expenses,
                                                settlements: settlements, agreements: agreements, fx: fx)
        #expect(resolution.rejects.isEmpty)
        return resolution.ledger
    }

    @Test func linesAddUpToTheBalances() throws {
        let statement = StatementBuilder.build(resolved(), period: month("2026-03"), fx: fx, itemised: true)
        let month = try #require(statement.itemised)
        #expect(month.expenses.map(\.expense.id) == ["e-dinner", "e-refund", "e-rent", "agreement:a-gym:2026-03"])
        #expect(month.expenses.count == statement.expenseCount)
        for (i, line) in statement.balances.enumerated() {
            #expect(month.expenses.reduce(0) { $0 + $1.shares[i] } == line.share, "share of \(line.memberId)")
            #expect(month.expenses.filter { $0.expense.paidBy == line.memberId }.reduce(0) { $0 + $1.expense.amount } == line.paid)
            #expect(month.settlements.filter { $0.fromMember == line.memberId }.reduce(0) { $0 + $1.amount } == line.settlementsSent)
            #expect(month.settlements.filter { $0.toMember == line.memberId }.reduce(0) { $0 + $1.amount } == line.settlementsReceived)
        }
        for line in month.expenses { #expect(line.shares.reduce(0, +) == line.expense.amount) }
    }

    @Test func linesCarryTheRateTheRefundAndTheAgreements() throws {
        let statement = StatementBuilder.build(resolved(), period: month("2026-03"), fx: fx, itemised: true)
        let lines = try #require(statement.itemised).expenses
        // 100.00 USD at 5.4321 is 543.21 BRL, split three ways with the leftover cent rotating.
        #expect(lines[0].expense.amount == 54_321)
        #expect(lines[0].expense.conversion == Conversion(amount: 10_000, currency: usd, rate: dec("5.4321"), rateDate: day("2026-03-01")))
        #expect(lines[0].shares.reduce(0, +) == 54_321)
        #expect(!lines[0].isRefund && !lines[0].fromAgreement)
        #expect(lines[1].isRefund)
        #expect(lines[1].shares == [0, 0, -3000])
        #expect(lines[1].expense.conversion == nil)
        #expect(lines[2].expense.agreementId == "a-rent" && !lines[2].fromAgreement)   // the real expense covers March
        #expect(lines[3].fromAgreement && lines[3].expense.date == day("2026-03-31"))
        #expect(lines[3].shares == [9000, 0, 0])
        let settlements = try #require(statement.itemised).settlements
        #expect(settlements.map(\.id) == ["s1"])
        #expect(settlements[0].amount == 5432)
        #expect(settlements[0].conversion?.amount == 1000)
    }

    @Test func notAskedForNotBuilt() {
        let statement = StatementBuilder.build(resolved(), period: month("2026-03"), fx: fx)
        #expect(statement.itemised == nil)
        let itemised = StatementBuilder.build(resolved(), period: month("2026-03"), fx: fx, itemised: true)
        #expect(itemised.balances == statement.balances)
        #expect(itemised.transfers == statement.transfers)
    }
}
