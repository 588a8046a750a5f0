import Testing
@testable import TallyCore

private func ev(_ kind: SubscriptionEventKind, _ time: String, _ product: String? = nil, context: String? = nil) -> SubscriptionEvent {
    SubscriptionEvent(kind: kind, timestamp: ts(time), productId: product, context: context)
}

private let utc = ReportTimeZone(identifier: "UTC")!
private let catalog = ProductCatalog(primary: [
    .init(productId: "silver.m", app: "FisioFlow", plan: "silver", yearly: false, price: 9_700, currency: brl),
    .init(productId: "gold.m", app: "FisioFlow", plan: "gold", yearly: false, price: 19_700, currency: brl),
    .init(productId: "silver.y", app: "FisioFlow", plan: "silver", yearly: true, price: 97_000, currency: brl),
    .init(productId: "lovu.m", app: "LovU", plan: "premium", yearly: false, price: 1_990, currency: brl),
])

private func kpis(period: String = "2026-10", first: String = "2026-08", _ timelines: [SubscriptionTimeline]) -> SubscriptionKPIs {
    var k = SubscriptionKPIs(settings: .init(period: YearMonth(period)!, firstMonth: YearMonth(first)!, timezone: utc),
                             catalog: catalog)
    for t in timelines { k.add(t) }
    return k
}

private func user(_ id: String, app: String = "FisioFlow", _ events: [SubscriptionEvent]) -> SubscriptionTimeline {
    SubscriptionTimeline(app: app, userId: id, events: events)
}

@Suite("KPIs: subscription states, MRR, conversion, paywall, churn, retention, movements, shared premium")
struct KPISubscriptionTests {
    @Test("every transition: trial, subscribe, renew, upgrade, downgrade, cancel then expire, refund")
    func transitions() {
        let t = user("u", [
            ev(.trialStarted, "2026-01-01T00:00:00Z", "silver.m"),
            ev(.subscribed, "2026-01-08T00:00:00Z", "silver.m"),
            ev(.renewed, "2026-02-08T00:00:00Z", "silver.m"),
            ev(.upgraded, "2026-02-20T00:00:00Z", "gold.m"),
            ev(.downgraded, "2026-03-20T00:00:00Z", "silver.m"),
            ev(.cancelled, "2026-04-01T00:00:00Z", "silver.m"),
            ev(.expired, "2026-04-08T00:00:00Z", "silver.m"),
            ev(.subscribed, "2026-05-01T00:00:00Z", "gold.m"),
            ev(.refunded, "2026-05-02T00:00:00Z", "gold.m"),
        ])
        #expect(t.state(at: ts("2026-01-02T00:00:00Z")) == .trial(product: "silver.m"))
        #expect(t.state(at: ts("2026-01-09T00:00:00Z")) == .paid(product: "silver.m", autoRenew: true))
        #expect(t.state(at: ts("2026-02-21T00:00:00Z")) == .paid(product: "gold.m", autoRenew: true))
        #expect(t.state(at: ts("2026-03-21T00:00:00Z")) == .paid(product: "silver.m", autoRenew: true))
        // Cancelled: auto-renew off, still paid until it expires.
        #expect(t.state(at: ts("2026-04-02T00:00:00Z")) == .paid(product: "silver.m", autoRenew: false))
        #expect(t.isPaid(at: ts("2026-04-08T00:00:00Z")))            // the expiry is not strictly before
        #expect(!t.isPaid(at: ts("2026-04-08T00:00:00.000001Z")))
        #expect(t.isPaid(at: ts("2026-05-01T12:00:00Z")))
        #expect(t.state(at: ts("2026-05-03T00:00:00Z")) == SubscriptionState.none)   // refunded: at once
        #expect(t.firstSubscribed == ts("2026-01-08T00:00:00Z"))
        #expect(t.firstTrial == ts("2026-01-01T00:00:00Z"))
    }

    @Test("paid at T counts only events strictly before T; a trial never is paid; a trial while paid keeps paid")
    func strictlyBefore() {
        let t = user("u", [ev(.subscribed, "2026-10-31T03:00:00Z", "silver.m")])
        #expect(!t.isPaid(at: ts("2026-10-31T03:00:00Z")))
        #expect(t.isPaid(at: ts("2026-10-31T03:00:01Z")))
        let trial = user("v", [ev(.trialStarted, "2026-10-01T00:00:00Z", "silver.m")])
        #expect(!trial.isPaid(at: ts("2026-10-05T00:00:00Z")))
        let both = user("w", [ev(.subscribed, "2026-10-01T00:00:00Z", "silver.m"), ev(.trialStarted, "2026-10-02T00:00:00Z", "gold.m")])
        #expect(both.state(at: ts("2026-10-03T00:00:00Z")) == .paid(product: "silver.m", autoRenew: true))
    }

    @Test("yearly price / 12 is rounded half away from zero per subscriber, then summed")
    func yearlyRounding() {
        #expect(catalog["silver.y"]!.monthlyPrice == 8_083)    // 970.00 / 12 = 80.8333…
        let half = ProductCatalog.Entry(productId: "h", app: "A", plan: "p", yearly: true, price: 30, currency: brl)
        #expect(half.monthlyPrice == 3)                          // 0.25 → 2.5 minor units → 3
        let cat = ProductCatalog(primary: [half])
        var k = SubscriptionKPIs(settings: .init(period: YearMonth("2026-10")!, firstMonth: YearMonth("2026-10")!, timezone: utc),
                                 catalog: cat)
        k.add(SubscriptionTimeline(app: "A", userId: "1", events: [ev(.subscribed, "2026-10-02T00:00:00Z", "h")]))
        k.add(SubscriptionTimeline(app: "A", userId: "2", events: [ev(.subscribed, "2026-10-03T00:00:00Z", "h")]))
        #expect(k.mrrAtPeriodEnd.map(\.mrr) == [6])              // 3 + 3, not round(5.0) = 5
        #expect(k.mrrAtPeriodEnd.map(\.subscribers) == [2])
    }

    @Test("MRR at T per app and plan: payers only, cancelled still counted, expired not")
    func mrrAtT() {
        let k = kpis([
            user("a", [ev(.subscribed, "2026-09-01T00:00:00Z", "silver.m")]),
            user("b", [ev(.subscribed, "2026-09-01T00:00:00Z", "silver.y"), ev(.cancelled, "2026-10-05T00:00:00Z", "silver.y")]),
            user("c", [ev(.subscribed, "2026-09-01T00:00:00Z", "gold.m"), ev(.expired, "2026-10-01T00:00:00Z", "gold.m")]),
        ])
        let rows = k.mrrAtPeriodEnd
        #expect(rows.map(\.plan) == ["silver"])
        #expect(rows.first?.subscribers == 2)
        #expect(rows.first.map(\.mrr) == Int64(9_700 + 8_083))
    }

    @Test("conversion window: exactly 30 × 24 h converts, one second more does not, before signup does not")
    func conversionWindow() {
        let k = kpis([
            user("exact", [ev(.signup, "2026-09-01T10:00:00Z"), ev(.subscribed, "2026-10-01T10:00:00Z", "silver.m")]),
            user("late", [ev(.signup, "2026-09-01T10:00:00Z"), ev(.subscribed, "2026-10-01T10:00:01Z", "silver.m")]),
            user("before", [ev(.subscribed, "2026-08-31T10:00:00Z", "silver.m"), ev(.signup, "2026-09-02T10:00:00Z")]),
            user("never", [ev(.signup, "2026-09-03T10:00:00Z")]),
            user("nosignup", [ev(.subscribed, "2026-09-03T10:00:00Z", "silver.m")]),
        ])
        let sep = k.conversion.first { $0.cohort == YearMonth("2026-09")! }
        #expect(sep?.rate == KPIRate(1, of: 4))
        #expect(sep?.complete == true)        // 2026-10-01 + 30 d ≤ 2026-11-01
        let oct = kpis([user("x", [ev(.signup, "2026-10-10T00:00:00Z")])]).conversion.first
        #expect(oct?.complete == false)       // window still open at T
    }

    @Test("paywall: credited to the last paywall strictly before the first subscribed; none when none came first")
    func paywall() {
        let k = kpis([
            user("a", [ev(.paywallShown, "2026-10-01T00:00:00Z", context: "patientLimitReached"),
                       ev(.paywallShown, "2026-10-02T00:00:00Z", context: "aiFeatureAccess"),
                       ev(.subscribed, "2026-10-03T00:00:00Z", "silver.m"),
                       ev(.paywallShown, "2026-10-04T00:00:00Z", context: "storageLimit")]),
            user("b", [ev(.subscribed, "2026-10-03T00:00:00Z", "silver.m"),
                       ev(.paywallShown, "2026-10-03T00:00:00Z", context: "storageLimit")]),   // same instant: not before
            user("c", [ev(.paywallShown, "2026-09-30T00:00:00Z", context: "advancedReports"),
                       ev(.subscribed, "2026-10-03T00:00:00Z", "silver.m")]),               // shown last month, credited now
        ])
        let byContext = Dictionary(uniqueKeysWithValues: k.paywall.map { ($0.context, ($0.shown, $0.conversions)) })
        #expect(byContext["aiFeatureAccess"]! == (1, 1))
        #expect(byContext["patientLimitReached"]! == (1, 0))
        #expect(byContext["storageLimit"]! == (2, 0))
        #expect(byContext["none"]! == (0, 1))
        #expect(byContext["advancedReports"]! == (0, 1))
    }

    @Test("churn: paid at the month's start and not at its end")
    func churn() {
        let k = kpis([
            user("stays", [ev(.subscribed, "2026-09-01T00:00:00Z", "silver.m"), ev(.renewed, "2026-10-01T00:00:00Z", "silver.m")]),
            user("expires", [ev(.subscribed, "2026-09-01T00:00:00Z", "silver.m"), ev(.cancelled, "2026-09-10T00:00:00Z", "silver.m"),
                             ev(.expired, "2026-10-01T00:00:00Z", "silver.m")]),
            user("refund", [ev(.subscribed, "2026-09-20T00:00:00Z", "gold.m"), ev(.refunded, "2026-10-02T00:00:00Z", "gold.m")]),
            user("joins", [ev(.subscribed, "2026-10-05T00:00:00Z", "gold.m")]),
        ])
        let oct = k.churn.first { $0.month == YearMonth("2026-10")! }
        #expect(oct?.rate == KPIRate(2, of: 3))
        #expect(oct?.refunds == 1)
        #expect(k.churn.first { $0.month == YearMonth("2026-09")! }?.cancellations == 1)
    }

    @Test("30-day retention is judged at first subscribed + 30 × 24 h")
    func retention() {
        let k = kpis([
            user("kept", [ev(.subscribed, "2026-08-01T00:00:00Z", "silver.m"), ev(.renewed, "2026-08-31T00:00:00Z", "silver.m")]),
            user("expiredAtJudgement", [ev(.subscribed, "2026-08-02T00:00:00Z", "silver.m"),
                                        ev(.expired, "2026-08-31T23:59:59Z", "silver.m")]),
            user("lost", [ev(.subscribed, "2026-08-03T00:00:00Z", "silver.m"), ev(.refunded, "2026-08-04T00:00:00Z", "silver.m")]),
        ])
        let aug = k.retention.first { $0.cohort == YearMonth("2026-08")! }
        #expect(aug?.rate == KPIRate(1, of: 3))
        #expect(aug?.complete == true)
    }

    @Test("MRR movements: new, expansion on upgrade, contraction on downgrade, churn, reactivation; they add up")
    func movements() {
        let k = kpis(first: "2026-09", [
            user("new", [ev(.subscribed, "2026-10-05T00:00:00Z", "silver.m")]),
            user("up", [ev(.subscribed, "2026-09-05T00:00:00Z", "silver.m"), ev(.upgraded, "2026-10-05T00:00:00Z", "gold.m")]),
            user("down", [ev(.subscribed, "2026-09-05T00:00:00Z", "gold.m"), ev(.downgraded, "2026-10-05T00:00:00Z", "silver.m")]),
            user("gone", [ev(.subscribed, "2026-09-05T00:00:00Z", "silver.m"), ev(.expired, "2026-10-05T00:00:00Z", "silver.m")]),
            user("back", [ev(.subscribed, "2026-08-05T00:00:00Z", "silver.m"), ev(.expired, "2026-09-05T00:00:00Z", "silver.m"),
                          ev(.subscribed, "2026-10-07T00:00:00Z", "silver.m")]),
        ])
        let oct = try! #require(k.mrrMovements.first { $0.month == YearMonth("2026-10")! })
        #expect(oct.amount(.new) == 9_700 && oct.count(.new) == 1)
        #expect(oct.amount(.expansion) == 10_000 && oct.count(.expansion) == 1)
        #expect(oct.amount(.contraction) == 10_000 && oct.count(.contraction) == 1)
        #expect(oct.amount(.churn) == 9_700 && oct.count(.churn) == 1)
        #expect(oct.amount(.reactivation) == 9_700 && oct.count(.reactivation) == 1)
        #expect(oct.startMRR == 9_700 + 19_700 + 9_700)
        #expect(oct.computedEnd == oct.endMRR)
        #expect(MRRMovement.classify(start: 100, end: 100, paidBefore: true) == nil)
    }

    @Test("shared premium: not paid, connected at T to a paid partner; never a payer, never MRR")
    func sharedPremium() {
        let k = kpis([
            user("payer", app: "LovU", [ev(.subscribed, "2026-09-01T00:00:00Z", "lovu.m")]),
            user("payer2", app: "LovU", [ev(.subscribed, "2026-09-01T00:00:00Z", "lovu.m")]),
        ])
        let connections = [
            PartnerConnection(userId: "payer", partnerId: "partner", connectedAt: ts("2026-09-10T00:00:00Z")),
            PartnerConnection(userId: "gone", partnerId: "payer2", connectedAt: ts("2026-09-10T00:00:00Z"),
                              disconnectedAt: ts("2026-10-10T00:00:00Z")),
            PartnerConnection(userId: "payer2", partnerId: "payer", connectedAt: ts("2026-09-10T00:00:00Z")),
            PartnerConnection(userId: "late", partnerId: "payer", connectedAt: ts("2026-11-01T00:00:00Z")),
        ]
        let rows = k.sharedPremium(connections)
        let oct = try! #require(rows.first { $0.month == YearMonth("2026-10")! })
        #expect(oct.payers == 2)
        #expect(oct.sharedUsers == 1)        // partner; gone disconnected before T; late connects at T (not before)
        #expect(oct.entitled == 3)
        #expect(rows.first { $0.month == YearMonth("2026-09")! }?.sharedUsers == 2)   // partner and gone
        #expect(k.mrrAtPeriodEnd.map(\.subscribers) == [2])
    }

    @Test("trials: converted when the first subscribed comes within the window after the trial start")
    func trials() {
        let k = kpis([
            user("t1", [ev(.trialStarted, "2026-09-01T00:00:00Z", "silver.m"), ev(.subscribed, "2026-09-08T00:00:00Z", "silver.m")]),
            user("t2", [ev(.trialStarted, "2026-09-02T00:00:00Z", "silver.m"), ev(.expired, "2026-09-09T00:00:00Z", "silver.m")]),
        ])
        #expect(k.trialConversion.first?.rate == KPIRate(1, of: 2))
    }

    @Test("accumulators over disjoint users merge to the accumulator over all of them")
    func merge() {
        let users = [
            user("a", [ev(.signup, "2026-09-01T00:00:00Z"), ev(.subscribed, "2026-09-03T00:00:00Z", "silver.m")]),
            user("b", [ev(.signup, "2026-09-02T00:00:00Z"), ev(.paywallShown, "2026-10-02T00:00:00Z", context: "x"),
                       ev(.subscribed, "2026-10-03T00:00:00Z", "gold.m"), ev(.expired, "2026-10-20T00:00:00Z", "gold.m")]),
            user("c", app: "LovU", [ev(.subscribed, "2026-08-03T00:00:00Z", "lovu.m")]),
        ]
        let whole = kpis(users)
        var left = kpis(Array(users.prefix(1)))
        left.merge(kpis(Array(users.dropFirst())))
        #expect(left.conversion == whole.conversion)
        #expect(left.retention == whole.retention)
        #expect(left.paywall == whole.paywall)
        #expect(left.mrrHistory == whole.mrrHistory)
        #expect(left.churn == whole.churn)
        #expect(left.mrrMovements == whole.mrrMovements)
        #expect(left.users == 3)
    }

    @Test("one subscriber's events apply by instant, then load order, then line")
    func eventOrderTies() {
        typealias P = SubscriptionEventOrder.Position
        let t = ts("2026-10-02T10:00:00Z")
        #expect(SubscriptionEventOrder.keys == [.instant, .loadOrder, .line])
        let positions = [P(instant: t, loadOrder: 2, line: 1), P(instant: t, loadOrder: 1, line: 9),
                         P(instant: ts("2026-10-02T09:59:59Z"), loadOrder: 5, line: 5), P(instant: t, loadOrder: 1, line: 3)]
        #expect(positions.sorted(by: SubscriptionEventOrder.precedes).map { "\($0.loadOrder):\($0.line)" } == ["5:5", "1:3", "1:9", "2:1"])
        #expect(!SubscriptionEventOrder.precedes(positions[0], positions[0]))
    }
}
