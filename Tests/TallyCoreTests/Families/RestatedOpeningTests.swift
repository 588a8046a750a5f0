import Testing
@testable import TallyCore

/// A couple's opening balances against the closing balances its statement of
/// the month before was published with (``RestatedOpening``).
@Suite("Restated opening balances")
struct RestatedOpeningTests {
    let october = YearMonth("2026-10")!
    let september = YearMonth("2026-09")!
    let brl = Currency(code: "BRL")!
    let base = SourceRef(file: "2026-09/expenses/expenses.csv", line: 2)
    let late = "2026-10/expenses/expenses.csv"

    func expense(_ id: String, _ amount: Int64, on date: String, paidBy: String = "a", file: String? = nil, line: Int = 2) -> CoupleRows.WinningExpense {
        let source = file.map { SourceRef(file: $0, line: line) } ?? base
        return .init(id: id, source: source, fact: ExpenseFact(
            id: id, coupleId: "c1", paidBy: paidBy, amount: amount, currency: brl, date: LocalDate.parse(date)!,
            description: "desc \(id)", tag: "casa", agreementId: nil, split: .equal, source: source),
            deleted: false, error: nil)
    }

    func rows(_ expenses: [CoupleRows.WinningExpense], published: PublishedClosing?) -> CoupleRows {
        var rows = CoupleRows(key: "c1", couple: Couple(id: "c1", name: "Ana & Bia", currency: brl))
        rows.members = [.init(Member(id: "a", coupleId: "c1", displayName: "Ana"), source: base),
                        .init(Member(id: "b", coupleId: "c1", displayName: "Bia"), source: base)]
        rows.expenses = expenses
        rows.published = published
        return rows
    }

    func statement(_ rows: CoupleRows) -> CoupleStatement {
        StatementsFamily(settings: .init(period: october, fx: FxTable())).compute(key: rows).statement!.rows.statement
    }

    @Test("opening balances equal to the closing balances sent: nothing restated")
    func unchanged() {
        let sent = PublishedClosing(month: september, closing: ["a": 500, "b": -500], filesSince: [])
        #expect(statement(rows([expense("e1", 1000, on: "2026-09-10")], published: sent)).restated == nil)
    }

    @Test("a late expense of September: each member's balance as sent and now, and the row that arrived")
    func lateExpense() throws {
        let sent = PublishedClosing(month: september, closing: ["a": 500, "b": -500], filesSince: [late])
        let s = statement(rows([expense("e1", 1000, on: "2026-09-10"), expense("e2", 400, on: "2026-09-28", paidBy: "b", file: late),
                                expense("e3", 90, on: "2026-10-03", file: late, line: 3)], published: sent))
        let restated = try #require(s.restated)
        #expect(restated.month == september)
        #expect(restated.balances.map(\.published) == [500, -500])
        #expect(restated.balances.map(\.now) == [300, -300])
        #expect(restated.balances.map(\.difference) == [-200, 200])
        // October's own expense from the same file does not move the opening: it is not listed.
        #expect(restated.rows.map(\.id) == ["e2"])
        #expect(restated.rows.first?.kind == .expense && restated.rows.first?.amount == 400)
        #expect(restated.rows.first?.source == SourceRef(file: late, line: 2))
    }

    @Test("deletions, settlements and agreements delivered since are listed, dated rows first")
    func otherRows() throws {
        let sent = PublishedClosing(month: september, closing: ["a": 0, "b": 0], filesSince: [late])
        var couple = rows([expense("e1", 1000, on: "2026-09-10")], published: sent)
        couple.expenses.append(.init(id: "e0", source: SourceRef(file: late, line: 4), fact: nil, deleted: true, error: nil))
        couple.settlements = [SettlementFact(id: "s1", coupleId: "c1", fromMember: "b", toMember: "a", amount: 100, currency: brl,
                                             date: LocalDate.parse("2026-09-30")!, source: SourceRef(file: late, line: 5))]
        let restated = try #require(statement(couple).restated)
        #expect(restated.rows.map(\.kind) == [.settlement, .deletion])
        #expect(restated.rows.map(\.id) == ["s1", "e0"])
    }

    @Test("an agreement new or changed since is listed; the others are not, whatever file they came from")
    func agreements() throws {
        let sent = PublishedClosing(month: september, closing: ["a": 0, "b": 0], filesSince: [late], changedAgreements: ["g2"])
        var couple = rows([], published: sent)
        couple.agreements = ["g1", "g2"].map { id in
            Agreement(id: id, coupleId: "c1", description: "rent \(id)", amount: 100_000, currency: brl, paidBy: "a", split: .equal,
                      tag: "casa", dayOfMonth: 5, startDate: LocalDate.parse("2026-08-01")!, endDate: nil, sourceFile: late, sourceLine: 2)
        }
        let restated = try #require(statement(couple).restated)
        #expect(restated.rows.map(\.id) == ["g2"])
        #expect(restated.rows.first?.kind == .agreement)
    }

    @Test("a member the statement sent no longer has still shows, at zero now; a new member was sent zero")
    func membersChanged() throws {
        let sent = PublishedClosing(month: september, closing: ["a": 500, "z": -500], filesSince: [])
        let restated = try #require(statement(rows([expense("e1", 1000, on: "2026-09-10")], published: sent)).restated)
        #expect(restated.balances.map(\.memberId) == ["a", "b", "z"])
        #expect(restated.balances.map(\.published) == [500, 0, -500])
        #expect(restated.balances.map(\.now) == [500, -500, 0])
        #expect(restated.rows.isEmpty)
    }

    @Test("without a published statement (a dataflow, a first run) nothing is compared")
    func nothingPublished() {
        #expect(statement(rows([expense("e1", 1000, on: "2026-09-10")], published: nil)).restated == nil)
    }
}
