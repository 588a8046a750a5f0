import Testing
@testable import TallyCore

/// The statement's notes beside the balances: agreements in force, the month's conversions, what is worth checking.
@Suite struct StatementNotesTests {
    // MARK: Agreements in force

    @Test func anAgreementWithAnEndDateSaysWhatRemains() {
        let rent = agreement("a1", paidBy: "m1", 150_000, day: 31, from: "2026-01-10", to: "2026-12-31")
        let listed = AgreementInForce.list([rent], in: month("2026-10"))
        // November has 30 days: the 31st falls on the 30th.
        #expect(listed == [AgreementInForce(agreement: rent, nextDate: day("2026-11-30"), remainingOccurrences: 2,
                                            remainingAmount: 300_000)])
        // In its last month: no next date, nothing remains.
        #expect(AgreementInForce.list([rent], in: month("2026-12"))
                == [AgreementInForce(agreement: rent, nextDate: nil, remainingOccurrences: 0, remainingAmount: 0)])
        // Its end date's month counts even when the day falls after the end date (months are calendar months).
        let short = agreement("a2", paidBy: "m1", 1_000, day: 20, from: "2026-10-01", to: "2026-11-05")
        #expect(AgreementInForce.list([short], in: month("2026-10"))[0].remainingOccurrences == 1)
        #expect(AgreementInForce.list([short], in: month("2026-10"))[0].nextDate == day("2026-11-20"))
    }

    @Test func anOngoingAgreementHasANextDateAndNoEnd() {
        let stream = agreement("a1", paidBy: "m2", 5_590, day: 15, from: "2025-08-13")
        #expect(AgreementInForce.list([stream], in: month("2026-10"))
                == [AgreementInForce(agreement: stream, nextDate: day("2026-11-15"), remainingOccurrences: nil, remainingAmount: nil)])
        // February clamps; December's next date is in January.
        let monthly = agreement("a2", paidBy: "m2", 100, day: 31, from: "2026-01-01")
        #expect(AgreementInForce.list([monthly], in: month("2026-01"))[0].nextDate == day("2026-02-28"))
        #expect(AgreementInForce.list([monthly], in: month("2026-12"))[0].nextDate == day("2027-01-31"))
        // The last month a date can have has no next one.
        let last = agreement("a3", paidBy: "m2", 100, day: 31, from: "9999-01-01")
        #expect(AgreementInForce.list([last], in: month("9999-12")).map(\.nextDate) == [nil])
    }

    @Test func onlyAgreementsInForceAreListedByDayThenId() {
        let agreements = [
            agreement("b", paidBy: "m1", 100, day: 20, from: "2026-01-01"),
            agreement("later", paidBy: "m1", 100, day: 1, from: "2026-11-01"),
            agreement("ended", paidBy: "m1", 100, day: 1, from: "2026-01-01", to: "2026-09-30"),
            agreement("a", paidBy: "m1", 100, day: 20, from: "2026-10-31", to: "2027-01-01"),
            agreement("c", paidBy: "m1", 100, day: 5, from: "2026-01-01"),
            agreement("tooLong", paidBy: "m1", 100, day: 5, from: "1900-01-01"),
        ]
        #expect(AgreementInForce.list(agreements, in: month("2026-10")).map(\.agreement.id) == ["c", "a", "b"])
    }

    @Test func aRemainingAmountThatDoesNotFitIsLeftOut() {
        let huge = agreement("a1", paidBy: "m1", 1_000_000_000_000_000, day: 1, from: "2026-01-01", to: "9999-12-31")
        let listed = AgreementInForce.list([huge], in: month("2026-10"))
        #expect(listed[0].remainingOccurrences == 9999 * 12 + 12 - (2026 * 12 + 10))
        #expect(listed[0].remainingAmount == nil)
    }

    @Test func theStatementListsTheAgreementsOfItsMembers() {
        let l = ledger(agreements: [agreement("a1", paidBy: "m1", 10_000, day: 5, from: "2026-01-01", to: "2026-12-31"),
                                    agreement("a2", paidBy: "stranger", 10_000, day: 5, from: "2026-01-01")])
        let s = StatementBuilder.build(l, period: month("2026-10"), fx: FxTable())
        #expect(s.agreementsInForce.map(\.agreement.id) == ["a1"])
        #expect(s.agreementsInForce.first?.remainingAmount == 20_000)
    }

    // MARK: Conversions

    func converted(_ id: String, _ amount: Int64, from original: Int64, _ currency: Currency, rate: String, of rateDate: String,
                   on date: String) -> Expense {
        var e = expense(id, paidBy: "m1", amount, on: date)
        e.conversion = Conversion(amount: original, currency: currency, rate: dec(rate), rateDate: day(rateDate))
        return e
    }

    @Test func conversionsAddUpPerCurrencyAndRate() {
        let expenses = [
            converted("e1", 54_321, from: 10_000, usd, rate: "5.4321", of: "2026-10-01", on: "2026-10-05"),
            expense("e2", paidBy: "m1", 999, on: "2026-10-05"),
            converted("e3", 10_864, from: 2_000, usd, rate: "5.4321", of: "2026-10-01", on: "2026-10-06"),
            converted("e4", 12_775, from: 3_500, jpy, rate: "0.0365", of: "2026-09-28", on: "2026-10-02"),
            converted("e5", -5_500, from: -1_000, usd, rate: "5.5", of: "2026-10-20", on: "2026-10-21"),
        ]
        #expect(CurrencyConversions.of(expenses) == [
            CurrencyConversions(currency: jpy, count: 1, original: 3_500, converted: 12_775, rates: [
                RateUse(rate: dec("0.0365"), rateDate: day("2026-09-28"), count: 1, original: 3_500, converted: 12_775),
            ]),
            CurrencyConversions(currency: usd, count: 3, original: 11_000, converted: 59_685, rates: [
                RateUse(rate: dec("5.4321"), rateDate: day("2026-10-01"), count: 2, original: 12_000, converted: 65_185),
                RateUse(rate: dec("5.5"), rateDate: day("2026-10-20"), count: 1, original: -1_000, converted: -5_500),
            ]),
        ])
        #expect(CurrencyConversions.of([expense("e1", paidBy: "m1", 100, on: "2026-10-01")]).isEmpty)
    }

    @Test func theStatementCarriesTheRateDateOfEachConversion() {
        // The rate of 2026-09-28 converts an expense of 2026-10-05: the row's date, not the expense's, is shown.
        let fx = FxTable([FxRate(date: day("2026-09-28"), currency: usd, base: brl, rate: dec("5.4321"))])
        let facts = [ExpenseFact(id: "e1", coupleId: "c1", paidBy: "m1", amount: 10_000, currency: usd, date: day("2026-10-05"),
                                 description: "Jantar", tag: "", agreementId: nil, split: .equal,
                                 source: SourceRef(file: "expenses/expenses.csv", line: 2))]
        let resolution = LedgerResolver.resolve(couple: Couple(id: "c1", name: "Casa", currency: brl),
                                                members: [Member(id: "m1", coupleId: "c1", displayName: "Ana"),
                                                          Member(id: "m2", coupleId: "c1", displayName: "Bia")],
                                                expenses: facts, settlements: [], agreements: [], fx: fx)
        let s = StatementBuilder.build(resolution.ledger, period: month("2026-10"), fx: fx)
        #expect(s.conversions == [CurrencyConversions(currency: usd, count: 1, original: 10_000, converted: 54_321, rates: [
            RateUse(rate: dec("5.4321"), rateDate: day("2026-09-28"), count: 1, original: 10_000, converted: 54_321),
        ])])
    }

    // MARK: Audit notes

    func line(_ e: Expense, _ shares: [Int64]) -> ItemisedExpense { ItemisedExpense(expense: e, shares: shares, fromAgreement: false) }

    @Test func theSameAmountPayerAndDayTwiceIsANote() {
        let expenses = [
            line(expense("e2", paidBy: "m1", 5_000, on: "2026-10-03"), [2_500, 2_500]),
            line(expense("e1", paidBy: "m1", 5_000, on: "2026-10-03"), [2_500, 2_500]),
            line(expense("e3", paidBy: "m2", 5_000, on: "2026-10-03"), [2_500, 2_500]),   // another payer
            line(expense("e4", paidBy: "m1", 5_000, on: "2026-10-04"), [2_500, 2_500]),   // another day
            line(expense("e5", paidBy: "m1", 5_001, on: "2026-10-03"), [2_501, 2_500]),   // another amount
            line(expense("z1", paidBy: "m1", 0, on: "2026-10-07"), [0, 0]),
            line(expense("z2", paidBy: "m1", 0, on: "2026-10-07"), [0, 0]),               // zero: never a note
        ]
        #expect(StatementAudit.notes(memberIds: ["m1", "m2"], opening: [0, 0], expenses: expenses, settlements: []) == [
            .repeatedExpense(date: day("2026-10-03"), paidBy: "m1", amount: 5_000, ids: ["e1", "e2"],
                             descriptions: ["expense e1", "expense e2"]),
        ])
    }

    @Test("repeated expenses are the groups of two or more by day, payer and non-zero amount, in the order of their first line")
    func repeatedExpensesMatchGroupingByKey() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let expenses = (0..<Int.random(in: 0...30, using: &generator)).map { i in
                line(expense("e\(i)", paidBy: ["m1", "m2", "m10"].randomElement(using: &generator)!,
                             [0, 500, 500, 700, -500].randomElement(using: &generator)!,
                             on: "2026-10-0\(Int.random(in: 1...4, using: &generator))"), [0, 0, 0])
            }
            // The definition: group the date-then-id ordered lines by (day, payer, amount), first appearance first.
            let ordered = expenses.map(\.expense).sorted {
                $0.date != $1.date ? $0.date < $1.date : $0.id.utf8.lexicographicallyPrecedes($1.id.utf8)
            }
            var keys: [String] = []
            var groups: [String: [Expense]] = [:]
            for e in ordered where e.amount != 0 {
                let key = "\(e.date) \(e.paidBy) \(e.amount)"
                if groups[key] == nil { keys.append(key) }
                groups[key, default: []].append(e)
            }
            let expected: [AuditNote] = keys.compactMap { key in
                let group = groups[key]!
                guard group.count > 1 else { return nil }
                return .repeatedExpense(date: group[0].date, paidBy: group[0].paidBy, amount: group[0].amount,
                                        ids: group.map(\.id), descriptions: group.map(\.description))
            }
            #expect(StatementAudit.notes(memberIds: ["m1", "m10", "m2"], opening: [0, 0, 0], expenses: expenses.shuffled(using: &generator),
                                         settlements: []) == expected)
        }
    }

    @Test func aSettlementLargerThanWhatItsPayerOwedIsANote() {
        // m2 owes 100.00 from before; m1 pays 60.00 on the 10th (m2 then owes 130.00).
        let expenses = [line(expense("e1", paidBy: "m1", 6_000, on: "2026-10-10"), [3_000, 3_000])]
        let notes = { (settlements: [Settlement]) in
            StatementAudit.notes(memberIds: ["m1", "m2"], opening: [10_000, -10_000], expenses: expenses, settlements: settlements)
        }
        // Before the expense m2 owed 100.00: 120.00 is too much.
        #expect(notes([settlement("s1", from: "m2", to: "m1", 12_000, on: "2026-10-09")])
                == [.settlementOverBalance(id: "s1", date: day("2026-10-09"), from: "m2", to: "m1", amount: 12_000, owedBefore: 10_000)])
        // The same day's expense comes first: m2 owed 130.00.
        #expect(notes([settlement("s1", from: "m2", to: "m1", 12_000, on: "2026-10-10")]).isEmpty)
        #expect(notes([settlement("s1", from: "m2", to: "m1", 13_000, on: "2026-10-10")]).isEmpty)
        // Two settlements: the second finds what the first left (130.00 − 100.00 = 30.00).
        #expect(notes([settlement("s2", from: "m2", to: "m1", 5_000, on: "2026-10-20"),
                       settlement("s1", from: "m2", to: "m1", 10_000, on: "2026-10-20")])
                == [.settlementOverBalance(id: "s2", date: day("2026-10-20"), from: "m2", to: "m1", amount: 5_000, owedBefore: 3_000)])
        // A member who is owed owes nothing: any settlement they send is a note.
        #expect(notes([settlement("s1", from: "m1", to: "m2", 1, on: "2026-10-01")])
                == [.settlementOverBalance(id: "s1", date: day("2026-10-01"), from: "m1", to: "m2", amount: 1, owedBefore: 0)])
    }

    @Test func notesComeByDateAndTheStatementCarriesThem() {
        let l = ledger(expenses: [expense("e1", paidBy: "m1", 5_000, on: "2026-10-12"), expense("e2", paidBy: "m1", 5_000, on: "2026-10-12"),
                                  expense("e0", paidBy: "m2", 100, on: "2026-09-30")],
                       settlements: [settlement("s1", from: "m2", to: "m1", 20_000, on: "2026-10-02"),
                                     settlement("s2", from: "m2", to: "m1", 20_000, on: "2026-10-12")])
        let s = StatementBuilder.build(l, period: month("2026-10"), fx: FxTable())
        // m2 is owed 0.50 from September, so s1 is a note; after it m2 is owed 200.50, after the 12th's groceries
        // still 150.50, so s2 is a note too.
        #expect(s.auditNotes.map(\.date) == [day("2026-10-02"), day("2026-10-12"), day("2026-10-12")])
        guard case .repeatedExpense(_, _, _, let ids, _) = s.auditNotes[1] else { Issue.record("\(s.auditNotes)"); return }
        #expect(ids == ["e1", "e2"])
        guard case .settlementOverBalance(let id, _, _, _, _, let owed) = s.auditNotes[0] else { Issue.record("\(s.auditNotes)"); return }
        #expect(id == "s1" && owed == 0)
        // Built without its lines, a statement has the same notes.
        #expect(StatementBuilder.build(l, period: month("2026-10"), fx: FxTable(), itemised: false).auditNotes == s.auditNotes)
    }
}
