import Testing
@testable import TallyCore

/// ``StatementsFamily/partition(_:)``: the one place a couple key's rows
/// are decided (orphans, failed and deleted winning versions).
@Suite("A couple key's rows")
struct CoupleRowsTests {
    func src(_ line: Int, _ file: String = "expenses/expenses.csv") -> SourceRef { SourceRef(file: file, line: line) }

    func fact(_ id: String, couple: String = "c1") -> ExpenseFact {
        ExpenseFact(id: id, coupleId: couple, paidBy: "m1", amount: 1000, currency: brl, date: day("2026-10-03"),
                    description: "mercado", tag: "mercado", agreementId: nil, split: .equal, source: src(2))
    }

    func rows(couple: Bool) -> CoupleRows {
        var rows = CoupleRows(key: "c1", couple: couple ? Couple(id: "c1", name: "Casa", currency: brl) : nil)
        rows.members = [.init(Member(id: "m2", coupleId: "c1", displayName: "Bia"), source: src(3, "expenses/members.csv")),
                        .init(Member(id: "m1", coupleId: "c1", displayName: "Ana"), source: src(2, "expenses/members.csv"))]
        rows.cards = [.init("k1", source: src(2, "expenses/cards.csv"))]
        rows.agreements = [agreement("a1", paidBy: "m1", 500, day: 5, from: "2026-01-01")]
        rows.settlements = [SettlementFact(id: "s1", coupleId: "c1", fromMember: "m1", toMember: "m2", amount: 10, currency: brl,
                                           date: day("2026-10-04"), source: src(2, "expenses/settlements.csv"))]
        rows.expenses = [
            .init(id: "e2", source: src(3), fact: fact("e2"), deleted: false, error: nil),
            .init(id: "e1", source: src(2), fact: fact("e1"), deleted: false, error: nil),
            .init(id: "e3", source: src(4), fact: nil, deleted: true, error: nil),
            .init(id: "e4", source: src(5), fact: nil, deleted: false, error: .amount("amount", .invalid("12,50")),
                  written: WrittenRow(coupleId: "c1", date: "2026-10-31", description: "Feira", amount: "12,50", currency: "BRL")),
        ]
        return rows
    }

    @Test("with its couple: the live rows make the partition in id order; a failed winner is rejected, a deletion counts nowhere")
    func aKnownCouple() {
        let assembly = StatementsFamily.partition(rows(couple: true))
        let partition = try! #require(assembly.partition)
        #expect(partition.members.map(\.id) == ["m1", "m2"])
        #expect(partition.expenses.map(\.id) == ["e1", "e2"])
        #expect(partition.settlements.map(\.id) == ["s1"])
        #expect(partition.agreements.map(\.id) == ["a1"])
        #expect(assembly.rejects.map { "\($0.line) \($0.id) \($0.code.rawValue) \($0.reason)" }
                == ["5 e4 amount_not_decimal amount: amount '12,50' is not a decimal number like 1234.56 (no comma decimal, no thousands separator)"])
        // The failed winner, as written, for the couple's statement.
        #expect(partition.refused == [RefusedRow(kind: .expense, id: "e4", written: WrittenRow(
            coupleId: "c1", date: "2026-10-31", description: "Feira", amount: "12,50", currency: "BRL"), reason: .amountNotDecimal)])
    }

    @Test("without its couple: every row is an orphan, worded by OrphanRule; the failed winner keeps its own reason")
    func anUnknownCouple() {
        let assembly = StatementsFamily.partition(rows(couple: false))
        #expect(assembly.partition.map(\.couple.id) == nil)
        #expect(Set(assembly.rejects.map { "\($0.file):\($0.line) \($0.id) \($0.reason)" }) == [
            "expenses/members.csv:3 m2 member of unknown couple 'c1'",
            "expenses/members.csv:2 m1 member of unknown couple 'c1'",
            "expenses/cards.csv:2 k1 card of unknown couple 'c1'",
            "expenses/agreements.csv:7 a1 agreement of unknown couple 'c1'",
            "expenses/settlements.csv:2 s1 settlement of unknown couple 'c1'",
            "expenses/expenses.csv:3 e2 expense of unknown couple 'c1'",
            "expenses/expenses.csv:2 e1 expense of unknown couple 'c1'",
            "expenses/expenses.csv:5 e4 amount: amount '12,50' is not a decimal number like 1234.56 (no comma decimal, no thousands separator)",
        ])
        #expect(assembly.rejects.count == 8)
    }

    @Test("the family's computation of a key: the statement with the key's rejects beside it, or the rejects alone")
    func computeKey() {
        let family = StatementsFamily(settings: .init(period: month("2026-10"), fx: FxTable([])))
        let known = family.compute(key: rows(couple: true))
        #expect(known.statement?.rows.statement.couple.id == "c1")
        #expect(known.unattached.rejects.count == 1)
        let unknown = family.compute(key: rows(couple: false))
        #expect(unknown.statement.map(\.key) == nil)
        #expect(unknown.unattached.rejects.count == 8)
    }
}
