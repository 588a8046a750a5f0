import PropertyBased
import Testing
@testable import TallyCore

@Suite("Subscription event version rule")
struct SubscriptionEventVersionRuleTests {
    typealias Rule = SubscriptionEventVersionRule
    let repeatedId = RowVerdict.rejected(reason: RejectReason(code: .idRepeated, text: "duplicate id in this file (the first row is kept)"))
    let repeatedRow = RowVerdict.rejected(reason: RejectReason(code: .idRepeated, text: "duplicate row in this file"))

    func row(file: Int64, load: Int64, line: Int64, row: Int64, _ source: Rule.Source = .eventLog) -> Rule.Row {
        Rule.Row(file: file, loadSeq: load, line: line, row: row, source: source)
    }

    @Test func withinOneFileTheFirstRowIsKeptAndEachRepeatRejected() {
        let group = [row(file: 1, load: 1, line: 9, row: 1), row(file: 1, load: 1, line: 2, row: 2),
                     row(file: 1, load: 1, line: 5, row: 3)]
        #expect(Rule().verdicts(group) == [repeatedId, .counts, repeatedId])
    }

    @Test func aSubscriberReportWordsItsRepeatsAsRepeatedRowsNamedByUser() {
        let group = [row(file: 2, load: 1, line: 3, row: 1, .subscriberReport), row(file: 2, load: 1, line: 4, row: 2, .subscriberReport)]
        #expect(Rule().verdicts(group) == [.counts, repeatedRow])
        #expect(Rule.Source.subscriberReport.rejectNamesUser && !Rule.Source.eventLog.rejectNamesUser)
    }

    @Test func acrossFilesTheLatestLoadedFilesKeptRowCountsAndTheOthersAreSuperseded() {
        // File 5 loaded before file 3: load order decides, not file ids.
        let group = [row(file: 5, load: 1, line: 2, row: 1), row(file: 3, load: 2, line: 8, row: 2),
                     row(file: 3, load: 2, line: 6, row: 3), row(file: 5, load: 1, line: 4, row: 4)]
        #expect(Rule().verdicts(group) == [.superseded, repeatedId, .counts, repeatedId])
    }

    @Test func aSameLineTieGoesToTheLowerRow() {
        let group = [row(file: 1, load: 1, line: 2, row: 8), row(file: 1, load: 1, line: 2, row: 3)]
        #expect(Rule().verdicts(group) == [repeatedId, .counts])
    }

    @Test func theVerdictsDoNotDependOnTheOrderOfTheGroup() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            let group = (0..<Int.random(in: 1...8, using: &rng)).map { n in
                let file = Int64.random(in: 1...3, using: &rng)
                return row(file: file, load: 4 - file, line: Int64.random(in: 2...4, using: &rng), row: Int64(n),
                           file == 2 ? .subscriberReport : .eventLog)
            }
            let verdicts = Rule().verdicts(group)
            expectOneCounts(verdicts)
            // One row per file holding the id is not rejected.
            #expect(verdicts.filter { if case .rejected = $0 { false } else { true } }.count == Set(group.map(\.file)).count)
            expectOrderIndependent(group, rng: &rng, verdicts: Rule().verdicts)
        }
    }
}
