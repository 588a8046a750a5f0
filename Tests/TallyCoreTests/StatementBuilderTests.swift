import Testing
@testable import TallyCore

@Suite struct StatementBuilderTests {
    func build(_ ledger: CoupleLedger, _ period: String, fx: FxTable = FxTable()) -> CoupleStatement {
        StatementBuilder.build(ledger, period: month(period), fx: fx)
    }

    func netsSumToZero(_ statement: CoupleStatement) -> Bool {
        statement.balances.reduce(0) { $0 + $1.opening } == 0 && statement.balances.reduce(0) { $0 + $1.closing } == 0
    }

    @Test func oneExpenseInTheMonth() {
        let l = ledger(expenses: [expense("e1", paidBy: "m1", 10_000, on: "2026-03-05", tag: "food")])
        let s = build(l, "2026-03")
        #expect(s.balances == [
            MemberBalance(memberId: "m1", displayName: "Name m1", opening: 0, paid: 10_000, share: 5000,
                          settlementsSent: 0, settlementsReceived: 0, closing: 5000),
            MemberBalance(memberId: "m2", displayName: "Name m2", opening: 0, paid: 0, share: 5000,
                          settlementsSent: 0, settlementsReceived: 0, closing: -5000),
        ])
        #expect(s.transfers == [Transfer(from: "m2", to: "m1", amount: 5000)])
        #expect(s.method == .exact)
        #expect(s.expenseCount == 1)
        #expect(s.categories == [CategoryTotal(tag: "food", amount: 10_000, shareByMember: ["m1": 5000, "m2": 5000])])
        #expect(s.rejects.isEmpty)
        #expect(s.period == month("2026-03"))
        #expect(s.couple.id == "c1")
    }

    @Test func earlierMonthsOpenLaterOnesAndLaterExpensesAreIgnored() {
        let l = ledger(expenses: [
            expense("e1", paidBy: "m1", 10_000, on: "2026-02-28"),
            expense("e2", paidBy: "m2", 4000, on: "2026-03-01"),
            expense("e3", paidBy: "m2", 99_999, on: "2026-04-01"),
        ])
        let s = build(l, "2026-03")
        #expect(s.line("m1")?.opening == 5000)
        #expect(s.line("m2")?.opening == -5000)
        #expect(s.line("m2")?.paid == 4000)
        #expect(s.line("m1")?.share == 2000)
        #expect(s.line("m1")?.closing == 3000)
        #expect(s.line("m2")?.closing == -3000)
        #expect(s.expenseCount == 1)
    }

    @Test func closingOfAMonthIsOpeningOfTheNext() {
        let l = ledger(
            members: ["m1", "m2", "m3"],
            expenses: [
                expense("e1", paidBy: "m1", 10_001, on: "2025-12-31"),
                expense("e2", paidBy: "m2", 3333, on: "2026-01-15", split: rule(.shares, "m1:1;m2:2")),
                expense("e3", paidBy: "m3", -1500, on: "2026-02-10", split: rule(.full, "m1")),
                expense("e4", paidBy: "m1", 77_777, on: "2026-03-31", split: rule(.percentage, "m2:50;m3:50")),
            ],
            settlements: [settlement("s1", from: "m2", to: "m1", 2000, on: "2026-02-01"),
                          settlement("s2", from: "m3", to: "m1", 500, on: "2026-03-02")],
            agreements: [agreement("a1", paidBy: "m3", 150_000, day: 31, from: "2025-11-20")])
        var previous: CoupleStatement?
        for period in ["2025-12", "2026-01", "2026-02", "2026-03", "2026-04"] {
            let s = build(l, period)
            #expect(netsSumToZero(s))
            for b in s.balances {
                #expect(b.closing == b.opening + b.paid - b.share + b.settlementsSent - b.settlementsReceived)
            }
            if let previous {
                #expect(previous.balances.map(\.closing) == s.balances.map(\.opening), "closing(M) = opening(M+1) at \(period)")
            }
            previous = s
        }
    }

    @Test func settlementsMoveBalances() {
        let l = ledger(expenses: [expense("e1", paidBy: "m1", 10_000, on: "2026-03-05")],
                       settlements: [settlement("s0", from: "m2", to: "m1", 1000, on: "2026-02-05"),
                                     settlement("s1", from: "m2", to: "m1", 5000, on: "2026-03-20"),
                                     settlement("s2", from: "m2", to: "m1", 7000, on: "2026-04-01")])
        let s = build(l, "2026-03")
        #expect(s.line("m1")?.opening == -1000)
        #expect(s.line("m2")?.opening == 1000)
        #expect(s.line("m2")?.settlementsSent == 5000)
        #expect(s.line("m1")?.settlementsReceived == 5000)
        #expect(s.line("m1")?.closing == -1000)
        #expect(s.line("m2")?.closing == 1000)
        #expect(s.transfers == [Transfer(from: "m1", to: "m2", amount: 1000)])
    }

    @Test func everyMemberIsListedInIdOrderEvenAllZero() {
        let l = ledger(members: ["m3", "m10", "m1", "m2"],
                       expenses: [expense("e1", paidBy: "m1", 600, on: "2026-03-05", split: rule(.full, "m2"))])
        let s = build(l, "2026-03")
        #expect(s.balances.map(\.memberId) == ["m1", "m10", "m2", "m3"])
        #expect(s.line("m3") == MemberBalance(memberId: "m3", displayName: "Name m3", opening: 0, paid: 0, share: 0,
                                              settlementsSent: 0, settlementsReceived: 0, closing: 0))
        #expect(s.line("m10")?.closing == 0)
        #expect(s.transfers == [Transfer(from: "m2", to: "m1", amount: 600)])
        #expect(s.categories.first?.shareByMember == ["m1": 0, "m10": 0, "m2": 600, "m3": 0])
    }

    @Test func noMembersNoBalances() {
        let s = build(ledger(members: []), "2026-03")
        #expect(s.balances.isEmpty)
        #expect(s.transfers.isEmpty)
    }

    @Test func threeMembersShareWithRotation() {
        // 100 among m1, m2, m3: "e1" → m1 gets the extra cent, "e2" → m2.
        let l = ledger(members: ["m1", "m2", "m3"], expenses: [
            expense("e1", paidBy: "m3", 100, on: "2026-03-01"),
            expense("e2", paidBy: "m3", 100, on: "2026-03-02"),
        ])
        let s = build(l, "2026-03")
        #expect(s.balances.map(\.share) == [67, 67, 66])
        #expect(s.balances.map(\.closing) == [-67, -67, 134])
        #expect(s.transfers == [Transfer(from: "m1", to: "m3", amount: 67), Transfer(from: "m2", to: "m3", amount: 67)])
    }

    @Test func refundsAreNegativeAndNetTheirTag() {
        let l = ledger(expenses: [
            expense("e1", paidBy: "m1", 10_000, on: "2026-03-01", tag: "food"),
            expense("e2", paidBy: "m1", -3000, on: "2026-03-02", tag: "food"),
            expense("e3", paidBy: "m2", 200_000, on: "2026-03-03", tag: "rent"),
            expense("e4", paidBy: "m2", 501, on: "2026-03-04"),
            expense("e5", paidBy: "m1", 1000, on: "2026-03-05", tag: "gift"),
            expense("e6", paidBy: "m1", -1000, on: "2026-03-06", tag: "gift"),
        ])
        let s = build(l, "2026-03")
        #expect(s.line("m1")?.paid == 7000)
        #expect(s.categories.map(\.tag) == ["rent", "food", "", "gift"])
        #expect(s.categories.map(\.amount) == [200_000, 7000, 501, 0])
        #expect(s.categories[1].shareByMember == ["m1": 3500, "m2": 3500])
        // 5.01 split in two: "e4" → 101 + 52 = 153, 153 % 2 = 1 → m2 gets the extra centavo.
        #expect(s.categories[2].shareByMember == ["m1": 250, "m2": 251])
        #expect(s.categories[3].shareByMember == ["m1": 0, "m2": 0])
        #expect(s.expenseCount == 6)
        for category in s.categories { #expect(category.shareByMember.values.reduce(0, +) == category.amount) }
    }

    @Test func trendCoversSixMonthsOldestFirst() {
        let l = ledger(expenses: [
            expense("e0", paidBy: "m1", 999, on: "2025-09-30"),
            expense("e1", paidBy: "m1", 100, on: "2025-10-01"),
            expense("e2", paidBy: "m1", 200, on: "2026-01-10"),
            expense("e3", paidBy: "m1", -50, on: "2026-01-11"),
            expense("e4", paidBy: "m1", 300, on: "2026-03-31"),
        ])
        let s = build(l, "2026-03")
        #expect(s.trend.map(\.month) == ["2025-10", "2025-11", "2025-12", "2026-01", "2026-02", "2026-03"].map(month))
        #expect(s.trend.map(\.amount) == [100, 0, 0, 150, 0, 300])
        let short = StatementBuilder.build(l, period: month("2026-03"), fx: FxTable(), trendMonths: 2)
        #expect(short.trend.map(\.amount) == [0, 300])
    }

    @Test func agreementsFillTheirMonths() {
        let l = ledger(agreements: [agreement("a1", paidBy: "m1", 150_000, day: 5, from: "2026-01-20")])
        let (expenses, rejects) = StatementBuilder.agreementExpenses(l, through: month("2026-03"), fx: FxTable())
        #expect(rejects.isEmpty)
        // The start month counts whole, even though the 5th is before startDate.
        #expect(expenses.map(\.id) == ["agreement:a1:2026-01", "agreement:a1:2026-02", "agreement:a1:2026-03"])
        #expect(expenses.map(\.date) == [day("2026-01-05"), day("2026-02-05"), day("2026-03-05")])
        #expect(expenses.allSatisfy { $0.amount == 150_000 && $0.paidBy == "m1" && $0.tag == "rent" && $0.agreementId == "a1" })
        #expect(expenses[0].description == "agreement a1")

        let s = build(l, "2026-03")
        #expect(s.line("m1")?.opening == 150_000)
        #expect(s.line("m1")?.paid == 150_000)
        #expect(s.line("m1")?.closing == 225_000)
        #expect(s.expenseCount == 1)
        #expect(s.categories == [CategoryTotal(tag: "rent", amount: 150_000, shareByMember: ["m1": 75_000, "m2": 75_000])])
        #expect(s.trend.map(\.amount) == [0, 0, 0, 150_000, 150_000, 150_000])
    }

    @Test func aRealExpenseCoversItsMonth() {
        let l = ledger(expenses: [expense("r1", paidBy: "m2", 160_000, on: "2026-02-27", agreementId: "a1")],
                       agreements: [agreement("a1", paidBy: "m1", 150_000, day: 5, from: "2026-01-01")])
        let feb = build(l, "2026-02")
        #expect(feb.expenseCount == 1)
        #expect(feb.line("m2")?.paid == 160_000)
        #expect(feb.line("m1")?.paid == 0)
        #expect(feb.line("m1")?.opening == 75_000)
        let (expenses, _) = StatementBuilder.agreementExpenses(l, through: month("2026-03"), fx: FxTable())
        #expect(expenses.map(\.id) == ["agreement:a1:2026-01", "agreement:a1:2026-03"])
        // Another agreement's expense does not cover a1.
        let other = ledger(expenses: [expense("r1", paidBy: "m2", 1, on: "2026-02-27", agreementId: "a2")],
                           agreements: [agreement("a1", paidBy: "m1", 150_000, day: 5, from: "2026-02-01")])
        #expect(build(other, "2026-02").expenseCount == 2)
    }

    @Test func day31FallsOnTheLastDayOfShorterMonths() {
        let l = ledger(agreements: [agreement("a1", paidBy: "m1", 100, day: 31, from: "2027-12-01", to: "2028-04-30")])
        let (expenses, _) = StatementBuilder.agreementExpenses(l, through: month("2028-06"), fx: FxTable())
        #expect(expenses.map(\.date) == ["2027-12-31", "2028-01-31", "2028-02-29", "2028-03-31", "2028-04-30"].map(day))
        let common = ledger(agreements: [agreement("a1", paidBy: "m1", 100, day: 30, from: "2026-02-01", to: "2026-02-01")])
        #expect(StatementBuilder.agreementExpenses(common, through: month("2026-12"), fx: FxTable()).expenses.map(\.date) == [day("2026-02-28")])
    }

    @Test func endedAndFutureAgreements() {
        let l = ledger(agreements: [
            agreement("old", paidBy: "m1", 1000, day: 10, from: "2025-11-01", to: "2026-01-15"),
            agreement("new", paidBy: "m2", 2000, day: 10, from: "2026-04-01"),
        ])
        let s = build(l, "2026-03")
        #expect(s.expenseCount == 0)
        #expect(s.line("m1")?.opening == 1500)
        #expect(s.line("m1")?.closing == 1500)
        #expect(s.line("m2")?.paid == 0)
        #expect(StatementBuilder.agreementExpenses(l, through: month("2026-03"), fx: FxTable()).expenses.count == 3)
    }

    @Test func foreignAgreementsAreConvertedOnTheirDate() {
        let fx = FxTable([
            FxRate(date: day("2026-01-01"), currency: usd, base: brl, rate: dec("5")),
            FxRate(date: day("2026-03-10"), currency: usd, base: brl, rate: dec("5.5")),
        ])
        let l = ledger(agreements: [agreement("a1", paidBy: "m1", 10_001, currency: usd, day: 10, from: "2026-02-01")])
        let s = build(l, "2026-03", fx: fx)
        // Feb 10: 100.01 × 5 = 500.05 BRL; Mar 10: 100.01 × 5.5 = 550.055 → 550.06.
        // 500.05 splits 250.02 / 250.03: the id's byte sum is odd, so m2 gets the extra centavo.
        #expect(s.line("m1")?.opening == 25_003) // 500.05 paid − 250.02 share
        #expect(s.line("m1")?.paid == 55_006)
        #expect(s.line("m2")?.share == 27_503)
        #expect(netsSumToZero(s))
        #expect(s.rejects.isEmpty)
    }

    @Test func missingFxLeavesTheMonthOutAndRejectsItInItsOwnStatement() {
        let fx = FxTable([FxRate(date: day("2026-03-01"), currency: usd, base: brl, rate: dec("5"))])
        let l = ledger(agreements: [agreement("a1", paidBy: "m1", 1000, currency: usd, day: 10, from: "2026-01-01")])
        let feb = build(l, "2026-02", fx: fx)
        #expect(feb.expenseCount == 0)
        #expect(feb.balances.allSatisfy { $0.closing == 0 })
        #expect(feb.rejects == [Reject(dataset: "expenses", file: "expenses/agreements.csv", line: 7, id: "agreement:a1:2026-02",
                                       reason: RejectReason(code: .noFxRate, text: "no fx rate from USD to BRL on or before 2026-02-10; agreement 'a1' is left out of the 2026-02 statement"))])
        let mar = build(l, "2026-03", fx: fx)
        #expect(mar.rejects.isEmpty)
        #expect(mar.expenseCount == 1)
        #expect(mar.line("m1")?.opening == 0)
        #expect(mar.line("m1")?.paid == 5000)
    }

    @Test func ledgerRowsNamingStrangersAreLeftOutAndRejected() {
        let l = ledger(expenses: [expense("e1", paidBy: "zz", 1000, on: "2026-03-01"),
                                  expense("e2", paidBy: "m1", 1000, on: "2026-03-01")],
                       settlements: [settlement("s1", from: "m1", to: "zz", 500, on: "2026-03-02")],
                       agreements: [agreement("a1", paidBy: "zz", 1000, day: 1, from: "2026-03-01")])
        let s = build(l, "2026-03")
        #expect(netsSumToZero(s))
        #expect(s.expenseCount == 1)
        #expect(Set(s.rejects.map(\.id)) == ["e1", "s1", "agreement:a1"])
    }

    @Test func manyMembersUseTheGreedyFallbackPastTheLimit() {
        let ids = (1...6).map { "m\($0)" }
        let expenses = ids.enumerated().map { i, id in expense("e\(i)", paidBy: id, Int64(600 * (i + 1)), on: "2026-03-0\(i + 1)") }
        let l = ledger(members: ids, expenses: expenses)
        let exact = StatementBuilder.build(l, period: month("2026-03"), fx: FxTable())
        let greedy = StatementBuilder.build(l, period: month("2026-03"), fx: FxTable(), exactTransferLimit: 3)
        #expect(exact.method == .exact)
        #expect(greedy.method == .greedy)
        #expect(exact.balances == greedy.balances)
        for plan in [exact, greedy] {
            var closing = Dictionary(uniqueKeysWithValues: plan.balances.map { ($0.memberId, $0.closing) })
            for t in plan.transfers { closing[t.from]! += t.amount; closing[t.to]! -= t.amount }
            #expect(closing.values.allSatisfy { $0 == 0 })
        }
    }
}
