import PropertyBased
import Testing
@testable import TallyCore

/// The policy of keyed tables (couples, members, products, check-ins, …).
@Suite("ReferenceRowRule: first row per file, latest file across files, identical rows left in place")
struct ReferenceRowRuleTests {
    func row(file: Int64, line: Int64, row: Int64, content: Int64? = nil) -> ReferenceRowRule.Row {
        ReferenceRowRule.Row(file: file, loadSeq: file, line: line, row: row, content: content)
    }

    @Test func aRepeatWithinAFileIsRejectedAndTheFirstRowKept() {
        let group = [row(file: 1, line: 8, row: 1), row(file: 1, line: 2, row: 2), row(file: 1, line: 5, row: 3)]
        let reason = ReferenceRowRule.repeatReason(key: "id")
        #expect(ReferenceRowRule(key: "id").verdicts(group) == [.rejected(reason: reason), .counts, .rejected(reason: reason)])
        #expect(reason == RejectReason(code: .idRepeated, text: "duplicate id in this file (the first row is kept)"))
    }

    @Test func theLatestLoadedFilesFirstRowCountsAndEarlierFilesAreSuperseded() {
        let group = [row(file: 1, line: 2, row: 1), row(file: 3, line: 9, row: 2), row(file: 3, line: 4, row: 3),
                     row(file: 2, line: 7, row: 4)]
        #expect(ReferenceRowRule(key: "id").verdicts(group)
                == [.superseded, .rejected(reason: ReferenceRowRule.repeatReason(key: "id")), .counts, .superseded])
    }

    @Test func loadOrderDecidesBeforeTheFileId() {
        let early = ReferenceRowRule.Row(file: 9, loadSeq: 1, line: 2, row: 1)
        let late = ReferenceRowRule.Row(file: 4, loadSeq: 2, line: 2, row: 2)
        #expect(ReferenceRowRule(key: "id").verdicts([early, late]) == [.superseded, .counts])
    }

    @Test func anIdenticalRowOfALaterFileLeavesTheEarlierOneCounting() {
        let group = [row(file: 1, line: 2, row: 1, content: 7), row(file: 2, line: 5, row: 2, content: 7),
                     row(file: 3, line: 3, row: 3, content: 7)]
        #expect(ReferenceRowRule(key: "id").verdicts(group) == [.counts, .superseded, .superseded])
    }

    @Test func onlyTheUnbrokenRunOfIdenticalRowsAtTheEndCounts() {
        // January and March agree, February differs: March's row counts, as the latest change.
        let changedBack = [row(file: 1, line: 2, row: 1, content: 7), row(file: 2, line: 2, row: 2, content: 8),
                           row(file: 3, line: 2, row: 3, content: 7)]
        #expect(ReferenceRowRule(key: "id").verdicts(changedBack) == [.superseded, .superseded, .counts])
        // A change, then a copy of it: the changed row counts.
        let changedThenCopied = [row(file: 1, line: 2, row: 1, content: 7), row(file: 2, line: 4, row: 2, content: 8),
                                 row(file: 3, line: 6, row: 3, content: 8)]
        #expect(ReferenceRowRule(key: "id").verdicts(changedThenCopied) == [.superseded, .counts, .superseded])
    }

    @Test func rowsWithoutContentAreNeverIdentical() {
        let group = [row(file: 1, line: 2, row: 1), row(file: 2, line: 2, row: 2)]
        #expect(ReferenceRowRule(key: "id").verdicts(group) == [.superseded, .counts])
    }

    @Test func aRejectedRepeatsContentDoesNotCount() {
        // File 2's first row differs from file 1's; its later repeat, identical to file 1's, is rejected.
        let group = [row(file: 1, line: 2, row: 1, content: 7), row(file: 2, line: 2, row: 2, content: 8),
                     row(file: 2, line: 3, row: 3, content: 7)]
        #expect(ReferenceRowRule(key: "id").verdicts(group)
                == [.superseded, .counts, .rejected(reason: ReferenceRowRule.repeatReason(key: "id"))])
    }

    /// Random groups over a few files and lines, with two contents (or none, as check-ins).
    func randomGroup(_ rng: inout SplitMix64) -> [ReferenceRowRule.Row] {
        let contents = Bool.random(using: &rng)
        return (0..<Int.random(in: 1...9, using: &rng)).map { n in
            row(file: Int64.random(in: 1...3, using: &rng), line: Int64.random(in: 2...5, using: &rng), row: Int64(n),
                content: contents ? Int64.random(in: 1...2, using: &rng) : nil)
        }
    }

    @Test func theVerdictsDoNotDependOnTheOrderOfTheGroup() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            let group = randomGroup(&rng)
            let verdicts = ReferenceRowRule(key: "id").verdicts(group)
            expectOneCounts(verdicts)
            // Each file keeps exactly one row; the others of that file are rejected.
            for file in Set(group.map(\.file)) {
                let kept = zip(group, verdicts).filter { $0.0.file == file && $0.1 != .rejected(reason: ReferenceRowRule.repeatReason(key: "id")) }
                #expect(kept.count == 1)
            }
            expectOrderIndependent(group, rng: &rng) { ReferenceRowRule(key: "id").verdicts($0) }
        }
    }

    /// A store that holds one row per key judges each arriving row (files in
    /// load order, lines in order) against its own file's first row of the
    /// key when there is one, else against the row it holds, with the rule
    /// on that pair. The warehouse's upsert works so (a file's rows are
    /// staged, its repeats found in the staging); this is why it equals the
    /// rule over the whole group: the row left held counts, every row
    /// refused on arrival is rejected or (identical) superseded, every row
    /// replaced is superseded.
    @Test func judgingEachArrivalAgainstTheHeldRowEqualsTheWholeGroup() async {
        await propertyCheck(count: 500, input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            let group = randomGroup(&rng)
            let whole = ReferenceRowRule(key: "id").verdicts(group)

            var folded = [RowVerdict?](repeating: nil, count: group.count)
            var held: Int?
            var firstOfFile: [Int64: Int] = [:]
            for i in group.indices.sorted(by: { (group[$0].loadSeq, group[$0].line, group[$0].row) < (group[$1].loadSeq, group[$1].line, group[$1].row) }) {
                if let first = firstOfFile[group[i].file] {
                    folded[i] = ReferenceRowRule(key: "id").verdicts([group[first], group[i]])[1]
                    continue
                }
                firstOfFile[group[i].file] = i
                guard let h = held else { held = i; continue }
                let pair = ReferenceRowRule(key: "id").verdicts([group[h], group[i]])
                switch pair[1] {
                case .counts:
                    folded[h] = pair[0]
                    held = i
                case .rejected, .superseded:
                    folded[i] = pair[1]
                }
            }
            if let held { folded[held] = .counts }
            #expect(folded == whole.map { Optional($0) }, "seed \(seed)")
        }
    }
}
