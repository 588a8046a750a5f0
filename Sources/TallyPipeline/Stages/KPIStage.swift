import Foundation
import Logging
import TallyCore
import TallyReports
import TallyWarehouse

/// Product KPIs: the swipe funnel (FypMatch), freemium conversion, MRR,
/// churn and retention (FisioFlow, LovU, FypMatch), LovU shared premium.
///
/// Swipes of the period (and the month before, for comparison) are streamed
/// in time order; subscriptions one user timeline at a time (the unit of
/// work), so memory holds one user's events plus the per-month tallies.
/// Writes `kpis/*.csv`, `kpis/kpis.xlsx` and `kpis/kpis.txt`.
struct KPIStage: ReportStage {
    let name = "kpis"
    let datasets: Set<String> = ["swipes", "subscriptions"]
    let cores = CoreUse.one
    let derivedTables: Set<DerivedTable> = [.swipeMatches, .subscriptionEvents]
    /// The most months the monthly series (churn, MRR history, movements) go back.
    static let seriesMonths = 24

    func run(_ context: ReportContext) throws -> ReportOutcome {
        let started = Date()
        context.progress.begin("kpis")
        let (report, rejects, users) = try context.reads.read { reader in try build(reader, context) }
        let folder = context.outDirectory.appendingPathComponent("kpis")
        var outputs = try KPICSVFiles.write(report, to: folder, publish: context.outputs)
        let workbookFile = try AtomicFile(destination: folder.appendingPathComponent("kpis.xlsx"))
        try KPIWorkbook.write(report, path: workbookFile.temporary.path)
        context.outputs.add(workbookFile)
        let text = KPIText.render(report)
        let textFile = try AtomicFile(destination: folder.appendingPathComponent("kpis.txt"))
        try textFile.write(text.joined(separator: "\n").appending("\n").utf8)
        context.outputs.add(textFile)
        outputs += [.init(path: "kpis/kpis.xlsx", rows: nil), .init(path: "kpis/kpis.txt", rows: nil)]

        let unbalanced = report.movements.filter { $0.computedEnd != $0.endMRR }
        let checks = [RunManifest.Check(
            name: "kpis: MRR movements add up (start + the signed movements = end; churn and contraction are negative)",
            passed: unbalanced.isEmpty,
            detail: unbalanced.isEmpty ? "\(report.movements.count) app-months"
                : "does not add up for \(unbalanced.prefix(5).map { "\($0.app) \($0.currency.code) \($0.month)" }.joined(separator: ", "))")]
        let seconds = Date().timeIntervalSince(started)
        context.progress.step(["stage": "kpis", "users": "\(users)", "seconds": String(format: "%.3f", seconds)])
        return ReportOutcome(name: name, rejects: rejects, outputs: outputs.sorted { $0.path < $1.path }, checks: checks,
                             summary: KPIText.summary(report), rows: users, seconds: seconds)
    }

    /// Reads the warehouse and computes every KPI of the period.
    func build(_ reader: WarehouseReader, _ context: ReportContext) throws -> (KPIReport, [Reject], Int) {
        let (config, period, tz) = (context.config, context.period, context.timezone)
        let previous = period.adding(months: -1)

        var daily = SwipesDailyAccumulator<NumberedSwiperSet>(month: period)
        var previousDaily = SwipesDailyAccumulator<NumberedSwiperSet>(month: previous)
        try reader.forEachSwipe(from: tz.startOfDay(previous.firstDay), to: tz.endOfMonth(period)) { from, action, at in
            let day = tz.localDate(of: at)
            if day.yearMonth == period {
                daily.addSwipe(on: day, from: from, action: action)
            } else {
                previousDaily.addSwipe(on: day, from: from, action: action)
            }
        }
        for instant in try reader.matchInstants(from: tz.startOfDay(previous.firstDay), to: tz.endOfMonth(period)) {
            let day = tz.localDate(of: instant)
            if day.yearMonth == period { daily.addMatch(on: day) } else { previousDaily.addMatch(on: day) }
        }

        let catalog = ProductCatalog(primary: try reader.products(), fallback: config.products.map(ProductCatalog.Entry.init))
        let firstData = try reader.firstSubscriptionEvent().map { tz.localDate(of: $0).yearMonth } ?? period
        let settings = SubscriptionKPIs.Settings(
            period: period, firstMonth: max(firstData, period.adding(months: -(Self.seriesMonths - 1))), timezone: tz,
            conversionWindowDays: config.kpis.conversionWindowDays, retentionDays: config.kpis.retentionDays)
        var kpis = SubscriptionKPIs(settings: settings, catalog: catalog)
        var rejects: [Reject] = []
        func unknownProduct(_ event: SubscriptionEvent) -> Bool {
            guard let product = event.productId, event.kind != .signup, event.kind != .paywallShown else { return false }
            return catalog[product] == nil
        }
        try reader.forEachSubscriber { app, user, events, ids in
            var kept = events
            if events.contains(where: unknownProduct) {
                kept.removeAll()
                for (event, id) in zip(events, ids) {
                    guard unknownProduct(event), let product = event.productId else { kept.append(event); continue }
                    rejects.append(Reject(dataset: "subscriptions", file: event.source?.file ?? "", line: event.source?.line ?? 0,
                                          id: id, reason: "productId '\(product.prefix(60))' is in neither subscriptions/products nor the products of tally.yml"))
                }
            }
            kpis.add(SubscriptionTimeline(app: app, userId: user, events: kept))
            if kpis.users % 1000 == 0 { context.progress.update("kpis", bytes: 0, rows: kpis.users, detail: "subscribers") }
        }
        let appStore = try reader.appStoreEventCounts(first: period.firstDay, last: period.lastDay).map {
            AppStoreEventCountRow(date: $0.date, app: $0.app, subscription: $0.subscription, appleEvent: $0.appleEvent,
                                  event: $0.event.rawValue, quantity: $0.quantity)
        }
        let report = KPIReport(period: period, targets: KPIReport.Targets(config.kpis), swipesDaily: daily.result,
                               previousSwipesDaily: previousDaily.result, subscriptions: kpis,
                               connections: try reader.partnerConnections(), appStoreEvents: appStore,
                               reportingCurrency: config.kpis.reportingCurrency,
                               fx: config.kpis.reportingCurrency == nil ? FxTable() : FxTable(try reader.fxRates()))
        return (report, rejects, kpis.users)
    }
}
