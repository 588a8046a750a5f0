/// Everything the KPI reports of one period show: computed by the pipeline,
/// rendered by the CSV, XLSX and text writers.
public struct KPIReport: Sendable {
    /// The product's targets and windows, from the configuration.
    public struct Targets: Sendable, Equatable {
        public var conversionMin: Double
        public var conversionMax: Double
        public var retention: Double
        public var conversionWindowDays: Int
        public var retentionDays: Int

        public init(_ kpis: TallyConfig.KPIs) {
            conversionMin = kpis.conversionTargetMin
            conversionMax = kpis.conversionTargetMax
            retention = kpis.retentionTarget
            conversionWindowDays = kpis.conversionWindowDays
            retentionDays = kpis.retentionDays
        }
    }

    public var period: YearMonth
    public var targets: Targets
    /// Every day of the period.
    public var swipesDaily: [SwipesDay]
    /// Every day of the month before, for comparisons.
    public var previousSwipesDaily: [SwipesDay]
    public var conversion: [SubscriptionRows.Conversion]
    public var retention: [SubscriptionRows.Retention]
    public var paywall: [SubscriptionRows.Paywall]
    /// MRR per plan at each month's T of the series (the period's last).
    public var mrrHistory: [SubscriptionRows.MRR]
    public var churn: [SubscriptionRows.Churn]
    public var movements: [SubscriptionRows.Movements]
    /// Revenue, refunds, ARPU and ARPPU per app, currency and month of the series.
    public var revenue: [SubscriptionRows.Revenue]
    /// The M1…M6 retention curve of every first-subscribed cohort up to the period.
    public var retentionCurves: [SubscriptionRows.RetentionCurve]
    public var trials: [SubscriptionRows.Trials]
    public var sharedPremium: [SubscriptionRows.SharedPremium]
    /// App Store Connect Subscription Event report counts of the period's days.
    public var appStoreEvents: [AppStoreEventCountRow]
    /// MRR per currency and the studio total at the period's T and at the month before's.
    public var mrrTotals: MRRTotals
    public var previousMRRTotals: MRRTotals

    /// `reportingCurrency` and `fx` make the studio's MRR total (``MRRTotals``).
    public init(period: YearMonth, targets: Targets, swipesDaily: [SwipesDay], previousSwipesDaily: [SwipesDay],
                subscriptions: SubscriptionKPIs, connections: [PartnerConnection], appStoreEvents: [AppStoreEventCountRow],
                reportingCurrency: Currency? = nil, fx: FxTable = FxTable()) {
        self.period = period
        self.targets = targets
        self.swipesDaily = swipesDaily
        self.previousSwipesDaily = previousSwipesDaily
        conversion = subscriptions.conversion
        retention = subscriptions.retention
        paywall = subscriptions.paywall
        mrrHistory = subscriptions.mrrHistory
        churn = subscriptions.churn
        movements = subscriptions.mrrMovements
        revenue = subscriptions.revenue
        retentionCurves = subscriptions.retentionCurves
        trials = subscriptions.trialConversion
        sharedPremium = subscriptions.sharedPremium(connections)
        self.appStoreEvents = appStoreEvents
        mrrTotals = MRRTotals(mrrHistory, month: period, reportingCurrency: reportingCurrency, fx: fx)
        previousMRRTotals = MRRTotals(mrrHistory, month: period.adding(months: -1), reportingCurrency: reportingCurrency, fx: fx)
    }

    /// MRR per plan at the period's T (`kpis/mrr.csv`).
    public var mrr: [SubscriptionRows.MRR] { mrrHistory.filter { $0.month == period } }

    /// The apps with any subscription figure, in byte order.
    public var apps: [String] {
        Set(conversion.map(\.app) + retention.map(\.app) + mrrHistory.map(\.app) + churn.map(\.app))
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}

/// A day's count of one App Store Connect event for one subscription.
public struct AppStoreEventCountRow: Sendable, Equatable {
    public var date: LocalDate
    public var app: String
    public var subscription: String
    public var appleEvent: String
    /// The contract event name it stands for.
    public var event: String
    public var quantity: Int64

    public init(date: LocalDate, app: String, subscription: String, appleEvent: String, event: String, quantity: Int64) {
        self.date = date
        self.app = app
        self.subscription = subscription
        self.appleEvent = appleEvent
        self.event = event
        self.quantity = quantity
    }
}
