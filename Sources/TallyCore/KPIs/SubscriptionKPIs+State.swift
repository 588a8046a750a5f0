extension SubscriptionKPIs {
    /// The mergeable part of ``SubscriptionKPIs``: every count its users
    /// added, and the settings they were counted under. The settings' time
    /// zone is kept by identifier; the product catalogue is not kept (the
    /// counts already hold the prices it gave), so restoring needs both
    /// again (``init(settings:catalog:state:)``).
    ///
    /// Two states are equal when every count is; their wire lines are then
    /// equal too (entries are written in a fixed order).
    public struct State: Sendable, Equatable {
        package struct PaywallCount: Sendable, Equatable {
            package var events: Int
            package var users: Int
            package init(events: Int, users: Int) { self.events = events; self.users = users }
        }
        package struct PlanCount: Sendable, Equatable {
            package var subscribers: Int
            package var mrr: Int64
            package init(subscribers: Int, mrr: Int64) { self.subscribers = subscribers; self.mrr = mrr }
        }

        // Package access: the line encoding writes and reads every count.
        package var period: YearMonth
        package var firstMonth: YearMonth
        package var timezone: String
        package var conversionWindowDays: Int
        package var retentionDays: Int
        package var sharingApp: String
        package var users = 0
        package var conversions: [AppMonth: KPIRate] = [:]
        package var retentions: [AppMonth: KPIRate] = [:]
        package var trials: [AppMonth: KPIRate] = [:]
        package var churns: [AppMonth: KPIRate] = [:]
        package var cancellations: [AppMonth: Int] = [:]
        package var refunds: [AppMonth: Int] = [:]
        package var shown: [AppText: PaywallCount] = [:]
        package var credited: [AppText: Int] = [:]
        package var creditedShown: [AppText: Int] = [:]
        package var mrr: [PlanKey: PlanCount] = [:]
        package var movements: [MoneyKey: SubscriptionRows.Movements] = [:]
        /// Paid users of the sharing app, with the months at whose T they are paid.
        package var sharingPaid: [String: Set<YearMonth>] = [:]
        package var sharingAppName: String?
        package var revenues: [MoneyKey: RevenueCount] = [:]
        package var activeUsers: [AppMonth: Int] = [:]
        package var curves: [AppMonth: [Int]] = [:]

        /// A state of no counts, under these settings.
        package init(period: YearMonth, firstMonth: YearMonth, timezone: String, conversionWindowDays: Int, retentionDays: Int,
                     sharingApp: String) {
            self.period = period
            self.firstMonth = firstMonth
            self.timezone = timezone
            self.conversionWindowDays = conversionWindowDays
            self.retentionDays = retentionDays
            self.sharingApp = sharingApp
        }

        /// Whether the state was counted under `settings`.
        public func matches(_ settings: Settings) -> Bool {
            period == settings.period && firstMonth == settings.firstMonth && timezone == settings.timezone.identifier
                && conversionWindowDays == settings.conversionWindowDays && retentionDays == settings.retentionDays
                && sharingApp == settings.sharingApp
        }
    }

    /// The counts so far, as a ``State``.
    public var state: State {
        var state = State(period: settings.period, firstMonth: settings.firstMonth, timezone: settings.timezone.identifier,
                          conversionWindowDays: settings.conversionWindowDays, retentionDays: settings.retentionDays,
                          sharingApp: settings.sharingApp)
        state.users = users
        state.conversions = conversions
        state.retentions = retentions
        state.trials = trials
        state.churns = churns
        state.cancellations = cancellations
        state.refunds = refunds
        state.shown = shown.mapValues { State.PaywallCount(events: $0.events, users: $0.users) }
        state.credited = credited
        state.creditedShown = creditedShown
        state.mrr = mrr.mapValues { State.PlanCount(subscribers: $0.subscribers, mrr: $0.mrr) }
        state.movements = movements
        state.sharingPaid = sharingPaid.mapValues { set in Set(months.indices.filter { set[$0] }.map { months[$0] }) }
        state.sharingAppName = sharingAppName
        state.revenues = revenues
        state.activeUsers = activeUsers
        state.curves = curves
        return state
    }

    /// KPIs holding `state`'s counts, to merge or finish; nil when `state`
    /// was counted under other settings, or names a paid month outside them.
    public init?(settings: Settings, catalog: ProductCatalog, state: State) {
        self.init(settings: settings, catalog: catalog)
        guard state.matches(settings) else { return nil }
        users = state.users
        conversions = state.conversions
        retentions = state.retentions
        trials = state.trials
        churns = state.churns
        cancellations = state.cancellations
        refunds = state.refunds
        shown = state.shown.mapValues { ($0.events, $0.users) }
        credited = state.credited
        creditedShown = state.creditedShown
        mrr = state.mrr.mapValues { ($0.subscribers, $0.mrr) }
        movements = state.movements
        var index: [YearMonth: Int] = [:]
        for (i, month) in months.enumerated() { index[month] = i }
        for (user, paid) in state.sharingPaid {
            var set = MonthSet(count: months.count)
            for month in paid {
                guard let i = index[month] else { return nil }
                set[i] = true
            }
            sharingPaid[user] = set
        }
        sharingAppName = state.sharingAppName
        revenues = state.revenues
        activeUsers = state.activeUsers
        curves = state.curves
    }
}
