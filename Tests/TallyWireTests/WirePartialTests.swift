import PropertyBased
import Testing
@testable import TallyCore
@testable import TallyWire

/// The partial results: a value survives its line, and merging commutes
/// with the wire (decode(encode(merge(a, b))) = merge(decode(encode a), decode(encode b))).
@Suite("Wire: partial results round-trip and merge through the wire")
struct WirePartialTests {
    typealias R = WireRandom

    static func totals(_ g: inout SplitMix64) -> StatementTotals {
        var totals = StatementTotals()
        totals.couples = R.count(&g)
        totals.members = R.count(&g)
        totals.expenses = R.count(&g)
        totals.transfers = R.count(&g)
        totals.greedyStatements = R.count(&g)
        totals.rejects = R.count(&g)
        for _ in 0..<Int.random(in: 0...6, using: &g) {
            totals.spendingByTag[R.currency(&g), default: [:]][R.of(&g, ["", "food", "rent", "a\tb", "\\", "\u{E4}"])] =
                Int64.random(in: -1_000_000_000...1_000_000_000, using: &g)
        }
        return totals
    }

    @Test func statementTotals() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            withoutThrowing { () throws in
                var g = SplitMix64(seed: seed)
                let a = Self.totals(&g), b = Self.totals(&g)
                #expect(try wireRoundTrip(a) == a)
                #expect(try viaWire(a.merging(b)) == (try viaWire(a)).merging(try viaWire(b)))
            }
        }
    }

    @Test func equalTotalsAreEqualLines() {
        var a = StatementTotals(), b = StatementTotals()
        for (tag, amount) in [("rent", 100), ("food", 5), ("", 7)] as [(String, Int64)] {
            a.spendingByTag[brl, default: [:]][tag] = amount
            a.spendingByTag[usd, default: [:]][tag] = amount
        }
        for (tag, amount) in [("", 7), ("food", 5), ("rent", 100)] as [(String, Int64)] {
            b.spendingByTag[usd, default: [:]][tag] = amount
            b.spendingByTag[brl, default: [:]][tag] = amount
        }
        #expect(a.wireLine == b.wireLine)
        #expect(String(decoding: a.wireLine, as: UTF8.self)
            == "statement-totals.v1\t0\t0\t0\t0\t0\t0\t6\tBRL\t\t7\tBRL\tfood\t5\tBRL\trent\t100\tUSD\t\t7\tUSD\tfood\t5\tUSD\trent\t100\n")
    }

    static func pairState(_ g: inout SplitMix64) -> MatchRule.PairState {
        var state = MatchRule.PairState()
        for _ in 0..<Int.random(in: 0...4, using: &g) {
            state.add(MatchRule.PairSwipe(forward: Bool.random(using: &g), action: SwipeAction.allCases.randomElement(using: &g)!,
                                          timestamp: R.timestamp(&g)))
        }
        return state
    }

    @Test func pairStates() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            withoutThrowing { () throws in
                var g = SplitMix64(seed: seed)
                let first = R.string(&g), second = R.string(&g)
                let a = MatchRule.PairPartial(first: first, second: second, state: Self.pairState(&g))
                let b = MatchRule.PairPartial(first: first, second: second, state: Self.pairState(&g))
                #expect(try wireRoundTrip(a) == a)
                var merged = a.state
                merged.merge(b.state)
                var mergedBack = try viaWire(a).state
                mergedBack.merge(try viaWire(b).state)
                #expect(try viaWire(MatchRule.PairPartial(first: first, second: second, state: merged)).state == mergedBack)
            }
        }
    }

    static func daily<S: SwiperSet>(_ month: YearMonth, _ users: [S.User], _ g: inout SplitMix64) -> SwipesDailyAccumulator<S> {
        var daily = SwipesDailyAccumulator<S>(month: month)
        for _ in 0..<Int.random(in: 0...30, using: &g) {
            let day = month.clampedDay(Int.random(in: 0...32, using: &g))
            if Int.random(in: 0..<4, using: &g) == 0 {
                daily.addMatch(on: day)
            } else {
                daily.addSwipe(on: day, from: users.randomElement(using: &g)!, action: SwipeAction.allCases.randomElement(using: &g)!)
            }
        }
        return daily
    }

    @Test func swipesDaily() async {
        await propertyCheck(count: 200, input: Gen.uint64()) { seed in
            withoutThrowing { () throws in
                var g = SplitMix64(seed: seed)
                let month = R.month(&g)
                let numbers: [Int64] = [0, 1, 63, 64, 65, 1000]
                let a: SwipesDailyAccumulator<NumberedSwiperSet> = Self.daily(month, numbers, &g)
                let b: SwipesDailyAccumulator<NumberedSwiperSet> = Self.daily(month, numbers, &g)
                #expect(try wireRoundTrip(a) == a)
                var merged = a
                merged.merge(b)
                var mergedBack = try viaWire(a)
                mergedBack.merge(try viaWire(b))
                #expect(try viaWire(merged) == mergedBack)
                #expect(mergedBack.result == merged.result)

                let ids = ["u1", "u\t2", "\\", "\u{E4}", ""]
                let c: SwipesDailyAccumulator<HashedSwiperSet<String>> = Self.daily(month, ids, &g)
                let d: SwipesDailyAccumulator<HashedSwiperSet<String>> = Self.daily(month, ids, &g)
                #expect(try wireRoundTrip(c) == c)
                var hashed = c
                hashed.merge(d)
                var hashedBack = try viaWire(c)
                hashedBack.merge(try viaWire(d))
                #expect(try viaWire(hashed) == hashedBack)
            }
        }
    }

    @Test func aSwipesDayCountMustBeTheMonths() {
        let line = "swipes-daily-numbered.v1\t2026-02\t30"
        #expect(wireError(line, as: SwipesDailyAccumulator<NumberedSwiperSet>.self)?.description
            == "line 1: swipes-daily-numbered.v1, field 2 (dayCount): 2026-02 has 28 days, not 30")
    }

    // MARK: - Subscription KPIs

    static let zone = ReportTimeZone(identifier: "America/Sao_Paulo")!
    static let settings = SubscriptionKPIs.Settings(period: YearMonth(year: 2026, month: 10)!, firstMonth: YearMonth(year: 2026, month: 1)!,
                                                    timezone: zone)
    static let catalog = ProductCatalog(primary: [
        .init(productId: "m", app: "LovU", plan: "premium", yearly: false, price: 1_990, currency: brl),
        .init(productId: "y", app: "LovU", plan: "premium", yearly: true, price: 19_900, currency: brl),
        .init(productId: "u", app: "Fit\tToday", plan: "pro", yearly: false, price: 999, currency: usd),
    ])

    static func kpis(_ g: inout SplitMix64) -> SubscriptionKPIs {
        var kpis = SubscriptionKPIs(settings: settings, catalog: catalog)
        let start = ts("2025-12-01T00:00:00Z").microseconds, end = ts("2026-11-15T00:00:00Z").microseconds
        for n in 0..<Int.random(in: 0...8, using: &g) {
            let events = (0..<Int.random(in: 1...8, using: &g)).map { _ in
                SubscriptionEvent(kind: SubscriptionEventKind.allCases.randomElement(using: &g)!,
                                  timestamp: Timestamp(microseconds: Int64.random(in: start...end, using: &g)),
                                  productId: R.of(&g, ["m", "y", "u", nil]), context: R.of(&g, ["home", "", nil, "a\\b"]))
            }
            kpis.add(SubscriptionTimeline(app: R.of(&g, ["LovU", "Fit\tToday"]), userId: "u\(n)-\(g.next() % 1000)", events: events))
        }
        return kpis
    }

    @Test func subscriptionKPIs() async throws {
        await propertyCheck(count: 60, input: Gen.uint64()) { seed in
            withoutThrowing { () throws in
                var g = SplitMix64(seed: seed)
                let a = Self.kpis(&g), b = Self.kpis(&g)
                let state = try wireRoundTrip(a.state)
                #expect(state == a.state)
                let restored = try #require(SubscriptionKPIs(settings: Self.settings, catalog: Self.catalog, state: state))
                #expect(restored.state == a.state)
                var merged = a
                merged.merge(b)
                var mergedBack = try #require(SubscriptionKPIs(settings: Self.settings, catalog: Self.catalog, state: try viaWire(a.state)))
                mergedBack.merge(try #require(SubscriptionKPIs(settings: Self.settings, catalog: Self.catalog, state: try viaWire(b.state))))
                #expect(try viaWire(merged.state) == mergedBack.state)
                #expect(mergedBack.mrrHistory == merged.mrrHistory && mergedBack.churn == merged.churn && mergedBack.paywall == merged.paywall)
                #expect(mergedBack.revenue == merged.revenue && mergedBack.retentionCurves == merged.retentionCurves)
                #expect(mergedBack.users == merged.users)
            }
        }
    }

    @Test func aStateIsRestoredOnlyUnderItsSettings() throws {
        let state = SubscriptionKPIs(settings: Self.settings, catalog: Self.catalog).state
        let other = SubscriptionKPIs.Settings(period: YearMonth(year: 2026, month: 9)!, firstMonth: YearMonth(year: 2026, month: 1)!,
                                              timezone: Self.zone)
        #expect(SubscriptionKPIs(settings: other, catalog: Self.catalog, state: state) == nil)
        #expect(SubscriptionKPIs(settings: Self.settings, catalog: Self.catalog, state: state) != nil)
    }
}
