import PropertyBased
import Testing
@testable import TallyCore

@Suite("Swipe version rule")
struct SwipeVersionRuleTests {
    func row(load: Int64, line: Int64, row: Int64) -> SwipeVersionRule.Row {
        SwipeVersionRule.Row(loadSeq: load, line: line, row: row)
    }

    @Test func theLatestLoadedFileHoldingTheIdCounts() {
        let group = [row(load: 4, line: 100, row: 1), row(load: 2, line: 1, row: 2)]
        #expect(SwipeVersionRule.verdicts(group) == [.counts, .superseded])
    }

    @Test func withinThatFileItsFirstLineThenTheLowerRow() {
        let group = [row(load: 4, line: 7, row: 1), row(load: 4, line: 3, row: 9), row(load: 4, line: 3, row: 5)]
        #expect(SwipeVersionRule.verdicts(group) == [.superseded, .superseded, .counts])
    }

    @Test func theVerdictsDoNotDependOnTheOrderOfTheGroup() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            var rng = SplitMix(seed: seed)
            let group = (0..<Int.random(in: 1...8, using: &rng)).map { n in
                row(load: Int64.random(in: 1...3, using: &rng), line: Int64.random(in: 1...3, using: &rng), row: Int64(n))
            }
            expectOneCounts(SwipeVersionRule.verdicts(group))
            expectOrderIndependent(group, rng: &rng, verdicts: SwipeVersionRule.verdicts)
        }
    }
}
