import PropertyBased
import Testing
@testable import TallyCore

/// Subscription KPIs counted under an earlier first month of the series,
/// then narrowed to a later one, equal the KPIs counted under the later one
/// from the start: what lets partitions count before the earliest event of
/// the run is known.
@Suite("KPIs: the series narrowed to its first month")
struct KPIsFirstMonthTests {
    static let utc = ReportTimeZone(identifier: "UTC")!
    static let period = YearMonth("2026-10")!
    static let catalog = ProductCatalog(primary: [
        .init(productId: "silver.m", app: "FisioFlow", plan: "silver", yearly: false, price: 9_700, currency: brl),
        .init(productId: "gold.y", app: "FisioFlow", plan: "gold", yearly: true, price: 197_000, currency: brl),
        .init(productId: "lovu.m", app: "LovU", plan: "premium", yearly: false, price: 1_990, currency: brl),
        .init(productId: "lovu.usd", app: "LovU", plan: "premium", yearly: false, price: 499, currency: Currency(code: "USD")!),
    ])

    /// Random users of two apps with random events over the 30 months before the period's end.
    static func timelines(seed: UInt64) -> [SubscriptionTimeline] {
        var rng = SplitMix64(seed: seed)
        let start = ts("2024-05-01T00:00:00Z").microseconds, end = ts("2026-11-15T00:00:00Z").microseconds
        let kinds = SubscriptionEventKind.allCases
        return (0..<Int.random(in: 1...12, using: &rng)).map { u in
            let app = Bool.random(using: &rng) ? "LovU" : "FisioFlow"
            let products = app == "LovU" ? ["lovu.m", "lovu.usd"] : ["silver.m", "gold.y"]
            let events = (0..<Int.random(in: 0...8, using: &rng)).map { _ in
                let kind = kinds.randomElement(using: &rng)!
                return SubscriptionEvent(kind: kind, timestamp: Timestamp(microseconds: Int64.random(in: start..<end, using: &rng)),
                                         productId: kind == .signup ? nil : products.randomElement(using: &rng),
                                         context: kind == .paywallShown ? ["home", "", "limits"].randomElement(using: &rng) : nil)
            }.sorted { $0.timestamp < $1.timestamp }
            return SubscriptionTimeline(app: app, userId: "u\(u % 7)", events: events)
        }
    }

    static func kpis(_ timelines: [SubscriptionTimeline], first: YearMonth) -> SubscriptionKPIs {
        var k = SubscriptionKPIs(settings: .init(period: period, firstMonth: first, timezone: utc), catalog: catalog)
        for t in timelines { k.add(t) }
        return k
    }

    @Test("narrowing an earlier series equals counting the later one, for any first months")
    func narrowedEqualsCountedLater() async {
        await propertyCheck(count: 200, input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            let users = Self.timelines(seed: seed)
            let wide = Self.period.adding(months: -Int.random(in: 0...30, using: &rng))
            let narrow = Self.period.adding(months: -Int.random(in: 0...30, using: &rng))
            let (early, late) = (min(wide, narrow), max(wide, narrow))
            let counted = Self.kpis(users, first: late)
            guard let narrowed = Self.kpis(users, first: early).narrowed(to: counted.settings) else {
                Issue.record("narrowing \(early) to \(late) refused (seed \(seed))")
                return
            }
            #expect(narrowed.state == counted.state, "seed \(seed): \(early) → \(late)")
            #expect(narrowed.months == counted.months)
            let connections = users.indices.map { i in
                PartnerConnection(userId: "u\(i % 7)", partnerId: "u\((i + 3) % 7)", connectedAt: ts("2025-01-01T00:00:00Z"))
            }
            #expect(narrowed.sharedPremium(connections) == counted.sharedPremium(connections), "seed \(seed)")
            #expect(narrowed.churn == counted.churn)
            #expect(narrowed.mrrHistory == counted.mrrHistory)
            #expect(narrowed.mrrMovements == counted.mrrMovements)
        }
    }

    @Test("a family summary merged from partitions, then narrowed, finalises as the family counted under the later month")
    func familySummaryNarrows() throws {
        let payer = SubscriptionTimeline(app: "LovU", userId: "payer", events: [
            SubscriptionEvent(kind: .subscribed, timestamp: ts("2025-08-01T00:00:00Z"), productId: "lovu.m")])
        let users = Self.timelines(seed: 17) + [payer] + Self.timelines(seed: 18)
        func family(_ first: YearMonth) -> KPIsFamily {
            KPIsFamily(settings: .init(subscriptions: .init(period: Self.period, firstMonth: first, timezone: Self.utc),
                                       catalog: Self.catalog, targets: KPIReport.Targets(TallyConfig().kpis)))
        }
        let wide = family(YearMonth("2024-11")!), late = family(YearMonth("2025-06")!)
        func partition(_ t: SubscriptionTimeline) -> KPIsFamily.Partition {
            .subscriber(app: t.app, userId: t.userId, events: t.events, ids: t.events.indices.map { "e\($0)" })
        }
        var merged = wide.emptySummary()
        for user in users.reversed() { merged.merge(wide.compute(partition(user)).summary) }
        var direct = late.emptySummary()
        for user in users { late.add(partition(user), to: &direct) }
        let narrowed = try #require(merged.narrowed(to: late.settings))
        #expect(narrowed.state == direct.state)
        #expect(late.finalise(narrowed).kpis.sharedPremium == late.finalise(direct).kpis.sharedPremium)
        #expect(late.finalise(narrowed).kpis.sharedPremium.count == 17)   // 2025-06 … 2026-10
        // Narrowing never widens: a summary cannot be counted under an earlier first month.
        #expect(direct.narrowed(to: wide.settings) == nil)
    }
}
