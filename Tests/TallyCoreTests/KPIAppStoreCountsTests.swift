import Testing
@testable import TallyCore

/// The App Store event counts the KPIs list: the period's days only, summed
/// per day, app, subscription, Apple event and contract event, in that
/// order by bytes, whatever order and split the rows come in.
@Suite("KPIs: App Store Connect daily event counts")
struct KPIAppStoreCountsTests {
    static func row(_ date: String, _ app: String, _ subscription: String, _ appleEvent: String, _ event: String,
                    _ quantity: Int64) -> AppStoreEventCountRow {
        AppStoreEventCountRow(date: day(date), app: app, subscription: subscription, appleEvent: appleEvent, event: event,
                              quantity: quantity)
    }

    static let rows = [
        row("2026-10-02", "LovU", "Premium", "Renew", "renewed", 3),
        row("2026-10-01", "LovU", "Premium", "Subscribe", "subscribed", 1),
        row("2026-10-02", "LovU", "Premium", "Renew", "renewed", 4),
        row("2026-09-30", "LovU", "Premium", "Renew", "renewed", 9),             // the month before
        row("2026-11-01", "LovU", "Premium", "Renew", "renewed", 9),             // the month after
        row("2026-10-02", "FisioFlow", "Gold", "Renew", "renewed", 2),
        row("2026-10-02", "LovU", "Premium", "Start Introductory Price", "trial_started", 5),
        row("2026-10-02", "LovU", "Premium", "Start Introductory Price", "subscribed", 1),   // another contract event
        row("2026-10-02", "Äpp", "Premium", "Renew", "renewed", 1),
        row("2026-10-02", "A\u{308}pp", "Premium", "Renew", "renewed", 1),       // canonically equal, other bytes
    ]

    @Test("summed per key within the period, listed by day then app, subscription and events by bytes")
    func summedAndOrdered() {
        let listed = AppStoreDailyCounts.rows(Self.rows, period: YearMonth("2026-10")!)
        #expect(listed.map { "\($0.date) \($0.app) \($0.appleEvent) \($0.event) \($0.quantity)" } == [
            "2026-10-01 LovU Subscribe subscribed 1",
            "2026-10-02 A\u{308}pp Renew renewed 1",
            "2026-10-02 FisioFlow Renew renewed 2",
            "2026-10-02 LovU Renew renewed 7",
            "2026-10-02 LovU Start Introductory Price subscribed 1",
            "2026-10-02 LovU Start Introductory Price trial_started 5",
            "2026-10-02 Äpp Renew renewed 1",
        ])
    }

    @Test("the same rows whatever their order and however they are split")
    func orderAndSplitDoNotMatter() {
        let period = YearMonth("2026-10")!
        let whole = AppStoreDailyCounts.rows(Self.rows, period: period)
        var rng = SplitMix64(seed: 11)
        for _ in 0..<20 {
            let shuffled = Self.rows.shuffled(using: &rng)
            #expect(AppStoreDailyCounts.rows(shuffled, period: period) == whole)
            // Summing the sums of two halves gives the same rows.
            let cut = Int.random(in: 0...shuffled.count, using: &rng)
            let halves = AppStoreDailyCounts.rows(shuffled[..<cut], period: period)
                + AppStoreDailyCounts.rows(shuffled[cut...], period: period)
            #expect(AppStoreDailyCounts.rows(halves, period: period) == whole)
        }
    }
}
