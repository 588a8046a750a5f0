import Foundation
import Logging
import TallyCore
import TallyIngest
import TallyReports
import TallyWarehouse

/// Product KPIs: the swipe funnel (FypMatch), freemium conversion, MRR,
/// churn and retention (FisioFlow, LovU, FypMatch), LovU shared premium.
///
/// The family's rules, partitions, merges and finalisation are
/// ``KPIsFamily`` (TallyCore); its CSV, XLSX and text renderers are
/// ``KPICSV``, ``KPIWorkbook`` and ``KPIText`` (TallyReports). Swipes of the
/// period (and the month before, for comparison) are streamed in time
/// order; subscriptions one user timeline at a time, so memory holds one
/// batch of swipes or one user's events plus the per-month tallies.
/// Writes `kpis/*.csv`, `kpis/kpis.xlsx` and `kpis/kpis.txt`.
struct KPIStage: ReportStage {
    let name = "kpis"
    let datasets: Set<String> = ["swipes", "subscriptions"]
    let cores = CoreUse.one
    let derivedTables: Set<DerivedTable> = [.swipeMatches, .subscriptionEvents]

    func run(_ context: ReportContext) throws -> ReportOutcome {
        let started = Date()
        context.progress.begin("kpis")
        let (family, total) = try context.reads.read { reader in try build(reader, context) }
        var outcome = try KPIOutput.write(family, total, locale: context.locale, outDirectory: context.outDirectory, outputs: context.outputs, started: started)
        outcome.name = name
        context.progress.step(["stage": "kpis", "users": "\(outcome.rows)", "seconds": String(format: "%.3f", outcome.seconds)])
        return outcome
    }

    /// How many subscribers, swipes or matches one partial summary covers
    /// before it is merged into the total.
    static let subscribersPerPartial = 4096
    static let swipesPerPartial = 1 << 18

    /// Reads the warehouse and folds the family's partitions: each batch of
    /// subscribers, swipes or matches into a partial summary, each partial
    /// merged into the total (which ``KPIOutput`` finalises).
    func build(_ reader: WarehouseReader, _ context: ReportContext) throws -> (KPIsFamily, KPIsFamily.Summary) {
        let (period, tz) = (context.period, context.timezone)
        let window = KPIsFamily.swipeWindow(period, tz)
        let family = try Self.family(reader, config: context.config, period: period, timezone: tz)
        var total = family.emptySummary()
        var partial = family.emptySummary()
        var inPartial = 0
        func mergePartial() {
            total.merge(partial)
            partial = family.emptySummary()
            inPartial = 0
        }

        var swipes: [KPIsFamily.Swipe] = []
        var batch = 0
        func addSwipes() {
            family.add(.swipes(batch: batch, swipes), to: &partial)
            mergePartial()
            swipes.removeAll(keepingCapacity: true)
            batch += 1
        }
        try reader.forEachSwipe(from: window.lowerBound, to: window.upperBound) { from, action, at in
            swipes.append(KPIsFamily.Swipe(from: from, action: action, at: at))
            if swipes.count == Self.swipesPerPartial { addSwipes() }
        }
        if !swipes.isEmpty { addSwipes() }
        swipes = []
        family.add(.matches(batch: 0, try reader.matchInstants(from: window.lowerBound, to: window.upperBound)),
                   to: &partial)
        mergePartial()

        var subscribers = 0
        try reader.forEachSubscriber { app, user, events, ids in
            family.add(.subscriber(app: app, userId: user, events: events, ids: ids), to: &partial)
            inPartial += 1
            subscribers += 1
            if inPartial == Self.subscribersPerPartial { mergePartial() }
            if subscribers % 1000 == 0 { context.progress.update("kpis", bytes: 0, rows: subscribers, detail: "subscribers") }
        }
        mergePartial()
        return (family, total)
    }

    /// The family for `period`, with what every partition shares read from
    /// the warehouse: the product catalog, the first month of data, App
    /// Store event counts, partner connections and (with a reporting
    /// currency) the fx rates.
    static func family(_ reader: WarehouseReader, config: TallyConfig, period: YearMonth,
                       timezone tz: ReportTimeZone) throws -> KPIsFamily {
        let appStore = AppStoreDailyCounts.rows(
            try reader.appStoreEventCounts(first: period.firstDay, last: period.lastDay).lazy.map(row), period: period)
        return family(config: config, period: period, timezone: tz,
                      firstMonth: KPIsFamily.firstMonth(of: try reader.firstSubscriptionEvent(), period: period, timezone: tz),
                      products: try reader.products(), connections: try reader.partnerConnections(), appStoreEvents: appStore,
                      fxRates: config.kpis.reportingCurrency == nil ? [] : try reader.fxRates())
    }

    /// The family for `period`, given what every partition shares: the
    /// first month of the monthly series (``KPIsFamily/firstMonth(of:period:timezone:)``),
    /// the products of `subscriptions/products` (tally.yml's fill in), the
    /// partner connections, the App Store event counts of the period's days
    /// and the fx rates (used only with a reporting currency).
    static func family(config: TallyConfig, period: YearMonth, timezone tz: ReportTimeZone, firstMonth: YearMonth,
                       products: [ProductCatalog.Entry], connections: [PartnerConnection],
                       appStoreEvents: [AppStoreEventCountRow], fxRates: [FxRate]) -> KPIsFamily {
        KPIsFamily(settings: .init(
            subscriptions: SubscriptionKPIs.Settings(
                period: period, firstMonth: firstMonth, timezone: tz,
                conversionWindowDays: config.kpis.conversionWindowDays, retentionDays: config.kpis.retentionDays),
            catalog: ProductCatalog(primary: products, fallback: config.products.map(ProductCatalog.Entry.init)),
            targets: KPIReport.Targets(config.kpis), connections: connections,
            appStoreEvents: appStoreEvents, reportingCurrency: config.kpis.reportingCurrency,
            fx: config.kpis.reportingCurrency == nil ? FxTable() : FxTable(fxRates)))
    }

    /// A row of a Subscription Event report as the KPIs list it.
    static func row(_ count: AppStoreEventCount) -> AppStoreEventCountRow {
        AppStoreEventCountRow(date: count.date, app: count.app, subscription: count.subscription, appleEvent: count.appleEvent,
                              event: count.event.rawValue, quantity: count.quantity)
    }
}
