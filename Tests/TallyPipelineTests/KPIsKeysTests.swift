import Testing
import TallyCore
@testable import TallyPipeline

/// ``KPIsKeys``: the one fold of the KPI partitions, whatever transport hands them over.
@Suite("KPIsKeys: partitions folded in partials count as one summary")
struct KPIsKeysTests {
    static let utc = ReportTimeZone(identifier: "UTC")!
    static let brl = Currency(code: "BRL")!
    static let keys = KPIsKeys(
        config: TallyConfig(), period: YearMonth("2026-10")!, timezone: utc, firstMonth: YearMonth("2025-06")!,
        products: [.init(productId: "silver.m", app: "FisioFlow", plan: "silver", yearly: false, price: 9_700, currency: brl)],
        connections: [], appStoreEvents: [], fxRates: [])

    static func at(_ text: String) -> Timestamp { Timestamp(seconds: Int64(LocalDate.parse(text)!.daysSinceEpoch) * 86_400 + 43_200) }

    /// More subscribers than one partial holds (a subscriber in 7 names an
    /// unknown product), then swipes in three batches and the matches.
    static var partitions: [KPIsFamily.Partition] {
        var partitions: [KPIsFamily.Partition] = (0..<(KPIsKeys.subscribersPerPartial + 50)).map { n in
            let product = n % 7 == 0 ? "nope.m" : "silver.m"
            let events = [SubscriptionEvent(kind: .signup, timestamp: at("2026-0\(1 + n % 9)-02")),
                          SubscriptionEvent(kind: .subscribed, timestamp: at("2026-\(n % 2 == 0 ? "09" : "10")-05"), productId: product)]
            return .subscriber(app: "FisioFlow", userId: "u\(n)", events: events, ids: ["s\(n)", "b\(n)"])
        }
        let actions: [SwipeAction] = [.like, .pass, .superLike, .report]
        for batch in 0..<3 {
            partitions.append(.swipes(batch: batch, (0..<40).map { n in
                KPIsFamily.Swipe(from: Int64(n % 11), action: actions[n % 4], at: at("2026-\(batch == 0 ? "09" : "10")-\(10 + n % 9)"))
            }))
        }
        partitions.append(.matches(batch: 0, [at("2026-10-03"), at("2026-09-20"), at("2026-10-03")]))
        return partitions
    }

    @Test func aFoldEqualsEachPartitionComputedAndMerged() {
        var fold = Self.keys.fold()
        var merged = Self.keys.family.emptySummary()
        for partition in Self.partitions {
            fold.add(partition)
            merged.merge(Self.keys.family.compute(partition).summary)
        }
        let folded = fold.finish()
        #expect(folded.state == merged.state)
        let report = Self.keys.family.finalise(folded)
        #expect(report.subscribers == KPIsKeys.subscribersPerPartial + 50)
        #expect(report.rejects.count == (KPIsKeys.subscribersPerPartial + 50 + 6) / 7)
        #expect(folded.swipes != Self.keys.family.emptySummary().swipes && folded.previousSwipes != Self.keys.family.emptySummary().previousSwipes)
        // Finishing empties the fold.
        #expect(fold.finish().state == Self.keys.family.emptySummary().state)
    }
}
