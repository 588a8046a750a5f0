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
        let (family, total, kept) = try context.reads.read { reader in try build(reader, context) }
        var outcome = try KPIOutput.write(family, total, locale: context.locale, outDirectory: context.outDirectory, outputs: context.outputs,
                                          started: started, previousRun: context.previousRun)
        outcome.name = name
        outcome.keyStates = [kept.update()]
        context.progress.step(["stage": "kpis", "users": "\(outcome.rows)", "kept": "\(kept.takenCount)",
                               "seconds": String(format: "%.3f", outcome.seconds)])
        return outcome
    }

    /// Reads the warehouse and folds the family's partitions (``KPIsKeys/Fold``):
    /// the swipes in batches, the matches, then one subscriber at a time,
    /// the settled ones counted by the month of their last event, and those
    /// an earlier run counted taken as kept, their events unread (``KeptSubscribers``).
    func build(_ reader: WarehouseReader, _ context: ReportContext) throws -> (KPIsFamily, KPIsFamily.Summary, KeptSubscribers) {
        let (period, tz) = (context.period, context.timezone)
        let window = KPIsFamily.swipeWindow(period, tz)
        let keys = try Self.keys(reader, config: context.config, period: period, timezone: tz)
        var fold = keys.fold()

        var swipes: [KPIsFamily.Swipe] = []
        var batch = 0
        func addSwipes() {
            fold.add(.swipes(batch: batch, swipes))
            swipes.removeAll(keepingCapacity: true)
            batch += 1
        }
        try reader.forEachSwipe(from: window.lowerBound, to: window.upperBound) { from, action, at in
            swipes.append(KPIsFamily.Swipe(from: from, action: action, at: at))
            if swipes.count == KPIsKeys.swipesPerPartial { addSwipes() }
        }
        if !swipes.isEmpty { addSwipes() }
        swipes = []
        fold.add(.matches(batch: 0, try reader.matchInstants(from: window.lowerBound, to: window.upperBound)))

        var kept = try KeptSubscribers(reader, family: keys.family)
        var subscribers = 0
        try reader.forEachSubscriber(skipping: kept.skipping, gather: kept.gathers) { app, user, events, ids in
            let partition = KPIsFamily.Partition.subscriber(app: app, userId: user, events: events, ids: ids)
            if !kept.counts(partition) { fold.add(partition) }
            subscribers += 1
            if subscribers % 1000 == 0 { context.progress.update("kpis", bytes: 0, rows: subscribers, detail: "subscribers") }
        }
        var summary = fold.finish()
        kept.finish(into: &summary)
        return (keys.family, summary, kept)
    }

    /// The KPIs of `period`, with what every partition shares read from
    /// the warehouse: the product catalog, the first month of data, App
    /// Store event counts, partner connections and (with a reporting
    /// currency) the fx rates.
    static func keys(_ reader: WarehouseReader, config: TallyConfig, period: YearMonth,
                     timezone tz: ReportTimeZone) throws -> KPIsKeys {
        let appStore = AppStoreDailyCounts.rows(
            try reader.appStoreEventCounts(first: period.firstDay, last: period.lastDay).lazy.map(row), period: period)
        return KPIsKeys(config: config, period: period, timezone: tz,
                        firstMonth: KPIsFamily.firstMonth(of: try reader.firstSubscriptionEvent(
                            before: tz.startOfDay(KPIsFamily.earliestFirstMonth(period).firstDay)), period: period, timezone: tz),
                        products: try reader.products(), connections: try reader.partnerConnections(), appStoreEvents: appStore,
                        fxRates: config.kpis.reportingCurrency == nil ? [] : try reader.fxRates())
    }

    /// A row of a Subscription Event report as the KPIs list it.
    static func row(_ count: AppStoreEventCount) -> AppStoreEventCountRow {
        AppStoreEventCountRow(date: count.date, app: count.app, subscription: count.subscription, appleEvent: count.appleEvent,
                              event: count.event.rawValue, quantity: count.quantity)
    }
}
