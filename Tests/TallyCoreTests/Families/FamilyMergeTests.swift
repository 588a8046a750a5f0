import PropertyBased
import Testing
@testable import TallyCore

/// The families' merges are associative and commutative, with the empty
/// summary as identity, and finalisation does not depend on the merge order.
@Suite("Report family merges")
struct FamilyMergeTests {
    /// Random statement summaries: each the summary of one random couple's statement,
    /// with random rejects and a reconciliation problem now and then.
    static func statementSummaries(seed: UInt64) -> [StatementsFamily.Summary] {
        var rng = SplitMix64(seed: seed)
        return (0..<Int.random(in: 1...6, using: &rng)).map { n in
            let (ledger, period, fx) = Random.ledger(seed: rng.next())
            let statement = StatementBuilder.build(ledger, period: period, fx: fx)
            var summary = StatementsFamily.Summary()
            summary.totals = StatementTotals(statement)
            summary.rejects = RejectList((0..<Int.random(in: 0...3, using: &rng)).map { line in
                Reject(dataset: "expenses", file: ["expenses/expenses.csv", "expenses/b.csv"].randomElement(using: &rng)!,
                       line: Int.random(in: 2...9, using: &rng), id: "e\(n)-\(line)", reason: RejectReason(code: .fieldEmpty, text: "r\(line)"))
            })
            if Int.random(in: 0..<4, using: &rng) == 0 {
                summary.problems = [.init(key: PartitionKey("c\(n)"), detail: "couple c\(n): does not add up")]
            }
            return summary
        }
    }

    /// Folds `parts` left to right from `empty`.
    static func fold<S: Mergeable>(_ parts: [S], from empty: S) -> S {
        parts.reduce(into: empty) { $0.merge($1) }
    }

    @Test func statementSummariesMergeInAnyGroupingAndOrder() async {
        let family = StatementsFamily(settings: .init(period: YearMonth("2026-03")!, fx: FxTable()))
        await propertyCheck(count: 100, input: Gen.uint64()) { seed in
            let parts = Self.statementSummaries(seed: seed)
            let leftToRight = family.finalise(Self.fold(parts, from: family.emptySummary()))
            var rng = SplitMix64(seed: seed)
            let shuffled = family.finalise(Self.fold(parts.shuffled(using: &rng), from: family.emptySummary()))
            // (a · b) · c against a · (b · c), split at a random point.
            let cut = Int.random(in: 0...parts.count, using: &rng)
            let grouped = Self.fold(Array(parts[..<cut]), from: family.emptySummary())
                .merging(Self.fold(Array(parts[cut...]), from: family.emptySummary()))
            #expect(shuffled == leftToRight, "seed \(seed)")
            #expect(family.finalise(grouped) == leftToRight, "seed \(seed)")
            #expect(family.finalise(family.emptySummary().merging(grouped)) == leftToRight, "the empty summary is the identity")
        }
    }

    @Test func leaderboardSummariesKeepTheLargestBoardWhateverTheOrder() async {
        let family = LeaderboardsFamily(settings: .init(asOf: day("2026-10-31"), timezone: ReportTimeZone(identifier: "UTC")!))
        await propertyCheck(count: 200, input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            let parts: [LeaderboardsFamily.Summary] = (0..<Int.random(in: 1...8, using: &rng)).map { n in
                var s = LeaderboardsFamily.Summary()
                s.boards = 1
                s.users = Int.random(in: 0...4, using: &rng)   // ties on users are common
                s.counted = Int.random(in: 0...50, using: &rng)
                s.largest = .init(challengeId: ["ch\(n)", "Ch\(n)", "ç\(n)"].randomElement(using: &rng)!, challengeName: "C\(n)",
                                  users: s.users, leader: nil)
                if Bool.random(using: &rng) { s.mismatched = [PartitionKey("ch\(n)")] }
                return s
            }
            let expected = family.finalise(Self.fold(parts, from: family.emptySummary()))
            let shuffled = family.finalise(Self.fold(parts.shuffled(using: &rng), from: family.emptySummary()))
            #expect(shuffled == expected, "seed \(seed)")
            let most = parts.compactMap(\.largest).map(\.users).max()
            #expect(expected.largest?.users == most)
            #expect(expected.mismatched == ByteOrder.sorted(expected.mismatched))
        }
    }

    @Test func activityAveragesDoNotDependOnTheMergeOrder() async {
        let family = ActivityFamily()
        await propertyCheck(count: 200, input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            let partitions = (0..<Int.random(in: 1...12, using: &rng)).map { n in
                ActivityFamily.Partition(userId: "u\(n)", days: (1...Int.random(in: 1...5, using: &rng)).map { d in
                    DailyActivity(userId: "u\(n)", date: LocalDate(year: 2026, month: 10, day: d)!,
                                  steps: Double(Int.random(in: 0...20_000, using: &rng)),
                                  activeCalories: Double(Int.random(in: 0...9_000, using: &rng)) / 10,
                                  walkingDistanceKm: Double(Int.random(in: 0...1_500, using: &rng)) / 100)
                })
            }
            let summaries = partitions.map { family.compute($0).summary }
            let expected = family.finalise(Self.fold(summaries, from: family.emptySummary()))
            let shuffled = family.finalise(Self.fold(summaries.shuffled(using: &rng), from: family.emptySummary()))
            #expect(shuffled == expected, "seed \(seed)")   // bit for bit, Doubles included
            #expect(expected.users.map(\.userId) == ByteOrder.sorted(expected.users.map(\.userId)))
            #expect(expected.userDays == partitions.map(\.days.count).reduce(0, +))
        }
    }

    @Test func rejectListsListTheSameRejectsInOneOrder() async {
        await propertyCheck(count: 200, input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            let rejects = (0..<Int.random(in: 0...20, using: &rng)).map { _ in
                Reject(dataset: ["checkins", "expenses"].randomElement(using: &rng)!,
                       file: ["a.csv", "b.csv", "\u{E4}.csv", "a\u{308}.csv"].randomElement(using: &rng)!,
                       line: Int.random(in: 1...4, using: &rng), id: ["x", "y"].randomElement(using: &rng)!,
                       reason: RejectReason(code: [.idEmpty, .fieldEmpty].randomElement(using: &rng)!, text: "r"))
            }
            let one = RejectList(rejects).sorted
            let other = RejectList(rejects.shuffled(using: &rng)).sorted
            #expect(one == other, "a total order: canonically equivalent names stay apart")
        }
    }

    @Test func partitionKeysCompareAsBytes() {
        #expect(PartitionKey("c-10") < PartitionKey("c-9"))
        #expect(PartitionKey("Z") < PartitionKey("a"))
        #expect(PartitionKey("\u{E4}") != PartitionKey("a\u{308}"))
        #expect(PartitionKey("a\u{308}") < PartitionKey("\u{E4}"))
        #expect(PartitionKey(["app", "u1"]) < PartitionKey(["app2", "u0"]), "a composite key's first part sorts first")
    }

    @Test func aFamilyPartialMergesPartitionsComputedApart() {
        let family = ActivityFamily()
        let a = ActivityFamily.Partition(userId: "u2", days: [DailyActivity(userId: "u2", date: day("2026-10-01"), steps: 12_000,
                                                                            activeCalories: 300, walkingDistanceKm: 8)])
        let b = ActivityFamily.Partition(userId: "u1", days: [])
        var left = FamilyPartial(family), right = FamilyPartial(family)
        left.add(family.compute(a))
        right.add(family.compute(b))
        left.merge(right)
        #expect(left.results.map(\.key) == [PartitionKey("u1"), PartitionKey("u2")])
        #expect(left.summary.userDays == 1)
        #expect(family.finalise(left.summary) == family.fold([b, a]).report)
    }
}
