import PropertyBased
import Testing
@testable import TallyCore

/// The version policy of swipes (``SwipeVersionRule`` is its name for the table).
@Suite("Latest load, first line: the swipe version rule")
struct LatestLoadFirstLineTests {
    func row(load: Int64, line: Int64, row: Int64) -> LatestLoadFirstLine.Row {
        LatestLoadFirstLine.Row(loadSeq: load, line: line, row: row)
    }

    @Test func theLatestLoadedFilesRowCounts() {
        let group = [row(load: 1, line: 2, row: 1), row(load: 3, line: 40, row: 2), row(load: 2, line: 5, row: 3)]
        #expect(LatestLoadFirstLine().verdicts(group) == [.superseded, .counts, .superseded])
    }

    @Test func withinThatFileTheFirstLine() {
        let group = [row(load: 3, line: 9, row: 1), row(load: 3, line: 4, row: 2)]
        #expect(LatestLoadFirstLine().verdicts(group) == [.superseded, .counts])
    }

    @Test func thenTheLowerRow() {
        let group = [row(load: 3, line: 4, row: 7), row(load: 3, line: 4, row: 2)]
        #expect(LatestLoadFirstLine().verdicts(group) == [.superseded, .counts])
    }

    @Test func theVerdictsDoNotDependOnTheOrderOfTheGroup() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            let group = (0..<Int.random(in: 1...8, using: &rng)).map { n in
                row(load: Int64.random(in: 1...3, using: &rng), line: Int64.random(in: 2...4, using: &rng), row: Int64(n))
            }
            expectOneCounts(LatestLoadFirstLine().verdicts(group))
            expectOrderIndependent(group, rng: &rng, verdicts: LatestLoadFirstLine().verdicts)
        }
    }
}
