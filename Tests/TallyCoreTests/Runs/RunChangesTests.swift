import Testing
@testable import TallyCore

/// What moved, what was restated and what is flagged, between two runs' figures.
@Suite("Run changes")
struct RunChangesTests {
    let october = YearMonth("2026-10")!
    let september = YearMonth("2026-09")!

    func count(_ name: String, _ month: String, _ value: Int, dataset: String? = nil, family: String = "statements") -> RunFigure {
        RunFigure(family: family, name: name, month: month, value: "\(value)", dataset: dataset)
    }

    @Test("a figure of the period against the previous month's run: moved, with its change and share")
    func moved() {
        let now = [count("couples", "2026-10", 21), RunFigure(family: "statements", name: "spent BRL", month: "2026-10", value: "110.50", unit: "BRL")]
        let then = [count("couples", "2026-09", 20), RunFigure(family: "statements", name: "spent BRL", month: "2026-09", value: "100", unit: "BRL")]
        let changes = RunChanges.between(now, period: october, previous: (september, then), thresholds: .init())
        #expect(changes.against == "2026-09")
        #expect(changes.moved == [
            .init(family: "statements", name: "couples", unit: "", previous: "20", current: "21", change: "+1", percent: "+5.0%"),
            .init(family: "statements", name: "spent BRL", unit: "BRL", previous: "100", current: "110.50", change: "+10.50", percent: "+10.5%"),
        ])
        #expect(changes.restated.isEmpty && changes.flags.isEmpty)
    }

    @Test("equal figures move nothing; a run with a previous one still says what it compared against")
    func nothingMoved() {
        let figures = [count("couples", "2026-10", 20)]
        let changes = RunChanges.between(figures, period: october, previous: (september, [count("couples", "2026-09", 20)]),
                                         thresholds: .init())
        #expect(changes.isEmpty)
        #expect(changes.against == "2026-09")
    }

    @Test("a month's figure the previous run published with another value is restated; a rate's change is in points")
    func restated() {
        let now = [RunFigure(family: "kpis", name: "MRR A BRL", month: "2026-09", value: "8100.00", unit: "BRL"),
                   RunFigure(family: "kpis", name: "Churn A", month: "2026-09", value: "5.5", unit: "%"),
                   count("Swipes A", "2026-09", 10, family: "kpis")]
        let then = [RunFigure(family: "kpis", name: "MRR A BRL", month: "2026-09", value: "8004.00", unit: "BRL"),
                    RunFigure(family: "kpis", name: "Churn A", month: "2026-09", value: "7", unit: "%"),
                    count("Swipes A", "2026-09", 10, family: "kpis")]
        let changes = RunChanges.between(now, period: october, previous: (september, then), thresholds: .init())
        #expect(changes.restated == [
            .init(family: "kpis", name: "MRR A BRL", month: "2026-09", unit: "BRL", published: "8004.00", now: "8100.00", change: "+96.00"),
            .init(family: "kpis", name: "Churn A", month: "2026-09", unit: "%", published: "7", now: "5.5", change: "-1.5 pp"),
        ])
        // Figures of the period are compared with the previous period's, not restated against them.
        #expect(changes.moved.isEmpty)
    }

    @Test("a rerun of the same period: what changed since its reports were published is restated, nothing moved")
    func rerun() {
        let changes = RunChanges.between([count("expenses", "2026-10", 223, dataset: "expenses")], period: october,
                                         previous: (october, [count("expenses", "2026-10", 222, dataset: "expenses")]),
                                         thresholds: .init())
        #expect(changes.moved.isEmpty)
        #expect(changes.restated.map(\.change) == ["+1"])
    }

    @Test("a dataset with no rows in the period is flagged, with or without a previous run")
    func empty() {
        let figures = [count("Swipes", "2026-10", 0, dataset: "swipes", family: "kpis"), count("couples", "2026-10", 0)]
        for previous in [nil, (september, [RunFigure]())] as [(YearMonth, [RunFigure])?] {
            let changes = RunChanges.between(figures, period: october, previous: previous, thresholds: .init())
            #expect(changes.flags.map(\.kind) == [.empty], "only figures that count a dataset are volumes")
            #expect(changes.flags.first?.dataset == "swipes")
            #expect(changes.flags.first?.message.contains("no rows dated in 2026-10") == true)
        }
    }

    @Test("a volume beyond the threshold against the month before is flagged: this run's own figure first, else the last run's")
    func volume() {
        let thresholds = RunChanges.Thresholds(volumeChange: 0.5, minimumRows: 100)
        // This run's own last-month figure (the KPIs give one).
        let own = [count("Swipes", "2026-10", 400, dataset: "swipes", family: "kpis"), count("Swipes", "2026-09", 1000, dataset: "swipes", family: "kpis")]
        let flagged = RunChanges.between(own, period: october, previous: nil, thresholds: thresholds).flags
        #expect(flagged.map(\.kind) == [.volume])
        #expect(flagged.first?.message == "swipes: 400 rows dated in 2026-10 against 1000 in 2026-09 (-60.0%, beyond ±50.0%)")
        // The previous run's figure of the month before.
        let jump = RunChanges.between([count("expenses", "2026-10", 301, dataset: "expenses")], period: october,
                                      previous: (september, [count("expenses", "2026-09", 200, dataset: "expenses")]),
                                      thresholds: thresholds)
        #expect(jump.flags.map(\.kind) == [.volume])
        // Within the threshold, or too small to judge, or no month before: quiet.
        let quiet: [([RunFigure], (YearMonth, [RunFigure])?)] = [
            ([count("expenses", "2026-10", 300, dataset: "expenses")], (september, [count("expenses", "2026-09", 200, dataset: "expenses")])),
            ([count("expenses", "2026-10", 90, dataset: "expenses")], (september, [count("expenses", "2026-09", 20, dataset: "expenses")])),
            ([count("expenses", "2026-10", 900, dataset: "expenses")], (YearMonth("2026-08")!, [count("expenses", "2026-08", 20, dataset: "expenses")])),
            ([count("expenses", "2026-10", 900, dataset: "expenses")], nil),
        ]
        for (figures, previous) in quiet {
            #expect(RunChanges.between(figures, period: october, previous: previous, thresholds: thresholds).flags.isEmpty)
        }
        // A tighter threshold flags what the default lets pass.
        let tight = RunChanges.between(quiet[0].0, period: october, previous: quiet[0].1,
                                       thresholds: .init(volumeChange: 0.25, minimumRows: 100))
        #expect(tight.flags.map(\.kind) == [.volume])
    }

    @Test("no previous run and nothing flagged: nothing to say")
    func nothing() {
        let changes = RunChanges.between([count("couples", "2026-10", 3)], period: october, previous: nil, thresholds: .init())
        #expect(changes.isEmpty && changes.against == nil)
    }

    @Test("differences are exact across scales and units must agree")
    func exactDifferences() {
        let a = RunFigure(family: "f", name: "n", month: "2026-10", value: "0.30", unit: "BRL")
        let b = RunFigure(family: "f", name: "n", month: "2026-10", value: "0.1", unit: "BRL")
        #expect(RunChanges.difference(a, b)?.text == "+0.20")
        #expect(RunChanges.difference(a, b)?.percent == "+200.0%")
        #expect(RunChanges.difference(a, a) == nil)
        var usd = b
        usd.unit = "USD"
        #expect(RunChanges.difference(a, usd) == nil)
        #expect(RunChanges.difference(a, RunFigure(family: "f", name: "n", month: "2026-10", value: "0", unit: "BRL"))?.percent == nil)
    }
}
