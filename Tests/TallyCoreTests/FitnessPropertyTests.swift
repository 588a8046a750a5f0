import PropertyBased
import Testing
@testable import TallyCore

@Suite("Fitness properties")
struct FitnessPropertyTests {
    /// Random counted check-ins of up to 8 users over October.
    static func checkins(seed: UInt64) -> [CountedCheckin] {
        var rng = SplitMix64(seed: seed)
        return (0..<Int.random(in: 0...60, using: &rng)).map { _ in
            let d = String(format: "2026-10-%02d", Int.random(in: 1...31, using: &rng))
            return counted("u\(Int.random(in: 0..<8, using: &rng))", d, minutes: 30 * Int.random(in: 1...3, using: &rng))
        }
    }

    @Test func aRankIsOnePlusTheUsersStrictlyAhead() async {
        await propertyCheck(count: 300, input: Gen.uint64(), Gen.int(in: 1...31)) { seed, asOfDay in
            let asOf = LocalDate(year: 2026, month: 10, day: asOfDay)!
            let board = LeaderboardBuilder.build(challenge: challengeC1, counted: Self.checkins(seed: seed), asOf: asOf,
                                                 rankChangeDays: 7)
            for e in board.entries {
                let ahead = board.entries.filter { ($0.checkins, $0.minutes) > (e.checkins, e.minutes) }.count
                #expect(e.rank == ahead + 1, "seed \(seed)")
                #expect(e.checkins > 0 && e.streaks.best >= e.streaks.current && e.streaks.best >= 1)
            }
            #expect(board.entries.map(\.rank) == board.entries.map(\.rank).sorted())
        }
    }

    @Test func rankChangeIsTheEarlierRankMinusTheCurrent() async {
        await propertyCheck(count: 200, input: Gen.uint64()) { seed in
            let counted = Self.checkins(seed: seed)
            let now = LeaderboardBuilder.build(challenge: challengeC1, counted: counted, asOf: day("2026-10-31"), rankChangeDays: 7)
            let then = LeaderboardBuilder.build(challenge: challengeC1, counted: counted, asOf: day("2026-10-24"), rankChangeDays: 7)
            let earlier = Dictionary(uniqueKeysWithValues: then.entries.map { ($0.userId, $0.rank) })
            for e in now.entries { #expect(e.rankChange == earlier[e.userId].map { $0 - e.rank }, "seed \(seed)") }
        }
    }

    @Test func aScoreStaysWithin0And100AndGrowsWithEachInput() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...40_000), Gen.int(in: 0...2_000), Gen.int(in: 0...30)) { steps, kcal, km in
            let s = ActivityScore.score(steps: Double(steps), activeCalories: Double(kcal), km: Double(km))
            #expect(s >= 0 && s <= 100)
            #expect(ActivityScore.score(steps: Double(steps + 100), activeCalories: Double(kcal), km: Double(km)) >= s)
        }
    }
}
