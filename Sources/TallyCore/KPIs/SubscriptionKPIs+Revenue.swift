/// Revenue, ARPU and ARPPU per app, currency and month, and the retention
/// curves of the first-subscribed cohorts: the parts of ``SubscriptionKPIs``
/// that read every event of a user rather than the states at month ends.
///
/// The events give no amounts, so revenue is the catalogue's prices:
/// - a **charge** is a `subscribed`, `renewed`, `upgraded` or `downgraded`
///   event; it charges the full price of the product paid for after it
///   (a yearly product its yearly price, in the month of the event; a
///   change of plan its new product's full price, as the store's proration
///   is not in the data);
/// - a **refund** is a `refunded` event; it gives back the price of its
///   product, else of the product last charged (none before a charge);
/// - **active users** of an app in a month: users with any event of the app
///   in the month, or paid at its first instant; **paying users**: users
///   with a charge in the month, in that currency;
/// - **ARPU** = revenue / active users, **ARPPU** = revenue / paying users,
///   in minor units rounded half away from zero (gross of refunds, which
///   are shown beside them).
///
/// A retention curve of a cohort (local month of the first `subscribed`)
/// gives, for each of the ``curveMonths`` months after the cohort month
/// that has ended by the period's T, the members paid at that month's T.
/// A member who churns and comes back counts again, so a curve may rise.
///
/// ```swift
/// var kpis = SubscriptionKPIs(settings: settings, catalog: catalog)
/// kpis.add(timeline)
/// kpis.revenue.first?.arpu          // 1_990: R$ 19.90 per active user
/// kpis.retentionCurves.first?.share(1)   // KPIRate(9, of: 10)
/// ```
extension SubscriptionKPIs {
    /// How many months after its cohort month a retention curve runs (M1…M6).
    public static let curveMonths = 6

    /// Charges and refunds of one app, currency and month.
    package struct RevenueCount: Sendable, Equatable {
        package var charges = 0
        package var revenue: Int64 = 0
        package var refunds = 0
        package var refunded: Int64 = 0
        package var payingUsers = 0

        package init() {}

        /// Counts one charge of `price` (a mutating call: one look-up of the month's key, not one per field).
        mutating func charge(_ price: Int64) { charges += 1; revenue += price }

        /// Counts one refund of `price`.
        mutating func refund(_ price: Int64) { refunds += 1; refunded += price }

        mutating func merge(_ other: RevenueCount) {
            charges += other.charges
            revenue += other.revenue
            refunds += other.refunds
            refunded += other.refunded
            payingUsers += other.payingUsers
        }
    }

    /// Counts one user's charges and refunds in the months of the series, and
    /// returns the months (indexes into ``months``) in which the user had an event.
    mutating func addRevenue(_ timeline: SubscriptionTimeline) -> MonthSet {
        var active = MonthSet(count: months.count)
        var entries = EntryCache(catalog)
        var state = SubscriptionState.none
        var lastCharged: ProductCatalog.Entry?
        // The user's paid (app, currency, month)s: a few per user, so a list, not a set.
        var paying: [MoneyKey] = []
        var i = 0   // the month whose start…T holds the event: events come in time order
        // Each event borrowed where the timeline holds it (a copy would retain its strings);
        // false once past the series' last month.
        func add(_ event: borrowing SubscriptionEvent) -> Bool {
            let before = state
            state = before.applying(event)
            var charged: ProductCatalog.Entry?
            switch event.kind {
            case .subscribed, .renewed, .upgraded, .downgraded:
                charged = entries.entry(state.paidProduct)
                if let charged { lastCharged = charged }
            default: break
            }
            let t = event.timestamp
            guard t >= starts[0] else { return true }
            while i < months.count && t >= ends[i] { i += 1 }
            guard i < months.count else { return false }
            active[i] = true
            if let charged {
                let key = MoneyKey(app: timeline.app, currency: charged.currency, month: months[i])
                revenues[key, default: RevenueCount()].charge(charged.price)
                if !paying.contains(key) { paying.append(key) }
            } else if event.kind == .refunded, let product = entries.entry(event.productId) ?? lastCharged {
                let key = MoneyKey(app: timeline.app, currency: product.currency, month: months[i])
                revenues[key, default: RevenueCount()].refund(product.price)
            }
            return true
        }
        for e in timeline.events.indices where !add(timeline.events[e]) { break }
        for key in paying { revenues[key, default: RevenueCount()].payingUsers += 1 }
        return active
    }

    /// Counts the user as active in the months of `active` (indexes into ``months``).
    mutating func countActive(_ active: MonthSet, app: String) {
        for i in months.indices where active[i] { activeUsers[AppMonth(app: app, month: months[i]), default: 0] += 1 }
    }

    /// Counts a member of the first-subscribed `cohort` at T of each of the months after it that ended by the period's T.
    mutating func addCurve(_ timeline: SubscriptionTimeline, app: String, cohort: YearMonth) {
        // The cohort's counts are changed where the dictionary holds them, not copied out and back.
        let key = AppMonth(app: app, month: cohort)
        if curves[key] == nil { curves[key] = Array(repeating: 0, count: Self.curveMonths) }
        let counts = curves.index(forKey: key)!
        for k in 1...Self.curveMonths {
            let month = cohort.adding(months: k)
            guard month <= settings.period else { break }
            let i = settings.firstMonth.months(until: month)
            let end = months.indices.contains(i) ? ends[i] : settings.timezone.endOfMonth(month)
            if timeline.isPaid(at: end) { curves.values[counts][k - 1] += 1 }
        }
    }

    /// Revenue, refunds, ARPU and ARPPU per app, currency and month of the
    /// series (rows for months with a charge or a refund), by app, currency, month.
    public var revenue: [SubscriptionRows.Revenue] {
        revenues.map { key, count in
            SubscriptionRows.Revenue(app: key.app, currency: key.currency, month: key.month, charges: count.charges,
                                     revenue: count.revenue, refunds: count.refunds, refunded: count.refunded,
                                     payingUsers: count.payingUsers,
                                     activeUsers: activeUsers[AppMonth(app: key.app, month: key.month)] ?? 0)
        }.sorted { ($0.app, $0.currency.code, $0.month) < ($1.app, $1.currency.code, $1.month) }
    }

    /// The retention curve of every first-subscribed cohort up to the period, by app and month.
    public var retentionCurves: [SubscriptionRows.RetentionCurve] {
        retentions.keys.sorted { $0.app != $1.app ? $0.app.utf8.lexicographicallyPrecedes($1.app.utf8) : $0.month < $1.month }
            .map { key in
                let months = min(Self.curveMonths, max(0, key.month.months(until: settings.period)))
                let counts = curves[key] ?? Array(repeating: 0, count: Self.curveMonths)
                return SubscriptionRows.RetentionCurve(app: key.app, cohort: key.month, subscribers: retentions[key]!.denominator,
                                                       active: Array(counts.prefix(months)))
            }
    }
}

extension SubscriptionRows {
    /// Revenue of one app in one currency and month (``SubscriptionKPIs/revenue``).
    public struct Revenue: Sendable, Equatable {
        public var app: String
        public var currency: Currency
        public var month: YearMonth
        /// Charges in the month and their prices (minor units).
        public var charges: Int
        public var revenue: Int64
        /// Refunds in the month and the prices they give back (minor units, ≥ 0).
        public var refunds: Int
        public var refunded: Int64
        /// Users charged in the month in this currency.
        public var payingUsers: Int
        /// Users of the app active in the month (any currency).
        public var activeUsers: Int

        /// Revenue less refunds.
        public var net: Int64 { revenue - refunded }
        /// Revenue per active user (minor units, half away from zero); nil without active users.
        public var arpu: Int64? { Self.perUser(revenue, activeUsers) }
        /// Revenue per paying user (minor units, half away from zero); nil without paying users.
        public var arppu: Int64? { Self.perUser(revenue, payingUsers) }

        static func perUser(_ amount: Int64, _ users: Int) -> Int64? {
            users == 0 ? nil : Int64(Rounding.divideHalfAwayFromZero(Int128(amount), by: Int128(users)))
        }
    }

    /// The retention curve of a first-subscribed cohort: its members paid at T of each month after the cohort month.
    public struct RetentionCurve: Sendable, Equatable {
        public var app: String
        public var cohort: YearMonth
        public var subscribers: Int
        /// Members paid at T of months 1, 2, … after the cohort month, for the months that have ended.
        public var active: [Int]

        /// The share paid at T of the `k`-th month after the cohort month (1-based), nil once past the curve.
        public func share(_ k: Int) -> KPIRate? {
            active.indices.contains(k - 1) ? KPIRate(active[k - 1], of: subscribers) : nil
        }
    }
}
