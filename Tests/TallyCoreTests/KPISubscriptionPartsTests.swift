import Testing
@testable import TallyCore

/// The shortcuts `SubscriptionKPIs.add` takes (one forward pass over a
/// user's states, months as bits, timelines not re-sorted) give the answers
/// of the plain definitions.
@Suite("KPIs: the subscription accumulator's shortcuts")
struct KPISubscriptionPartsTests {
    let utc = ReportTimeZone(identifier: "UTC")!

    func ev(_ kind: SubscriptionEventKind, _ time: String, _ product: String? = "p") -> SubscriptionEvent {
        SubscriptionEvent(kind: kind, timestamp: ts(time), productId: product)
    }

    @Test("a forward sweep gives state(at:) at increasing instants, changes exactly at an instant excluded")
    func sweepAgreesWithStateAt() {
        let t = SubscriptionTimeline(app: "A", userId: "u", events: [
            ev(.subscribed, "2026-08-01T00:00:00Z"), ev(.cancelled, "2026-08-15T00:00:00Z"),
            ev(.expired, "2026-09-01T00:00:00Z"), ev(.subscribed, "2026-09-01T00:00:00Z", "q"),
            ev(.refunded, "2026-10-31T23:59:59Z"),
        ])
        let instants = ["2026-07-01T00:00:00Z", "2026-08-01T00:00:00Z", "2026-08-01T00:00:01Z", "2026-09-01T00:00:00Z",
                        "2026-09-01T00:00:00Z", "2026-10-01T00:00:00Z", "2026-11-01T00:00:00Z", "2027-01-01T00:00:00Z"].map(ts)
        var sweep = StateSweep(t.changes)
        for instant in instants { #expect(sweep.state(at: instant) == t.state(at: instant), "at \(instant)") }
    }

    @Test("events given out of time order are sorted, same-instant events keep their order; sorted ones are kept as given")
    func timelineOrder() {
        let a = ev(.signup, "2026-09-02T00:00:00Z", nil), b = ev(.subscribed, "2026-09-01T00:00:00Z")
        let c = ev(.expired, "2026-09-02T00:00:00Z"), d = ev(.subscribed, "2026-09-02T00:00:00Z", "q")
        #expect(SubscriptionTimeline(app: "A", userId: "u", events: [a, b, c, d]).events == [b, a, c, d])
        #expect(SubscriptionTimeline(app: "A", userId: "u", events: [b, d, c, a]).events == [b, d, c, a])
        #expect(SubscriptionTimeline(app: "A", userId: "u", events: [b, d, c, a]).state(at: ts("2026-09-03T00:00:00Z")).isPaid == false)
    }

    @Test("month sets hold any number of months")
    func monthSet() {
        var set = MonthSet(count: 130)
        set[0] = true; set[63] = true; set[64] = true; set[129] = true
        #expect((0..<130).filter { set[$0] } == [0, 63, 64, 129])
        set[63] = false
        var other = MonthSet(count: 130)
        other[100] = true
        set.formUnion(other)
        #expect((0..<130).filter { set[$0] } == [0, 64, 100, 129])
        // A series of up to 64 months is held inline.
        var year = MonthSet(count: 12)
        year[11] = true; year[0] = true; year[0] = false
        #expect((0..<12).filter { year[$0] } == [11])
        #expect(year == { var y = MonthSet(count: 12); y[11] = true; return y }())
    }

    @Test("shared premium over merged accumulators equals shared premium over all users")
    func sharedPremiumMerges() {
        let catalog = ProductCatalog(primary: [.init(productId: "p", app: "LovU", plan: "premium", yearly: false, price: 1_990, currency: brl)])
        func kpis(_ users: [SubscriptionTimeline]) -> SubscriptionKPIs {
            var k = SubscriptionKPIs(settings: .init(period: YearMonth("2026-10")!, firstMonth: YearMonth("2020-01")!, timezone: utc),
                                     catalog: catalog)
            for u in users { k.add(u) }
            return k
        }
        let users = [
            SubscriptionTimeline(app: "LovU", userId: "a", events: [ev(.subscribed, "2021-03-01T00:00:00Z"), ev(.expired, "2026-09-15T00:00:00Z")]),
            SubscriptionTimeline(app: "LovU", userId: "b", events: [ev(.subscribed, "2026-09-20T00:00:00Z")]),
            SubscriptionTimeline(app: "LovU", userId: "c", events: [ev(.signup, "2026-01-01T00:00:00Z", nil)]),
        ]
        let connections = [
            PartnerConnection(userId: "a", partnerId: "c", connectedAt: ts("2020-06-01T00:00:00Z")),
            PartnerConnection(userId: "c", partnerId: "b", connectedAt: ts("2026-09-01T00:00:00Z")),
            PartnerConnection(userId: "a", partnerId: "b", connectedAt: ts("2026-01-01T00:00:00Z")),
        ]
        let whole = kpis(users)
        var left = kpis([users[0]])
        left.merge(kpis(Array(users.dropFirst())))
        #expect(left.sharedPremium(connections) == whole.sharedPremium(connections))
        let rows = whole.sharedPremium(connections)
        #expect(rows.count == 82)   // 2020-01 … 2026-10
        func at(_ month: String) -> [Int]? {
            rows.first { $0.month == YearMonth(month)! }.map { [$0.payers, $0.sharedUsers] }
        }
        #expect(at("2021-02") == [0, 0])   // a subscribes at this month's T, not before it
        #expect(at("2021-03") == [1, 1])   // c via a
        #expect(at("2026-08") == [1, 2])   // c and b via a; c–b connects at T, not before it
        #expect(at("2026-09") == [1, 2])   // a expired: c and a via b
    }
}
