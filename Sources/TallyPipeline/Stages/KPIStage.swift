import Foundation
import Logging
import TallyCore
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
    /// The most months the monthly series (churn, MRR history, movements) go back.
    static let seriesMonths = 24

    func run(_ context: ReportContext) throws -> ReportOutcome {
        let started = Date()
        context.progress.begin("kpis")
        let final = try context.reads.read { reader in try build(reader, context) }
        let report = final.kpis
        let folder = context.outDirectory.appendingPathComponent("kpis")
        var outputs: [RunManifest.Output] = []
        for table in KPICSV.tables(report) {
            let writer = try table.layout.writer(in: folder)
            for row in table.rows { try writer.writeRow(row) }
            try context.outputs.add(writer)
            outputs.append(.init(path: "kpis/\(table.layout.name)", rows: writer.rowCount))
        }
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
        context.progress.step(["stage": "kpis", "users": "\(final.subscribers)", "seconds": String(format: "%.3f", seconds)])
        return ReportOutcome(name: name, rejects: final.rejects, outputs: outputs.sorted { $0.path < $1.path }, checks: checks,
                             summary: KPIText.summary(report), rows: final.subscribers, seconds: seconds)
    }

    /// How many subscribers, swipes or matches one partial summary covers
    /// before it is merged into the total.
    static let subscribersPerPartial = 4096
    static let swipesPerPartial = 1 << 18

    /// Reads the warehouse and folds the family's partitions: each batch of
    /// subscribers, swipes or matches into a partial summary, each partial
    /// merged into the total, the total finalised.
    func build(_ reader: WarehouseReader, _ context: ReportContext) throws -> KPIsFamily.Report {
        let (period, tz) = (context.period, context.timezone)
        let previous = period.adding(months: -1)
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
        try reader.forEachSwipe(from: tz.startOfDay(previous.firstDay), to: tz.endOfMonth(period)) { from, action, at in
            swipes.append(KPIsFamily.Swipe(from: from, action: action, at: at))
            if swipes.count == Self.swipesPerPartial { addSwipes() }
        }
        if !swipes.isEmpty { addSwipes() }
        swipes = []
        family.add(.matches(batch: 0, try reader.matchInstants(from: tz.startOfDay(previous.firstDay), to: tz.endOfMonth(period))),
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
        return family.finalise(total)
    }

    /// The family for `period`, with what every partition shares read from
    /// the warehouse: the product catalog, the first month of data, App
    /// Store event counts, partner connections and (with a reporting
    /// currency) the fx rates.
    static func family(_ reader: WarehouseReader, config: TallyConfig, period: YearMonth,
                       timezone tz: ReportTimeZone) throws -> KPIsFamily {
        let catalog = ProductCatalog(primary: try reader.products(), fallback: config.products.map(ProductCatalog.Entry.init))
        let firstData = try reader.firstSubscriptionEvent().map { tz.localDate(of: $0).yearMonth } ?? period
        let appStore = try reader.appStoreEventCounts(first: period.firstDay, last: period.lastDay).map {
            AppStoreEventCountRow(date: $0.date, app: $0.app, subscription: $0.subscription, appleEvent: $0.appleEvent,
                                  event: $0.event.rawValue, quantity: $0.quantity)
        }
        return KPIsFamily(settings: .init(
            subscriptions: SubscriptionKPIs.Settings(
                period: period, firstMonth: max(firstData, period.adding(months: -(seriesMonths - 1))), timezone: tz,
                conversionWindowDays: config.kpis.conversionWindowDays, retentionDays: config.kpis.retentionDays),
            catalog: catalog, targets: KPIReport.Targets(config.kpis), connections: try reader.partnerConnections(),
            appStoreEvents: appStore, reportingCurrency: config.kpis.reportingCurrency,
            fx: config.kpis.reportingCurrency == nil ? FxTable() : FxTable(try reader.fxRates())))
    }
}
