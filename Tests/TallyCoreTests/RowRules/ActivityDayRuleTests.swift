import PropertyBased
import Testing
@testable import TallyCore

/// ``ActivityDayRule``: an export's day, then the later load, then the later line.
@Suite("Activity day rule")
struct ActivityDayRuleTests {
    private func csv(load: Int64, line: Int64) -> ActivityDayRule.Row { .init(fromExport: false, loadSeq: load, line: line) }
    private func export(load: Int64) -> ActivityDayRule.Row { .init(fromExport: true, loadSeq: load, line: 0) }

    /// The rule applied to `rows` by the stage: the counted row and the superseded ones.
    static func judge(_ rows: [ActivityDayRule.Row]) -> (counted: ActivityDayRule.Row?, superseded: [ActivityDayRule.Row]) {
        let outcomes = WhichRowsCount.sort(rows, by: ActivityDayRule()) { _, row in row }
        #expect(outcomes.counted.count == 1 && outcomes.rejected.isEmpty)
        return (outcomes.counted.first, outcomes.superseded)
    }

    @Test func anExportDayOutranksEveryTableRowWhateverItsLoad() {
        let verdict = Self.judge([csv(load: 9, line: 100), export(load: 1), csv(load: 1, line: 2)])
        #expect(verdict.counted == export(load: 1))
        #expect(verdict.superseded == [csv(load: 9, line: 100), csv(load: 1, line: 2)])
    }

    @Test func theLaterLoadOutranksALaterLine() {
        let verdict = Self.judge([csv(load: 1, line: 50), csv(load: 2, line: 3)])
        #expect(verdict.counted == csv(load: 2, line: 3))
        #expect(verdict.superseded == [csv(load: 1, line: 50)])
    }

    @Test func withinALoadTheLaterLineCounts() {
        let verdict = Self.judge([csv(load: 4, line: 8), csv(load: 4, line: 9)])
        #expect(verdict.counted == csv(load: 4, line: 9))
        #expect(verdict.superseded == [csv(load: 4, line: 8)])
    }

    @Test func aLaterExportOutranksAnEarlierOne() {
        let verdict = Self.judge([export(load: 3), export(load: 5)])
        #expect(verdict.counted == export(load: 5))
    }

    @Test func aRowAloneCounts() {
        let verdict = Self.judge([csv(load: 1, line: 1)])
        #expect(verdict.counted == csv(load: 1, line: 1) && verdict.superseded.isEmpty)
    }

    @Test func itemsKeepWhatTheCallerAttached() {
        let outcomes = WhichRowsCount.sort([("a", csv(load: 1, line: 1)), ("b", export(load: 1))], by: ActivityDayRule()) { $1.1 }
        #expect(outcomes.counted.map(\.0) == ["b"] && outcomes.superseded.map(\.0) == ["a"])
    }

    @Test func rowsOfEqualRankAreOneRowTheFirstCounts() {
        #expect(ActivityDayRule().verdicts([csv(load: 2, line: 4), csv(load: 2, line: 4)]) == [.counts, .superseded])
    }

    /// A group of distinct rows drawn from `seed`.
    static func group(seed: UInt64) -> [ActivityDayRule.Row] {
        var rng = SplitMix64(seed: seed)
        var rows: Set<ActivityDayRule.Row> = []
        for _ in 0..<Int.random(in: 1...12, using: &rng) {
            let fromExport = Int.random(in: 0..<4, using: &rng) == 0
            rows.insert(.init(fromExport: fromExport, loadSeq: Int64.random(in: 1...4, using: &rng),
                              line: fromExport ? 0 : Int64.random(in: 1...6, using: &rng)))
        }
        return Array(rows)
    }

    @Test func theVerdictDoesNotDependOnTheOrderOfTheGroup() async {
        await propertyCheck(count: 500, input: Gen.uint64(), Gen.uint64()) { seed, shuffle in
            let rows = Self.group(seed: seed)
            var rng = SplitMix64(seed: shuffle)
            let a = Self.judge(rows)
            let b = Self.judge(rows.shuffled(using: &rng))
            #expect(a.counted == b.counted && Set(a.superseded) == Set(b.superseded), "seed \(seed)")
        }
    }

    @Test func theCountedRowIsTheGreatestAndEveryOtherIsSuperseded() async {
        await propertyCheck(count: 500, input: Gen.uint64()) { seed in
            let rows = Self.group(seed: seed)
            let verdict = Self.judge(rows)
            guard let counted = verdict.counted else { return }
            #expect(rows.allSatisfy { $0 <= counted })
            #expect(Set(verdict.superseded + [counted]) == Set(rows) && verdict.superseded.count == rows.count - 1)
            if rows.contains(where: \.fromExport) { #expect(counted.fromExport) }
        }
    }
}
