import PropertyBased
import Testing
@testable import TallyCore
@testable import TallyWire

/// The report families' summaries: each survives its line, and merging
/// commutes with the wire, so partial results can travel between processes.
@Suite("Wire: family summaries round-trip and merge through the wire")
struct WireFamilySummaryTests {
    typealias R = WireRandom

    static func rejects(_ g: inout SplitMix64) -> RejectList {
        RejectList((0..<Int.random(in: 0...4, using: &g)).map { _ in
            Reject(dataset: R.of(&g, ["expenses", "checkins"]), file: R.string(&g), line: Int.random(in: 0...99, using: &g),
                   id: R.string(&g), reason: RejectReason(code: R.of(&g, RejectCode.allCases), text: R.string(&g)))
        })
    }

    @Test func statementsSummaries() async {
        let family = StatementsFamily(settings: .init(period: YearMonth("2026-03")!, fx: FxTable()))
        await propertyCheck(count: 100, input: Gen.uint64()) { seed in
            withoutThrowing { () throws in
                var g = SplitMix64(seed: seed)
                let parts = (0..<Int.random(in: 1...6, using: &g)).map { n -> StatementsFamily.Summary in
                    var summary = StatementsFamily.Summary()
                    summary.totals = WirePartialTests.totals(&g)
                    summary.rejects = Self.rejects(&g)
                    if Int.random(in: 0..<4, using: &g) == 0 {
                        summary.problems = [.init(key: PartitionKey("c\(n)"), detail: "couple c\(n): \(R.string(&g))")]
                    }
                    return summary
                }
                for part in parts { #expect(family.finalise(try wireRoundTrip(part)) == family.finalise(part)) }
                let merged = parts.reduce(into: family.emptySummary()) { $0.merge($1) }
                let mergedBack = try parts.reduce(into: family.emptySummary()) { $0.merge(try viaWire($1)) }
                #expect(family.finalise(try viaWire(merged)) == family.finalise(mergedBack))
                #expect(try viaWire(merged).wireLine == mergedBack.wireLine, "equal summaries are equal lines")
            }
        }
    }

    @Test func leaderboardsSummaries() async {
        let family = LeaderboardsFamily(settings: .init(asOf: day("2026-10-31"), timezone: ReportTimeZone(identifier: "UTC")!))
        await propertyCheck(count: 200, input: Gen.uint64()) { seed in
            withoutThrowing { () throws in
                var g = SplitMix64(seed: seed)
                let parts: [LeaderboardsFamily.Summary] = (0..<Int.random(in: 1...5, using: &g)).map { _ in
                    var s = LeaderboardsFamily.Summary()
                    s.boards = R.count(&g)
                    s.users = Int.random(in: 0...9, using: &g)
                    s.counted = R.count(&g)
                    s.rejects = Self.rejects(&g)
                    s.mismatched = (0..<Int.random(in: 0...2, using: &g)).map { _ in PartitionKey(R.string(&g)) }
                    if Bool.random(using: &g) {
                        let leader = Bool.random(using: &g) ? nil : LeaderboardEntry(
                            rank: 1, userId: R.string(&g), displayName: R.string(&g), checkins: R.count(&g), minutes: R.count(&g),
                            rankChange: R.of(&g, [nil, 0, -3, 2]), streaks: Streaks(current: R.count(&g), best: R.count(&g)))
                        s.largest = .init(challengeId: R.string(&g), challengeName: R.string(&g), users: s.users, leader: leader)
                    }
                    return s
                }
                for part in parts { #expect(family.finalise(try wireRoundTrip(part)) == family.finalise(part)) }
                let merged = parts.reduce(into: family.emptySummary()) { $0.merge($1) }
                let mergedBack = try parts.reduce(into: family.emptySummary()) { $0.merge(try viaWire($1)) }
                #expect(family.finalise(try viaWire(merged)) == family.finalise(mergedBack))
            }
        }
    }

    @Test func activitySummaries() async {
        let family = ActivityFamily()
        await propertyCheck(count: 200, input: Gen.uint64()) { seed in
            withoutThrowing { () throws in
                var g = SplitMix64(seed: seed)
                let parts: [ActivityFamily.Summary] = (0..<Int.random(in: 1...5, using: &g)).map { n in
                    var s = ActivityFamily.Summary()
                    s.users = (0..<Int.random(in: 0...3, using: &g)).map { u in
                        ActivitySummary(userId: "\(R.string(&g))-\(n)-\(u)", days: Int.random(in: 1...31, using: &g),
                                        averageScore: Double.random(in: 0...100, using: &g), bestScore: R.of(&g, [0, 100, 33.3]),
                                        daysAt10kSteps: Int.random(in: 0...31, using: &g))
                    }
                    s.userDays = s.users.map(\.days).reduce(0, +)
                    return s
                }
                for part in parts { #expect(family.finalise(try wireRoundTrip(part)) == family.finalise(part)) }
                let merged = parts.reduce(into: family.emptySummary()) { $0.merge($1) }
                let mergedBack = try parts.reduce(into: family.emptySummary()) { $0.merge(try viaWire($1)) }
                #expect(family.finalise(try viaWire(merged)) == family.finalise(mergedBack), "bit for bit, Doubles included")
            }
        }
    }

    @Test func kpiSummaries() async {
        let family = KPIsFamily(settings: .init(subscriptions: WirePartialTests.settings, catalog: WirePartialTests.catalog,
                                                targets: KPIReport.Targets(TallyConfig.KPIs())))
        await propertyCheck(count: 40, input: Gen.uint64()) { seed in
            withoutThrowing { () throws in
                var g = SplitMix64(seed: seed)
                let parts: [KPIsFamily.Summary] = (0..<Int.random(in: 1...3, using: &g)).map { _ in
                    var s = family.emptySummary()
                    s.subscriptions = WirePartialTests.kpis(&g)
                    s.swipes = WirePartialTests.daily(YearMonth("2026-10")!, [1, 2, 3, 500], &g)
                    s.previousSwipes = WirePartialTests.daily(YearMonth("2026-09")!, [1, 7], &g)
                    s.rejects = Self.rejects(&g)
                    return s
                }
                for part in parts {
                    let state = try wireRoundTrip(part.state)
                    #expect(state == part.state)
                    #expect(family.summary(from: state)?.state == part.state)
                }
                let merged = parts.reduce(into: family.emptySummary()) { $0.merge($1) }
                let mergedBack = try parts.reduce(into: family.emptySummary()) {
                    $0.merge(try #require(family.summary(from: try viaWire($1.state))))
                }
                #expect(try viaWire(merged.state) == mergedBack.state)
                #expect(family.finalise(mergedBack).kpis.swipesDaily == family.finalise(merged).kpis.swipesDaily)
            }
        }
    }

    @Test func aKPISummaryOfAnotherPeriodIsNotRestored() {
        let family = KPIsFamily(settings: .init(subscriptions: WirePartialTests.settings, catalog: WirePartialTests.catalog,
                                                targets: KPIReport.Targets(TallyConfig.KPIs())))
        var state = family.emptySummary().state
        #expect(family.summary(from: state) != nil)
        state.swipes = SwipesDailyAccumulator(month: YearMonth("2026-08")!)
        #expect(family.summary(from: state) == nil)
    }
}
