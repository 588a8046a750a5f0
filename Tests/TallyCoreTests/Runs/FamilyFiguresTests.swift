import Testing
@testable import TallyCore

/// The figures a run keeps of each family.
@Suite("Family figures")
struct FamilyFiguresTests {
    @Test("a rate is a percentage with one decimal, exact on its parts; a rate over zero is no figure")
    func rates() {
        #expect(RunFigure.rate("kpis", "Churn A", YearMonth("2026-10")!, KPIRate(2, of: 3))?.value == "66.7")
        #expect(RunFigure.rate("kpis", "Churn A", YearMonth("2026-10")!, KPIRate(1, of: 8))?.value == "12.5")
        #expect(RunFigure.rate("kpis", "Churn A", YearMonth("2026-10")!, KPIRate(0, of: 0)) == nil)
    }

    @Test("the statements' figures: counts, the expenses as the dataset's volume, spending per currency")
    func statements() {
        var totals = StatementTotals()
        totals.couples = 2
        totals.members = 4
        totals.expenses = 7
        totals.transfers = 1
        totals.spendingByTag = [Currency(code: "BRL")!: ["casa": 12_345, "lazer": 55]]
        let figures = FamilyFigures.statements(totals, period: YearMonth("2026-10")!)
        #expect(figures.map(\.name) == ["couples", "members", "expenses", "suggested transfers", "spent BRL"])
        #expect(figures.first { $0.name == "expenses" }?.dataset == "expenses")
        #expect(figures.last?.value == "124.00" && figures.last?.unit == "BRL" && figures.last?.shown == "124.00 BRL")
        #expect(Set(figures.map(\.month)) == ["2026-10"])
    }

    @Test("figures are named by family, name and month")
    func identity() {
        let a = RunFigure(family: "kpis", name: "MRR A BRL", month: "2026-10", value: "1")
        var b = a
        b.value = "2"
        #expect(a.identity == b.identity)
        b.month = "2026-09"
        #expect(a.identity != b.identity)
    }
}
