import Foundation
import TallyCore
import TallyIngest
import TallyReports
import TallyWire

/// The KPIs family's part of ``FlowMerge``: folds the partial summaries of
/// the KPI stages (in any order: their merge is associative and
/// commutative), narrows the total to the first month of the monthly
/// series (the month of the earliest event any partition met), finalises
/// it with what only the report needs (the partner connections that
/// counted, the App Store event counts of the period's days, the fx
/// rates) and writes the files with ``KPIOutput``, as `tally run` does.
final class KPIMerge {
    let plan: FlowPlan
    private var counting: KPIsFamily?
    private var total: KPIsFamily.Summary?
    private var firstEvent: Timestamp?
    private var connections: [PartnerConnection] = []
    private var appStoreCounts: [AppStoreEventCount] = []
    private var productsRead: [ProductCatalog.Entry]?

    init(plan: FlowPlan) { self.plan = plan }

    /// Takes one KPI record routed to the merge.
    func add(_ record: KPIRecord) throws {
        switch record {
        case .partial(let state, let first):
            let family = try family()
            guard let summary = family.summary(from: state) else {
                preconditionFailure("a KPI partial counted under other settings than the run's")
            }
            if total == nil { total = family.emptySummary() }
            total!.merge(summary)
            if let first { firstEvent = min(firstEvent ?? first, first) }
        case .connection(let connection):
            connections.append(connection)
        case .appStoreCount(let count):
            appStoreCounts.append(count)
        default:
            preconditionFailure("not a KPI merge record: \(record)")
        }
    }

    /// Writes `kpis/` into `outDirectory`, handing the files to `outputs`.
    func write(outDirectory: URL, outputs: OutputSet) throws -> ReportOutcome {
        let started = Date()
        let (period, tz, config) = (plan.period, plan.timezone, plan.config)
        let family = KPIsKeys(
            config: config, period: period, timezone: tz, firstMonth: KPIsFamily.firstMonth(of: firstEvent, period: period, timezone: tz),
            products: try products(), connections: connections.sorted(by: Self.precedes), appStoreEvents: Self.daily(appStoreCounts, period),
            fxRates: config.kpis.reportingCurrency == nil ? [] : try FlowBroadcast.fxRates(plan)).family
        guard let summary = (total ?? family.emptySummary()).narrowed(to: family.settings) else {
            preconditionFailure("the KPI partials start their series after the run's first month")
        }
        return try KPIOutput.write(family, summary, locale: plan.locale, outDirectory: outDirectory, outputs: outputs, started: started)
    }

    private func family() throws -> KPIsFamily {
        if let counting { return counting }
        let made = KPIBroadcast.counting(plan, products: try products()).family
        counting = made
        return made
    }

    /// The products that count, read from the plan's files once.
    private func products() throws -> [ProductCatalog.Entry] {
        if let productsRead { return productsRead }
        let read = try KPIBroadcast.products(plan)
        productsRead = read
        return read
    }

    /// The connections' order in the warehouse: user, partner (bytes), then when they connected.
    private static func precedes(_ a: PartnerConnection, _ b: PartnerConnection) -> Bool {
        if case let c = ByteOrder.compare(a.userId, b.userId), c != 0 { return c < 0 }
        if case let c = ByteOrder.compare(a.partnerId, b.partnerId), c != 0 { return c < 0 }
        return a.connectedAt < b.connectedAt
    }

    /// The App Store event counts as the KPIs list them (``AppStoreDailyCounts``).
    static func daily(_ counts: [AppStoreEventCount], _ period: YearMonth) -> [AppStoreEventCountRow] {
        AppStoreDailyCounts.rows(counts.lazy.map(KPIStage.row), period: period)
    }
}
