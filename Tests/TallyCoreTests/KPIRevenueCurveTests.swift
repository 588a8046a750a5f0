import PropertyBased
import Testing
@testable import TallyCore

private func ev(_ kind: SubscriptionEventKind, _ time: String, _ product: String? = nil) -> SubscriptionEvent {
    SubscriptionEvent(kind: kind, timestamp: ts(time), productId: product)
}

private let utc = ReportTimeZone(identifier: "UTC")!
private let catalog = ProductCatalog(primary: [
    .init(productId: "silver.m", app: "FisioFlow", plan: "silver", yearly: false, price: 9_700, currency: brl),
    .init(productId: "gold.m", app: "FisioFlow", plan: "gold", yearly: false, price: 19_700, currency: brl),
    .init(productId: "silver.y", app: "FisioFlow", plan: "silver", yearly: true, price: 97_000, currency: brl),
    .init(productId: "silver.usd", app: "FisioFlow", plan: "silver", yearly: false, price: 1_999, currency: usd),
])

private func kpis(period: String = "2026-10", first: String = "2026-08", _ timelines: [SubscriptionTimeline]) -> SubscriptionKPIs {
    var k = SubscriptionKPIs(settings: .init(period: YearMonth(period)!, firstMonth: YearMonth(first)!, timezone: utc), catalog: catalog)
    for t in timelines { k.add(t) }
    return k
}

private func user(_ id: String, _ events: [SubscriptionEvent]) -> SubscriptionTimeline {
    SubscriptionTimeline(app: "FisioFlow", userId: id, events: events)
}

@Suite("KPIs: revenue, ARPU, ARPPU and refunds per currency and month")
struct KPIRevenueTests {
    @Test("charges at the catalogue's full price in their month; refunds give back the product's price")
    func chargesAndRefunds() throws {
        let k = kpis([
            // Monthly silver, renewed, upgraded to gold in September: 97 + 97 + 197 (the new product's full price).
            user("a", [ev(.subscribed, "2026-08-05T00:00:00Z", "silver.m"), ev(.renewed, "2026-09-05T00:00:00Z"),
                       ev(.upgraded, "2026-09-20T00:00:00Z", "gold.m"), ev(.renewed, "2026-10-20T00:00:00Z")]),
            // Yearly: the yearly price in the month of the charge, nothing after.
            user("b", [ev(.subscribed, "2026-09-10T00:00:00Z", "silver.y")]),
            // Refunded without a product: the product last charged.
            user("c", [ev(.subscribed, "2026-10-01T00:00:00Z", "gold.m"), ev(.refunded, "2026-10-03T00:00:00Z")]),
            // Only a signup in October: active, not paying.
            user("d", [ev(.signup, "2026-10-09T00:00:00Z")]),
            // Paid at October's start by a charge before the series, no event in October: active in October.
            user("e", [ev(.subscribed, "2026-07-30T00:00:00Z", "silver.y")]),
            // Another currency: its own row.
            user("f", [ev(.subscribed, "2026-10-02T00:00:00Z", "silver.usd")]),
        ])
        let rows = Dictionary(uniqueKeysWithValues: k.revenue.map { ("\($0.currency.code) \($0.month)", $0) })
        let august = try #require(rows["BRL 2026-08"])
        #expect((august.charges, august.revenue, august.payingUsers, august.activeUsers) == (1, 9_700, 1, 2))
        let september = try #require(rows["BRL 2026-09"])
        #expect((september.charges, september.revenue, september.payingUsers) == (3, 9_700 + 19_700 + 97_000, 2))
        #expect(september.activeUsers == 3, "a, b, and e (paid at the month's start)")
        let october = try #require(rows["BRL 2026-10"])
        #expect((october.charges, october.revenue, october.refunds, october.refunded) == (2, 19_700 + 19_700, 1, 19_700))
        #expect(october.net == 19_700)
        #expect(october.payingUsers == 2)
        #expect(october.activeUsers == 6, "a, b (paid at start), c, d (signup), e, f")
        // ARPU = revenue / active users; ARPPU = revenue / paying users; minor units, half away from zero.
        #expect(october.arpu == 6_567)   // 39_400 / 6 = 6_566.67
        #expect(october.arppu == 19_700)
        let dollars = try #require(rows["USD 2026-10"])
        #expect((dollars.revenue, dollars.payingUsers, dollars.activeUsers, dollars.arpu) == (1_999, 1, 6, 333))
        #expect(rows["BRL 2026-07"] == nil, "July is before the series")
    }

    @Test("per-user amounts round half away from zero; none without users")
    func perUser() {
        #expect(SubscriptionRows.Revenue.perUser(5, 2) == 3)
        #expect(SubscriptionRows.Revenue.perUser(-5, 2) == -3)
        #expect(SubscriptionRows.Revenue.perUser(10, 4) == 3)
        #expect(SubscriptionRows.Revenue.perUser(9, 4) == 2)
        #expect(SubscriptionRows.Revenue.perUser(9, 0) == nil)
    }

    @Test("an event at T belongs to the next month, as \"at T\" does")
    func monthBoundary() throws {
        let k = kpis([user("a", [ev(.subscribed, "2026-09-01T00:00:00Z", "silver.m")])])
        #expect(k.revenue.map(\.month) == [YearMonth("2026-09")!])
    }
}

@Suite("KPIs: retention curves of the first-subscribed cohorts")
struct KPIRetentionCurveTests {
    @Test("a member counts in each month at whose T they are paid, again after coming back")
    func reactivationRaisesTheCurve() throws {
        let k = kpis([
            user("a", [ev(.subscribed, "2026-05-10T00:00:00Z", "silver.m"), ev(.expired, "2026-06-15T00:00:00Z"),
                       ev(.subscribed, "2026-07-02T00:00:00Z", "silver.m")]),
            user("b", [ev(.subscribed, "2026-05-20T00:00:00Z", "gold.m"), ev(.refunded, "2026-05-21T00:00:00Z")]),
        ])
        let curve = try #require(k.retentionCurves.first { $0.cohort == YearMonth("2026-05")! })
        #expect(curve.subscribers == 2)
        // June: a expired; July…October: a is back. M6 (November) has not ended.
        #expect(curve.active == [0, 1, 1, 1, 1])
        #expect(curve.share(2) == KPIRate(1, of: 2))
        #expect(curve.share(6) == nil)
        #expect(curve.share(1)!.value! < curve.share(2)!.value!, "a curve may rise")
    }

    @Test("shares lie in 0…1, a curve has one cell per ended month (at most 6), and parts merge to the whole")
    func properties() async {
        await propertyCheck(count: 150, input: Gen.uint64()) { seed in
            var g = SplitMix64(seed: seed)
            let start = ts("2025-10-01T00:00:00Z").microseconds, end = ts("2026-11-10T00:00:00Z").microseconds
            let kinds: [SubscriptionEventKind] = [.subscribed, .renewed, .upgraded, .cancelled, .expired, .refunded, .signup]
            let timelines = (0..<Int.random(in: 1...30, using: &g)).map { n in
                user("u\(n)", (0..<Int.random(in: 1...6, using: &g)).map { _ in
                    SubscriptionEvent(kind: kinds.randomElement(using: &g)!,
                                      timestamp: Timestamp(microseconds: Int64.random(in: start...end, using: &g)),
                                      productId: ["silver.m", "gold.m", "silver.y", nil].randomElement(using: &g)!)
                })
            }
            let whole = kpis(first: "2025-11", timelines)
            let period = YearMonth("2026-10")!
            for curve in whole.retentionCurves {
                #expect(curve.active.count == min(6, curve.cohort.months(until: period)))
                for k in curve.active.indices {
                    let share = curve.share(k + 1)!
                    #expect(share.numerator >= 0 && share.numerator <= share.denominator)
                    #expect(share.value.map { (0...1).contains($0) } ?? true)
                }
                // Each cell is exactly the members paid at that month's T.
                let members = timelines.filter { $0.firstSubscribed.map { utc.localDate(of: $0).yearMonth } == curve.cohort }
                for k in curve.active.indices {
                    let t = utc.endOfMonth(curve.cohort.adding(months: k + 1))
                    #expect(curve.active[k] == members.count { $0.isPaid(at: t) })
                }
                #expect(curve.subscribers == members.count)
            }
            // Split anywhere, merged: the same curves and revenue.
            let cut = Int.random(in: 0...timelines.count, using: &g)
            var merged = kpis(first: "2025-11", Array(timelines[..<cut]))
            merged.merge(kpis(first: "2025-11", Array(timelines[cut...])))
            #expect(merged.retentionCurves == whole.retentionCurves)
            #expect(merged.revenue == whole.revenue)
        }
    }
}

@Suite("KPIs: App Store Connect against tally")
struct AppStoreReconciliationTests {
    @Test("a cancel is not a churn: Apple's cancels and tally's differ, and the note says why with the churned count")
    func cancelsAreNotChurn() throws {
        let k = kpis([
            user("a", [ev(.subscribed, "2026-09-05T00:00:00Z", "silver.m"), ev(.cancelled, "2026-10-03T00:00:00Z")]),
            user("b", [ev(.subscribed, "2026-09-06T00:00:00Z", "silver.m"), ev(.cancelled, "2026-10-04T00:00:00Z"),
                       ev(.expired, "2026-10-20T00:00:00Z")]),
            user("c", [ev(.subscribed, "2026-10-07T00:00:00Z", "silver.m")]),
        ])
        let october = YearMonth("2026-10")!
        func apple(_ day: String, _ appleEvent: String, _ event: String, _ quantity: Int64) -> AppStoreEventCountRow {
            AppStoreEventCountRow(date: LocalDate.parse(day)!, app: "FisioFlow", subscription: "silver.m", appleEvent: appleEvent,
                                  event: event, quantity: quantity)
        }
        let report = KPIReport(period: october, targets: .init(TallyConfig.KPIs()), swipesDaily: [], previousSwipesDaily: [],
                               subscriptions: k, connections: [],
                               appStoreEvents: [apple("2026-10-03", "Cancel", "cancelled", 2), apple("2026-10-04", "Cancel", "cancelled", 1),
                                                apple("2026-10-07", "Subscribe", "subscribed", 1)])
        let rows = AppStoreReconciliation.rows(report)
        #expect(rows.map(\.figure) == AppStoreReconciliation.Figure.allCases)
        let cancels = try #require(rows.first { $0.figure == .cancels })
        #expect((cancels.apple, cancels.tally, cancels.agrees) == (3, 2, false))
        #expect(cancels.note.contains("a cancel is not a churn until access ends (expired), so Churn counts 1 for 2026-10"))
        let refunds = try #require(rows.first { $0.figure == .refunds })
        #expect((refunds.apple, refunds.tally, refunds.note) == (0, 0, ""), "agreeing figures need no note")
        let news = try #require(rows.first { $0.figure == .newSubscriptions })
        #expect((news.apple, news.tally, news.agrees) == (1, 1, true))
        // Without App Store events there is nothing to compare.
        let alone = KPIReport(period: october, targets: .init(TallyConfig.KPIs()), swipesDaily: [], previousSwipesDaily: [],
                              subscriptions: k, connections: [], appStoreEvents: [])
        #expect(AppStoreReconciliation.rows(alone).isEmpty)
    }
}

@Suite("KPIs: paywall conversion rate")
struct PaywallConversionRateTests {
    @Test("of the users shown a context in the month, those who converted after a view of it in the month")
    func rate() throws {
        func shown(_ time: String, _ context: String) -> SubscriptionEvent {
            SubscriptionEvent(kind: .paywallShown, timestamp: ts(time), productId: nil, context: context)
        }
        let k = kpis([
            // Shown in October, converted after it: counts.
            user("a", [shown("2026-10-02T00:00:00Z", "x"), ev(.subscribed, "2026-10-03T00:00:00Z", "silver.m")]),
            // Shown in September, converted in October: credited to x, but not after a view of October.
            user("b", [shown("2026-09-28T00:00:00Z", "x"), ev(.subscribed, "2026-10-01T00:00:00Z", "silver.m")]),
            // Shown x in October, then y, then converted: credited to y, so x's rate does not count it.
            user("c", [shown("2026-10-04T00:00:00Z", "x"), shown("2026-10-05T00:00:00Z", "y"),
                       ev(.subscribed, "2026-10-06T00:00:00Z", "silver.m")]),
            // Shown x in October, never converted.
            user("d", [shown("2026-10-07T00:00:00Z", "x")]),
            // Already a subscriber: shown x in October, no first subscription in October.
            user("e", [ev(.subscribed, "2026-08-01T00:00:00Z", "silver.m"), shown("2026-10-08T00:00:00Z", "x")]),
        ])
        let x = try #require(k.paywall.first { $0.context == "x" })
        #expect((x.users, x.conversions, x.convertedAfterView) == (4, 2, 1))
        #expect(x.rate == KPIRate(1, of: 4))
        let y = try #require(k.paywall.first { $0.context == "y" })
        #expect((y.users, y.conversions, y.convertedAfterView) == (1, 1, 1))
        #expect(y.rate.value == 1)
    }
}
