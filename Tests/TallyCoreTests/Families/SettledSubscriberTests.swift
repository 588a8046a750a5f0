import PropertyBased
import Testing
@testable import TallyCore

/// A settled subscriber's counts (``KPIsFamily/settledMonth(_:asOf:)``)
/// under every later period are its counts under this one, rebased
/// (``SubscriptionKPIs/State/rebased(to:)``).
@Suite("Settled subscribers")
struct SettledSubscriberTests {
    static let saoPaulo = ReportTimeZone(identifier: "America/Sao_Paulo")!
    static let catalog = KPIsFirstMonthTests.catalog

    static func family(_ period: YearMonth, first: YearMonth, timezone: ReportTimeZone = saoPaulo) -> KPIsFamily {
        KPIsFamily(settings: .init(subscriptions: .init(period: period, firstMonth: first, timezone: timezone),
                                   catalog: catalog, targets: KPIReport.Targets(TallyConfig().kpis)))
    }

    /// One subscriber of either app with random events from May 2024 to November 2026, some
    /// naming a product nobody priced; often ending expired or refunded, so that many settle.
    static func partition(seed: UInt64) -> KPIsFamily.Partition {
        var rng = SplitMix64(seed: seed)
        let start = ts("2024-05-01T00:00:00Z").microseconds
        let end = ts("2024-05-01T00:00:00Z").adding(seconds: Int64.random(in: 30...940, using: &rng) * 86_400).microseconds
        let app = Bool.random(using: &rng) ? "LovU" : "FisioFlow"
        let products = (app == "LovU" ? ["lovu.m", "lovu.usd"] : ["silver.m", "gold.y"]) + ["unpriced"]
        var events = (0..<Int.random(in: 1...8, using: &rng)).map { _ in
            let kind = SubscriptionEventKind.allCases.randomElement(using: &rng)!
            return SubscriptionEvent(kind: kind, timestamp: Timestamp(microseconds: Int64.random(in: start..<end, using: &rng)),
                                     productId: kind == .signup ? nil : products.randomElement(using: &rng),
                                     context: kind == .paywallShown ? ["home", "", "limits"].randomElement(using: &rng) : nil)
        }.sorted { $0.timestamp < $1.timestamp }
        if Bool.random(using: &rng) {
            events.append(SubscriptionEvent(kind: Bool.random(using: &rng) ? .expired : .refunded,
                                            timestamp: Timestamp(microseconds: end), productId: nil))
        }
        return .subscriber(app: app, userId: "u\(seed % 97)", events: events, ids: events.indices.map { "e\($0)" })
    }

    static func counted(_ partition: KPIsFamily.Partition, by family: KPIsFamily) -> KPIsFamily.Summary {
        var summary = family.emptySummary()
        family.add(partition, to: &summary)
        return summary
    }

    @Test func aSettledSubscribersCountsAreItsCountsUnderEveryLaterPeriod() async {
        var settled = 0
        await propertyCheck(count: 400, input: Gen.uint64(), Gen.int(in: 0...30), Gen.int(in: 0...30)) { seed, at, later in
            let partition = Self.partition(seed: seed)
            let period = YearMonth("2024-06")!.adding(months: at)
            let family = Self.family(period, first: KPIsFamily.earliestFirstMonth(period))
            guard let month = family.settledMonth(partition, asOf: period) else { return }
            settled += 1
            #expect(month < period)
            let laterPeriod = period.adding(months: later)
            let laterFamily = Self.family(laterPeriod, first: KPIsFamily.earliestFirstMonth(laterPeriod))
            #expect(laterFamily.settledMonth(partition, asOf: laterPeriod) == month, "seed \(seed): settled for good")
            let kept = Self.counted(partition, by: family)
            let direct = Self.counted(partition, by: laterFamily)
            #expect(kept.subscriptions.state.rebased(to: laterFamily.settings.subscriptions) == direct.subscriptions.state,
                    "seed \(seed): \(period) → \(laterPeriod)")
            #expect(kept.rejects.sorted == direct.rejects.sorted)
        }
        #expect(settled > 60, "the generator settles enough subscribers to test (\(settled))")
    }

    @Test func summedSettledCountsRebaseAsTheirSum() throws {
        // Kept counts are a sum over subscribers: rebasing the sum is the sum of the rebased.
        let period = YearMonth("2026-01")!, laterPeriod = YearMonth("2026-10")!
        let family = Self.family(period, first: YearMonth("2024-08")!)
        let laterFamily = Self.family(laterPeriod, first: YearMonth("2025-02")!)
        var kept = family.emptySummary(), direct = laterFamily.emptySummary()
        var count = 0
        for seed in UInt64(0)..<400 {
            let partition = Self.partition(seed: seed)
            guard family.settledMonth(partition, asOf: period) != nil else { continue }
            family.add(partition, to: &kept)
            laterFamily.add(partition, to: &direct)
            count += 1
        }
        #expect(count > 50)
        let rebased = try #require(kept.subscriptions.state.rebased(to: laterFamily.settings.subscriptions))
        #expect(rebased == direct.subscriptions.state)
        let restored = try #require(SubscriptionKPIs(settings: laterFamily.settings.subscriptions, catalog: Self.catalog, state: rebased))
        #expect(restored.mrrHistory == direct.subscriptions.mrrHistory)
        #expect(restored.retentionCurves == direct.subscriptions.retentionCurves)
    }

    static func subscriber(_ events: [(SubscriptionEventKind, String, String?)]) -> KPIsFamily.Partition {
        let events = events.map { SubscriptionEvent(kind: $0.0, timestamp: ts($0.1), productId: $0.2) }
        return .subscriber(app: "LovU", userId: "u1", events: events, ids: events.indices.map { "e\($0)" })
    }

    @Test func whatSettles() {
        let october = YearMonth("2026-10")!
        let family = Self.family(october, first: YearMonth("2025-01")!)
        // Expired in August: settled, in August.
        #expect(family.settledMonth(Self.subscriber([(.subscribed, "2026-06-03T10:00:00-03:00", "lovu.m"),
                                                     (.expired, "2026-08-31T23:00:00-03:00", nil)]), asOf: october)
                == YearMonth("2026-08")!)
        // The month is the report time zone's: 1 October 01:00 UTC is 30 September in São Paulo.
        #expect(family.settledMonth(Self.subscriber([(.signup, "2026-10-01T01:00:00Z", nil)]), asOf: october)
                == YearMonth("2026-09")!)
        // An event at the period's first instant: not settled.
        #expect(family.settledMonth(Self.subscriber([(.signup, "2026-10-01T00:00:00-03:00", nil)]), asOf: october) == nil)
        // Still paid after the last event, even with auto-renew off: not settled.
        #expect(family.settledMonth(Self.subscriber([(.subscribed, "2026-06-03T10:00:00-03:00", "lovu.m")]), asOf: october) == nil)
        #expect(family.settledMonth(Self.subscriber([(.subscribed, "2026-06-03T10:00:00-03:00", "lovu.m"),
                                                     (.cancelled, "2026-07-03T10:00:00-03:00", nil)]), asOf: october) == nil)
        // A subscription to a product nobody priced is a reject: it does not make the subscriber paid.
        #expect(family.settledMonth(Self.subscriber([(.subscribed, "2026-06-03T10:00:00-03:00", "unpriced")]), asOf: october)
                == YearMonth("2026-06")!)
        // A trial is not paid.
        #expect(family.settledMonth(Self.subscriber([(.trialStarted, "2026-02-03T10:00:00-03:00", "lovu.m")]), asOf: october)
                == YearMonth("2026-02")!)
        // Events out of time order apply in time order: subscribed after the refund, so paid.
        #expect(family.settledMonth(Self.subscriber([(.refunded, "2026-05-03T10:00:00-03:00", nil),
                                                     (.subscribed, "2026-04-03T10:00:00-03:00", "lovu.m")]), asOf: october)
                == YearMonth("2026-05")!)
        #expect(family.settledMonth(Self.subscriber([(.subscribed, "2026-05-03T10:00:00-03:00", "lovu.m"),
                                                     (.refunded, "2026-04-03T10:00:00-03:00", nil)]), asOf: october) == nil)
        #expect(family.settledMonth(.subscriber(app: "LovU", userId: "u1", events: [], ids: []), asOf: october) == nil)
        #expect(family.settledMonth(.matches(batch: 0, []), asOf: october) == nil)
    }

    @Test func rebasingRefusesOtherSettings() {
        let state = Self.family(YearMonth("2026-06")!, first: YearMonth("2025-01")!).emptySummary().subscriptions.state
        #expect(state.rebased(to: .init(period: YearMonth("2026-05")!, firstMonth: YearMonth("2025-01")!, timezone: Self.saoPaulo)) == nil)
        #expect(state.rebased(to: .init(period: YearMonth("2026-07")!, firstMonth: YearMonth("2024-12")!, timezone: Self.saoPaulo)) == nil)
        #expect(state.rebased(to: .init(period: YearMonth("2026-07")!, firstMonth: YearMonth("2025-01")!,
                                        timezone: ReportTimeZone(identifier: "UTC")!)) == nil)
        #expect(state.rebased(to: .init(period: YearMonth("2026-07")!, firstMonth: YearMonth("2025-01")!, timezone: Self.saoPaulo,
                                        retentionDays: 60)) == nil)
        #expect(state.rebased(to: .init(period: YearMonth("2028-07")!, firstMonth: YearMonth("2026-08")!, timezone: Self.saoPaulo))?
                .firstMonth == YearMonth("2026-08")!)
    }
}
