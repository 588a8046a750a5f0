import PropertyBased
import Testing
@testable import TallyCore

/// ``WhichRowsCount``: the one stage that applies a row rule to a key's group.
@Suite("Which rows count: the stage every transport judges a key's rows with")
struct WhichRowsCountTests {
    /// A row a transport holds: its key, what it carries, and what the rules compare.
    struct Held: Hashable {
        var key: Int
        var name: String
        var file: Int64
        var line: Int64
        var updatedAt: Int64
        var fromReport: Bool
    }

    /// Random rows over a few keys, files, lines and instants (so every tie-breaker is reached).
    static func rows(_ rng: inout SplitMix64, keys: Int = 3) -> [Held] {
        (0..<Int.random(in: 0...14, using: &rng)).map { n in
            Held(key: Int.random(in: 0..<keys, using: &rng), name: "r\(n)", file: Int64.random(in: 1...3, using: &rng),
                 line: Int64.random(in: 2...5, using: &rng), updatedAt: Int64.random(in: 0...2, using: &rng),
                 fromReport: Bool.random(using: &rng))
        }
    }

    static func reference(_ i: Int, _ r: Held) -> ReferenceRowRule.Row {
        ReferenceRowRule.Row(file: r.file, loadSeq: r.file, line: r.line, row: Int64(i))
    }

    static func expense(_ i: Int, _ r: Held) -> ExpenseVersionRule.Version {
        ExpenseVersionRule.Version(updatedAt: Timestamp(seconds: r.updatedAt), loadSeq: r.file, line: r.line, row: Int64(i))
    }

    static func swipe(_ i: Int, _ r: Held) -> SwipeVersionRule.Row {
        SwipeVersionRule.Row(loadSeq: r.file, line: r.line, row: Int64(i))
    }

    static func event(_ i: Int, _ r: Held) -> SubscriptionEventVersionRule.Row {
        SubscriptionEventVersionRule.Row(file: r.file, loadSeq: r.file, line: r.line, row: Int64(i),
                                         source: r.fromReport ? .subscriberReport : .eventLog)
    }

    static func day(_ i: Int, _ r: Held) -> ActivityDayRule.Row {
        ActivityDayRule.Row(fromExport: r.fromReport, loadSeq: r.file, line: r.line)
    }

    /// Checks the stage's outcomes for `group` against `rule`'s own verdicts:
    /// every item lands in exactly one outcome, the one its verdict names,
    /// each outcome in the group's order, and one item counts.
    func expectSorted<Rule: RowRule>(_ group: [Held], by rule: Rule, describe: (Int, Held) -> Rule.Row,
                                     sourceLocation: SourceLocation = #_sourceLocation) {
        let outcomes = WhichRowsCount.sort(group, by: rule, describe: describe)
        let verdicts = group.count == 1 ? [.counts] : rule.verdicts(group.enumerated().map { describe($0, $1) })
        let position = Dictionary(uniqueKeysWithValues: group.enumerated().map { ($1.name, $0) })
        let expected = { (keep: (RowVerdict) -> Bool) in zip(group, verdicts).filter { keep($1) }.map(\.0.name) }
        #expect(outcomes.counted.map(\.name) == expected { $0 == .counts }, sourceLocation: sourceLocation)
        #expect(outcomes.superseded.map(\.name) == expected { $0 == .superseded }, sourceLocation: sourceLocation)
        #expect(outcomes.rejected.map { $0.item.name } == expected { if case .rejected = $0 { true } else { false } },
                sourceLocation: sourceLocation)
        let landed = outcomes.counted + outcomes.superseded + outcomes.rejected.map(\.item)
        #expect(landed.count == group.count && Set(landed) == Set(group), sourceLocation: sourceLocation)
        for list in [outcomes.counted, outcomes.superseded, outcomes.rejected.map(\.item)] {
            #expect(list.map { position[$0.name]! } == list.map { position[$0.name]! }.sorted(), sourceLocation: sourceLocation)
        }
        #expect(outcomes.counted.count == (group.isEmpty ? 0 : 1), sourceLocation: sourceLocation)
    }

    @Test func everyItemLandsInExactlyOneOutcomeInTheGroupsOrder() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            let group = Self.rows(&rng, keys: 1)
            expectSorted(group, by: ReferenceRowRule(key: "id"), describe: Self.reference)
            expectSorted(group, by: ExpenseVersionRule(), describe: Self.expense)
            expectSorted(group, by: SwipeVersionRule(), describe: Self.swipe)
            expectSorted(group, by: SubscriptionEventVersionRule(), describe: Self.event)
            expectSorted(group, by: ActivityDayRule(), describe: Self.day)
        }
    }

    @Test func aVersionRuleCountsOneRowPerKey() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            let rows = Self.rows(&rng)
            for group in KeyGroups.split(rows, key: { [UInt8($0.key)] }) {
                #expect(WhichRowsCount.sort(group, by: ReferenceRowRule(key: "id"), describe: Self.reference).counted.count == 1)
                #expect(WhichRowsCount.sort(group, by: ExpenseVersionRule(), describe: Self.expense).counted.count == 1)
                #expect(WhichRowsCount.sort(group, by: SwipeVersionRule(), describe: Self.swipe).counted.count == 1)
                #expect(WhichRowsCount.sort(group, by: SubscriptionEventVersionRule(), describe: Self.event).counted.count == 1)
                #expect(WhichRowsCount.sort(group, by: ActivityDayRule(), describe: Self.day).counted.count == 1)
            }
        }
    }

    @Test func aRowAloneCountsAndAnEmptyGroupHasNoOutcomes() {
        let alone = Held(key: 0, name: "a", file: 1, line: 2, updatedAt: 0, fromReport: false)
        var described = 0
        let one = WhichRowsCount.sort([alone], by: ReferenceRowRule(key: "id")) { i, r in
            described += 1
            return Self.reference(i, r)
        }
        #expect(one.counted == [alone] && one.superseded.isEmpty && one.rejected.isEmpty)
        #expect(described == 0)
        #expect(ReferenceRowRule(key: "id").verdicts([Self.reference(0, alone)]) == [.counts])
        let none = WhichRowsCount.sort([Held](), by: ExpenseVersionRule(), describe: Self.expense)
        #expect(none.counted.isEmpty && none.superseded.isEmpty && none.rejected.isEmpty)
    }

    @Test func aRejectCarriesItsRulesReason() {
        let first = Held(key: 0, name: "first", file: 1, line: 2, updatedAt: 0, fromReport: false)
        let again = Held(key: 0, name: "again", file: 1, line: 7, updatedAt: 0, fromReport: false)
        let outcomes = WhichRowsCount.sort([again, first], by: ReferenceRowRule(key: "productId"), describe: Self.reference)
        #expect(outcomes.counted == [first])
        #expect(outcomes.rejected.map(\.item) == [again])
        #expect(outcomes.rejected.map(\.reason) == [ReferenceRowRule.repeatReason(key: "productId")])
    }

    /// A store holding one row per key judges each arriving row against the
    /// row it holds, a group of two (the warehouse's upsert of reference
    /// rows): rows arrive in load order (files, then lines). The row left
    /// held is the group's counted row; each row the pair refuses or sets
    /// aside has the outcome the whole group gives it.
    func expectPairwiseFoldEqualsTheGroup<Rule: RowRule>(_ group: [Held], by rule: Rule, describe: @escaping (Int, Held) -> Rule.Row,
                                                         sourceLocation: SourceLocation = #_sourceLocation) {
        let index = Dictionary(uniqueKeysWithValues: group.enumerated().map { ($1.name, $0) })
        // The rule sees each row as the whole group does (its `row` is its place in the group).
        let seen = { (_: Int, r: Held) in describe(index[r.name]!, r) }
        let whole = WhichRowsCount.sort(group, by: rule, describe: seen)
        var held: Held?
        var superseded: [Held] = []
        var rejected: [Held] = []
        for arriving in group.sorted(by: { ($0.file, $0.line, index[$0.name]!) < ($1.file, $1.line, index[$1.name]!) }) {
            guard let h = held else { held = arriving; continue }
            let pair = WhichRowsCount.sort([h, arriving], by: rule, describe: seen)
            held = pair.counted.first
            superseded += pair.superseded
            rejected += pair.rejected.map(\.item)
        }
        #expect(held.map { [$0] } ?? [] == whole.counted, sourceLocation: sourceLocation)
        #expect(Set(superseded) == Set(whole.superseded), sourceLocation: sourceLocation)
        #expect(Set(rejected) == Set(whole.rejected.map(\.item)), sourceLocation: sourceLocation)
    }

    @Test func judgingEachArrivalAgainstTheHeldRowEqualsTheWholeGroup() async {
        await propertyCheck(count: 500, input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            let group = Self.rows(&rng, keys: 1)
            expectPairwiseFoldEqualsTheGroup(group, by: ReferenceRowRule(key: "id"), describe: Self.reference)
            expectPairwiseFoldEqualsTheGroup(group, by: SubscriptionEventVersionRule(), describe: Self.event)
            // The rules that rank (FirstByRanking): the pair's winner is the group's.
            expectPairwiseFoldEqualsTheGroup(group, by: ExpenseVersionRule(), describe: Self.expense)
            expectPairwiseFoldEqualsTheGroup(group, by: SwipeVersionRule(), describe: Self.swipe)
        }
    }

    func checkin(_ id: String, at seconds: Int64) -> DuplicateWorkoutRule.Checkin {
        DuplicateWorkoutRule.Checkin(createdAt: Timestamp(seconds: seconds), path: Array("c.csv".utf8), line: 2, id: Array(id.utf8))
    }

    @Test func duplicatesNameTheirOriginalInTheGroupsOrder() {
        let marked = WhichRowsCount.duplicates([("b", 20), ("a", 10), ("c", 30)] as [(String, Int64)]) { checkin($0.0, at: $0.1) }
        #expect(marked.map(\.item.0) == ["b", "a", "c"])
        #expect(marked.map { $0.original?.0 } == ["a", nil, "a"])
        let alone = WhichRowsCount.duplicates(["x"]) { checkin($0, at: 1) }
        #expect(alone.count == 1 && alone[0].item == "x" && alone[0].original == nil)
        #expect(WhichRowsCount.duplicates([String]()) { checkin($0, at: 1) }.isEmpty)
    }

    @Test func duplicatesAgreeWithTheRule() async {
        await propertyCheck(count: 200, input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            let group = (0..<Int.random(in: 2...8, using: &rng)).map { n in checkin("id\(n)", at: Int64.random(in: 0...3, using: &rng)) }
            let marked = WhichRowsCount.duplicates(group) { $0 }
            let verdicts = DuplicateWorkoutRule.verdicts(group)
            #expect(marked.map(\.item) == group)
            for (m, verdict) in zip(marked, verdicts) {
                switch verdict {
                case .original: #expect(m.original == nil)
                case .duplicate(let i): #expect(m.original == group[i])
                }
            }
            #expect(marked.filter { $0.original == nil }.count == 1)
        }
    }
}
