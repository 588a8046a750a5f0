import TallyCore

/// The KPIs family's work on the partitions a transport hands it (batches
/// of swipes and matches and one subscriber at a time, read from the
/// warehouse for `tally run`; a day's swipes and matches and each
/// subscriber of a key, routed records for a dataflow worker): the family's
/// computation (``KPIsFamily/add(_:to:)``, called here and nowhere else),
/// folded into a summary by one partial-size policy (``Fold``).
///
/// ```swift
/// var fold = keys.fold()
/// fold.add(.swipes(batch: 0, swipes))
/// fold.add(.subscriber(app: "lovu", userId: "u1", events: events, ids: ids))
/// let summary = fold.finish()
/// ```
struct KPIsKeys: Sendable {
    let family: KPIsFamily

    /// How many subscribers one partial summary covers before it is merged
    /// into the total: adding to a small summary is cheaper than adding to
    /// the whole run's.
    static let subscribersPerPartial = 4096
    /// How many swipes a transport hands over in one `.swipes` partition at most.
    static let swipesPerPartial = 1 << 18

    /// The KPIs of `period`, given what every partition shares: the first
    /// month of the monthly series (``KPIsFamily/firstMonth(of:period:timezone:)``),
    /// the products of `subscriptions/products` (tally.yml's fill in), the
    /// partner connections, the App Store event counts of the period's days
    /// and the fx rates (used only with a reporting currency).
    init(config: TallyConfig, period: YearMonth, timezone tz: ReportTimeZone, firstMonth: YearMonth,
         products: [ProductCatalog.Entry], connections: [PartnerConnection],
         appStoreEvents: [AppStoreEventCountRow], fxRates: [FxRate]) {
        family = KPIsFamily(settings: .init(
            subscriptions: SubscriptionKPIs.Settings(
                period: period, firstMonth: firstMonth, timezone: tz,
                conversionWindowDays: config.kpis.conversionWindowDays, retentionDays: config.kpis.retentionDays),
            catalog: ProductCatalog(primary: products, fallback: config.products.map(ProductCatalog.Entry.init)),
            targets: KPIReport.Targets(config.kpis), connections: connections,
            appStoreEvents: appStoreEvents, reportingCurrency: config.kpis.reportingCurrency,
            fx: config.kpis.reportingCurrency == nil ? FxTable() : FxTable(fxRates)))
    }

    /// A fold of partitions into a summary, empty.
    func fold() -> Fold { Fold(family: family) }

    /// Partitions folded into a summary: each added to a partial summary,
    /// the partial merged into the total after each batch of swipes or
    /// matches and every ``KPIsKeys/subscribersPerPartial`` subscribers.
    struct Fold {
        let family: KPIsFamily
        private var total: KPIsFamily.Summary
        private var partial: KPIsFamily.Summary
        private var subscribersInPartial = 0

        init(family: KPIsFamily) {
            self.family = family
            total = family.emptySummary()
            partial = family.emptySummary()
        }

        /// Adds one partition.
        mutating func add(_ partition: KPIsFamily.Partition) {
            family.add(partition, to: &partial)
            switch partition {
            case .swipes, .matches:
                mergePartial()
            case .subscriber:
                subscribersInPartial += 1
                if subscribersInPartial == KPIsKeys.subscribersPerPartial { mergePartial() }
            }
        }

        /// The summary of every partition added (the fold is empty after).
        mutating func finish() -> KPIsFamily.Summary {
            mergePartial()
            defer { total = family.emptySummary() }
            return total
        }

        private mutating func mergePartial() {
            total.merge(partial)
            partial = family.emptySummary()
            subscribersInPartial = 0
        }
    }
}
