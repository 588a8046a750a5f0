import Testing
@testable import TallyCore

/// A couple's statement built from an opening (``LedgerOpening``) and the
/// rows after it equals the statement built from every row, and the store's
/// rule for selecting those rows agrees with the rule of what changes reach.
@Suite("Ledger openings")
struct LedgerOpeningTests {
    let brl = Currency(code: "BRL")!
    let usd = Currency(code: "USD")!
    let source = SourceRef(file: "expenses/expenses.csv", line: 2)
    let fx = FxTable([FxRate(date: LocalDate.parse("2026-01-01")!, currency: Currency(code: "USD")!,
                             base: Currency(code: "BRL")!, rate: dec("5.25"))])

    /// The statement (its text-bearing parts), its rejects and undated refused rows, comparable.
    struct Seen: Equatable {
        var balances: [MemberBalance]
        var transfers: [Transfer]
        var categories: [CategoryTotal]
        var trend: [String]
        var expenseCount: Int
        var leftOut: [LeftOutRow]
        var refused: [RefusedRow]
        var rejects: [Reject]
        var auditNotes: Int
    }

    func seen(_ result: StatementsFamily.KeyResult) throws -> Seen {
        let statement = try #require(result.statement)
        var summary = statement.summary
        summary.merge(result.unattached)
        let s = statement.rows.statement
        return Seen(balances: s.balances, transfers: s.transfers, categories: s.categories,
                    trend: s.trend.map { "\($0.month) \($0.amount)" }, expenseCount: s.expenseCount, leftOut: s.leftOut,
                    refused: s.refused, rejects: summary.rejects.sorted, auditNotes: s.auditNotes.count)
    }

    /// A random couple of 2–4 members: expenses over 2025-11…2026-06 (some in dollars, some failing a
    /// check, some that failed validation with dates readable or not), settlements and agreements.
    func randomRows(_ random: inout SplitMix64) -> CoupleRows {
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        let memberIds = ["a", "b", "c", "d"].prefix(2 + Int(random.next() % 3))
        var rows = CoupleRows(key: "c1", couple: Couple(id: "c1", name: "Casa", currency: brl))
        rows.members = memberIds.map { .init(Member(id: $0, coupleId: "c1", displayName: "N \($0)"), source: source) }
        let months = (0..<8).map { YearMonth("2025-11")!.adding(months: $0) }
        for i in 0..<(10 + Int(random.next() % 40)) {
            let date = pick(months).clampedDay(1 + Int(random.next() % 31))
            let id = "e\(i)"
            switch random.next() % 10 {
            case 0:
                let text = pick(["31/08/2026", "2026-02-31", "", "2026-13-02", "2026-04-xx"])
                rows.expenses.append(.init(id: id, source: source, fact: nil, deleted: false, error: .dateInvalid(field: "date", value: text),
                                           written: WrittenRow(coupleId: "c1", date: text.isEmpty ? nil : text, description: "x",
                                                               amount: "1.00", currency: "BRL")))
            case 1:
                rows.expenses.append(.init(id: id, source: source, fact: nil, deleted: true, error: nil))
            default:
                let payer = random.next() % 15 == 0 ? "zz" : pick(Array(memberIds))
                let split: SplitRule = random.next() % 4 == 0 ? SplitRule(type: .full, entries: [SplitEntry(memberId: pick(Array(memberIds)), value: nil)]) : .equal
                let currency = random.next() % 5 == 0 ? usd : brl
                let amount = Int64(random.next() % 40_000) - 2_000
                rows.expenses.append(.init(id: id, source: source, fact: ExpenseFact(
                    id: id, coupleId: "c1", paidBy: payer, amount: amount, currency: currency, date: date, description: "d \(id)",
                    tag: pick(["casa", "mercado", ""]), agreementId: random.next() % 8 == 0 ? "g0" : nil, split: split, source: source),
                    deleted: false, error: nil))
            }
        }
        for i in 0..<Int(random.next() % 6) {
            let from = pick(Array(memberIds))
            rows.settlements.append(SettlementFact(id: "s\(i)", coupleId: "c1", fromMember: from, toMember: pick(Array(memberIds)),
                                                   amount: Int64(1 + random.next() % 9_000), currency: brl,
                                                   date: pick(months).clampedDay(3), source: source))
        }
        for i in 0..<Int(random.next() % 3) {
            let start = pick(months).clampedDay(1 + Int(random.next() % 28))
            rows.agreements.append(Agreement(id: "g\(i)", coupleId: "c1", description: "g", amount: Int64(1_000 + random.next() % 9_000),
                                             currency: random.next() % 4 == 0 ? usd : brl, paidBy: pick(Array(memberIds)), split: .equal,
                                             tag: "casa", dayOfMonth: 1 + Int(random.next() % 31), startDate: start,
                                             endDate: random.next() % 2 == 0 ? nil : start.yearMonth.adding(months: 2).lastDay,
                                             sourceFile: "expenses/agreements.csv", sourceLine: 2 + i))
        }
        return rows
    }

    /// `rows` with only the expenses a store reads after an opening of `month`.
    func after(_ rows: CoupleRows, _ month: YearMonth, opening: LedgerOpening?) -> CoupleRows {
        var after = rows
        after.expenses = rows.expenses.filter { LedgerOpening.isOnOrAfter($0.fact?.date.description ?? $0.written?.date, month: month) }
        after.opening = opening
        return after
    }

    func family(_ period: YearMonth, trend: Int = 6) -> StatementsFamily {
        StatementsFamily(settings: .init(period: period, fx: fx, trendMonths: trend, itemised: true))
    }

    @Test("from an opening and the rows after it, the statement of that month or a later one equals the one from every row",
          arguments: 0..<60)
    func fromOpening(seed: UInt64) throws {
        var random = SplitMix64(seed: 0x0be7_1ed9 &+ seed)
        let rows = randomRows(&random)
        let trend = [1, 3, 6][Int(seed % 3)]
        let kept = YearMonth("2026-02")!.adding(months: Int(random.next() % 3))
        let closing = try #require(family(kept, trend: trend).compute(key: rows).closing)
        #expect(closing.month == kept.adding(months: 1))
        for later in 1...3 {
            let period = kept.adding(months: later)
            let full = family(period, trend: trend).compute(key: rows)
            let fromOpening = family(period, trend: trend).compute(key: after(rows, closing.month, opening: closing))
            #expect(!fromOpening.needsAllRows)
            #expect(try seen(fromOpening) == seen(full), "period \(period), kept at \(kept)")
            // What it carries on is what every row carries on.
            #expect(fromOpening.closing == full.closing)
        }
    }

    @Test("an opening of other members, or of a month after the period, does not stand: every row is needed")
    func doesNotStand() throws {
        var random = SplitMix64(seed: 7)
        let rows = randomRows(&random)
        let closing = try #require(family(YearMonth("2026-03")!).compute(key: rows).closing)
        var others = after(rows, closing.month, opening: closing)
        others.members.removeLast()
        #expect(family(YearMonth("2026-05")!).compute(key: others).needsAllRows)
        #expect(family(YearMonth("2026-03")!).compute(key: after(rows, closing.month, opening: closing)).needsAllRows)
    }

    @Test("a limit reached counting from an opening: every row is needed, and a statement over the limit carries no opening")
    func limits() throws {
        var rows = CoupleRows(key: "c1", couple: Couple(id: "c1", name: "Casa", currency: brl))
        rows.members = ["a", "b"].map { .init(Member(id: $0, coupleId: "c1", displayName: $0), source: source) }
        func big(_ id: String, _ date: String) -> CoupleRows.WinningExpense {
            .init(id: id, source: source, fact: ExpenseFact(id: id, coupleId: "c1", paidBy: "a", amount: 900_000_000_000_000_000,
                                                            currency: brl, date: LocalDate.parse(date)!, description: "", tag: "",
                                                            agreementId: nil, split: .equal, source: source), deleted: false, error: nil)
        }
        rows.expenses = [big("e1", "2026-01-10"), big("e2", "2026-02-10")]
        let closing = try #require(family(YearMonth("2026-02")!).compute(key: rows).closing)
        rows.expenses.append(big("e0", "2026-03-10"))
        #expect(family(YearMonth("2026-03")!).compute(key: after(rows, closing.month, opening: closing)).needsAllRows)
        #expect(family(YearMonth("2026-03")!).compute(key: rows).closing == nil)
    }

    @Test("the rows a store reads after an opening are the rows a change that leaves it standing can reach")
    func selectionAndChanges() {
        var random = SplitMix64(seed: 11)
        let alphabet = Array("0123456789-/x ")
        let months = ["2026-09", "2026-10", "2026-11"].map { YearMonth($0)! }
        for _ in 0..<5_000 {
            let length = Int(random.next() % 12)
            var text = String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
            if random.next() % 2 == 0 { text = "2026-\(["09", "10", "11"][Int(random.next() % 3)])" + text }
            for month in months {
                let change = LedgerOpening.changeMonth(text)
                if !LedgerOpening.change(reachingBack: change, isBefore: month) {
                    #expect(LedgerOpening.isOnOrAfter(text, month: month), "'\(text)' leaves \(month) standing, so it is read")
                } else if !change.isEmpty {
                    #expect(!LedgerOpening.isOnOrAfter(text, month: month), "'\(text)' is held by an opening of \(month)")
                }
            }
        }
        #expect(LedgerOpening.changeMonth("2026-10-31") == "2026-10")
        #expect(LedgerOpening.changeMonth("31/10/2026").isEmpty)
        #expect(LedgerOpening.changeMonth(nil).isEmpty)
        #expect(!LedgerOpening.isOnOrAfter(nil, month: months[0]))
    }
}
