import Testing
@testable import TallyCore

@Suite("Per-couple checks of loaded rows")
struct LedgerResolverTests {
    let couple = Couple(id: "c1", name: "Ana & Bia", currency: Currency(code: "BRL")!)
    let members = [Member(id: "m2", coupleId: "c1", displayName: "Bia"), Member(id: "m1", coupleId: "c1", displayName: "Ana")]

    func fact(_ id: String, paidBy: String = "m1", amount: Int64 = 1000, currency: String = "BRL",
              date: String = "2026-10-05", split: SplitRule = .equal, line: Int = 2) -> ExpenseFact {
        ExpenseFact(id: id, coupleId: "c1", paidBy: paidBy, amount: amount, currency: Currency(code: currency)!,
                    date: LocalDate.parse(date)!, description: "", tag: "food", agreementId: nil, split: split,
                    source: SourceRef(file: "expenses/expenses.csv", line: line))
    }

    @Test func validRowsPassAndForeignAmountsConvert() {
        let fx = FxTable([FxRate(date: LocalDate.parse("2026-10-01")!, currency: Currency(code: "USD")!,
                                 base: Currency(code: "BRL")!, rate: Decimal10(mantissa: 5_4321, scale: 4))])
        let r = LedgerResolver.resolve(couple: couple, members: members,
                                       expenses: [fact("e1"), fact("e2", amount: 1001, currency: "USD")],
                                       settlements: [], agreements: [], fx: fx)
        #expect(r.rejects.isEmpty)
        #expect(r.ledger.members.map(\.id) == ["m1", "m2"])
        // 10.01 USD × 5.4321 = 54.375321 → 54.38 BRL
        #expect(r.ledger.expenses.map(\.amount) == [1000, 5438])
    }

    @Test func eachProblemIsARejectWithFileLineAndReason() {
        let settlement = SettlementFact(id: "s1", coupleId: "c1", fromMember: "m1", toMember: "m1", amount: 500,
                                        currency: Currency(code: "BRL")!, date: LocalDate.parse("2026-10-05")!,
                                        source: SourceRef(file: "expenses/settlements.csv", line: 7))
        let r = LedgerResolver.resolve(
            couple: couple, members: members,
            expenses: [fact("e1", paidBy: "m9", line: 3),
                       fact("e2", split: rule(.percentage, "m1:60;m2:30"), line: 4),
                       fact("e3", currency: "USD", line: 5)],
            settlements: [settlement], agreements: [], fx: FxTable())
        #expect(r.ledger.expenses.isEmpty)
        #expect(r.ledger.settlements.isEmpty)
        let byLine = Dictionary(uniqueKeysWithValues: r.rejects.map { ($0.line, $0.reason) })
        #expect(byLine[3] == "paidBy 'm9' is not a member of couple c1")
        #expect(byLine[4] == "split percentages sum to 90, not 100")
        #expect(byLine[5] == "no fx rate from USD to BRL on or before 2026-10-05")
        #expect(byLine[7] == "fromMember and toMember are both 'm1'")
        #expect(r.rejects.allSatisfy { $0.dataset == "expenses" })
        // Beside each reject, the row as entered with a stable code, for the couple's own statement.
        #expect(r.leftOut.map(\.reason) == [.payerNotMember, .splitPercentagesNot100, .noFxRate, .settlementToSelf])
        #expect(r.leftOut.map(\.id) == ["e1", "e2", "e3", "s1"])
        #expect(r.leftOut.map(\.kind) == [.expense, .expense, .expense, .settlement])
        #expect(r.leftOut[2].amount == 1000 && r.leftOut[2].currency.code == "USD")
    }

    @Test("who may pay is one rule: the resolver and the statement builder reject a stranger in the same words and code")
    func thePayerIsAMemberIsOneRule() {
        let membership = CoupleMembership(couple: "c1", memberIds: ["m1", "m2"])
        #expect(membership.payer("m1") == nil)
        #expect(membership.payer("m9") == RejectReason(code: .payerNotMember, text: "paidBy 'm9' is not a member of couple c1"))
        #expect(membership.settlementParties(from: "m1", to: "m2") == nil)
        #expect(membership.settlementParties(from: "m9", to: "m8")
                == RejectReason(code: .settlementPartyNotMember, text: "fromMember 'm9' is not a member of couple c1"))
        #expect(membership.settlementParties(from: "m1", to: "m8")
                == RejectReason(code: .settlementPartyNotMember, text: "toMember 'm8' is not a member of couple c1"))

        // The same strangers, read as rows (the resolver) and handed in a ledger (the builder).
        let brl = Currency(code: "BRL")!
        let day = LocalDate.parse("2026-10-05")!
        let settlement = SettlementFact(id: "s1", coupleId: "c1", fromMember: "m1", toMember: "m8", amount: 500,
                                        currency: brl, date: day, source: SourceRef(file: "expenses/settlements.csv", line: 7))
        let agreement = Agreement(id: "a1", coupleId: "c1", description: "Aluguel", amount: 150_000, currency: brl,
                                  paidBy: "m9", split: .equal, tag: "casa", dayOfMonth: 5, startDate: day, endDate: nil)
        let resolved = LedgerResolver.resolve(couple: couple, members: members, expenses: [fact("e1", paidBy: "m9", line: 3)],
                                              settlements: [settlement], agreements: [agreement], fx: FxTable())
        let ledger = CoupleLedger(
            couple: couple, members: members,
            expenses: [Expense(id: "e1", coupleId: "c1", paidBy: "m9", amount: 1000, date: day, description: "", tag: "food",
                               agreementId: nil, split: .equal)],
            settlements: [Settlement(id: "s1", coupleId: "c1", fromMember: "m1", toMember: "m8", amount: 500, date: day)],
            agreements: [agreement])
        let built = StatementBuilder.build(ledger, period: YearMonth(year: 2026, month: 10)!, fx: FxTable())
        let expected: [RejectReason] = [
            .notMember("paidBy", "m9", couple: "c1", code: .payerNotMember),
            .notMember("toMember", "m8", couple: "c1", code: .settlementPartyNotMember),
            .notMember("paidBy", "m9", couple: "c1", code: .payerNotMember),
        ]
        #expect(resolved.rejects.map(\.reason) == expected.map(\.text))
        #expect(Set(built.rejects.map(\.reason)) == Set(expected.map(\.text)))
        #expect(resolved.leftOut.map(\.reason) == expected.map(\.code))
    }

    @Test func splitErrorsHaveTheirOwnCodes() {
        #expect(RejectCode(SplitError.unknownMember("m9")) == .splitMemberNotMember)
        #expect(RejectCode(SplitError.percentagesDoNotSumTo100(sum: "90")) == .splitPercentagesNot100)
        #expect(RejectCode(SplitError.exactDoesNotSumToAmount(sum: "1", amount: "2", currency: "BRL")) == .splitExactNotAmount)
        #expect(RejectCode(SplitError.sharesSumToZero) == .splitInvalid)
        #expect(RejectCode.splitMemberNotMember.rawValue == "split_member_not_member")
    }

    @Test func theStatementListsTheMonthsRowsThatDidNotCount() {
        // Rejected rows of October and of September; only October's are the October statement's.
        let family = StatementsFamily(settings: .init(period: YearMonth(year: 2026, month: 10)!, fx: FxTable()))
        let agreement = Agreement(id: "a1", coupleId: "c1", description: "Aluguel", amount: 150_000, currency: Currency(code: "BRL")!,
                                  paidBy: "m9", split: .equal, tag: "casa", dayOfMonth: 31,
                                  startDate: LocalDate.parse("2026-09-01")!, endDate: nil)
        let partition = CouplePartition(couple: couple, members: members,
                                        expenses: [fact("e2", paidBy: "m9", date: "2026-10-20"), fact("e1", date: "2026-10-05"),
                                                   fact("e0", paidBy: "m9", date: "2026-09-30"),
                                                   fact("e3", currency: "USD", date: "2026-10-02")],
                                        settlements: [], agreements: [agreement])
        let statement = family.compute(partition).rows.statement
        #expect(statement.leftOut.map(\.id) == ["e3", "e2", "agreement:a1:2026-10"])
        #expect(statement.leftOut.map(\.reason) == [.noFxRate, .payerNotMember, .payerNotMember])
        #expect(statement.leftOut.last?.date == LocalDate.parse("2026-10-31"))
        #expect(statement.expenseCount == 1)
    }
}
