import PropertyBased
import Testing
@testable import TallyCore

@Suite("Expense version rule")
struct ExpenseVersionRuleTests {
    func version(_ updated: Int64, load: Int64, line: Int64, row: Int64) -> ExpenseVersionRule.Version {
        ExpenseVersionRule.Version(updatedAt: Timestamp(seconds: updated), loadSeq: load, line: line, row: row)
    }

    @Test func theLatestUpdatedAtCountsWhateverItsLoadAndLine() {
        let group = [version(20, load: 1, line: 2, row: 1), version(10, load: 9, line: 90, row: 2)]
        #expect(ExpenseVersionRule().verdicts(group) == [.counts, .superseded])
    }

    @Test func aTieOnUpdatedAtGoesToTheLaterLoad() {
        let group = [version(10, load: 2, line: 3, row: 1), version(10, load: 1, line: 50, row: 2)]
        #expect(ExpenseVersionRule().verdicts(group) == [.counts, .superseded])
    }

    @Test func thenToTheLaterLine() {
        let group = [version(10, load: 2, line: 3, row: 5), version(10, load: 2, line: 4, row: 6), version(9, load: 3, line: 9, row: 7)]
        #expect(ExpenseVersionRule().verdicts(group) == [.superseded, .counts, .superseded])
    }

    @Test func thenToTheLowerRow() {
        let group = [version(10, load: 2, line: 3, row: 8), version(10, load: 2, line: 3, row: 4)]
        #expect(ExpenseVersionRule().verdicts(group) == [.superseded, .counts])
    }

    @Test func aLoneVersionCountsAndAnEmptyGroupHasNoVerdicts() {
        #expect(ExpenseVersionRule().verdicts([version(1, load: 1, line: 2, row: 1)]) == [.counts])
        #expect(ExpenseVersionRule().verdicts([]) == [])
    }

    @Test func theVerdictsDoNotDependOnTheOrderOfTheGroup() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            // Few distinct values, so that every tie-breaker is reached.
            let group = (0..<Int.random(in: 1...8, using: &rng)).map { n in
                version(Int64.random(in: 0...2, using: &rng), load: Int64.random(in: 1...3, using: &rng),
                        line: Int64.random(in: 2...4, using: &rng), row: Int64(n))
            }
            expectOneCounts(ExpenseVersionRule().verdicts(group))
            expectOrderIndependent(group, rng: &rng, verdicts: ExpenseVersionRule().verdicts)
        }
    }
}
