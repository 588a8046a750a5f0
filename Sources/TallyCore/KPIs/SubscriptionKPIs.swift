/// Every subscription KPI of a report, accumulated one user timeline at a
/// time (the partition) and mergeable (``merge(_:)``), so the work can be
/// split by user and the parts combined.
///
/// Definitions (T = the first instant after a month, report time zone;
/// "paid at T" from ``SubscriptionTimeline/isPaid(at:)``):
/// - conversion: signup cohort = local month of the first `signup`;
///   converted when 0 ≤ first `subscribed` − signup ≤ window days × 24 h;
///   complete when the cohort's last window has closed by T of the period.
/// - retention: cohort = local month of the first `subscribed`; retained
///   when paid at first `subscribed` + retention days × 24 h.
/// - paywall: `paywall_shown` events in the period per context; first
///   subscriptions in the period credited to the last context shown
///   strictly before them, `none` when none was; the conversion rate of a
///   context: of its users shown it in the period, those whose first
///   subscription in the period is credited to a view of it in the period.
/// - MRR: paid subscribers at each month's T, per app, plan and currency;
///   each subscriber's monthly price (yearly / 12, rounded half away from
///   zero, per subscriber) summed.
/// - churn of a month: paid at its start, not paid at its T.
/// - MRR movements of a month: each user's MRR at its start against its T,
///   classified by ``MRRMovement/classify(start:end:paidBefore:)``.
/// - trials: first `trial_started` per month; converted when the first
///   `subscribed` comes within the conversion window after it.
/// - shared premium: see ``sharedPremium(_:)``.
/// - revenue of a month: see ``revenue``; retention curves: see ``retentionCurves``.
public struct SubscriptionKPIs: Sendable {
    /// What the KPIs are computed for.
    public struct Settings: Sendable {
        public var period: YearMonth
        /// The first month of the monthly series (churn, MRR history, movements).
        public var firstMonth: YearMonth
        public var timezone: ReportTimeZone
        public var conversionWindowDays: Int
        public var retentionDays: Int
        /// The app whose premium is shared with a connected partner (LovU), matched case-insensitively.
        public var sharingApp: String

        public init(period: YearMonth, firstMonth: YearMonth, timezone: ReportTimeZone, conversionWindowDays: Int = 30,
                    retentionDays: Int = 30, sharingApp: String = "LovU") {
            self.period = period
            self.firstMonth = min(firstMonth, period)
            self.timezone = timezone
            self.conversionWindowDays = conversionWindowDays
            self.retentionDays = retentionDays
            self.sharingApp = sharingApp
        }
    }

    package struct AppMonth: Hashable {
        package var app: String
        package var month: YearMonth
        package init(app: String, month: YearMonth) { self.app = app; self.month = month }
    }
    package struct AppText: Hashable {
        package var app: String
        package var text: String
        package init(app: String, text: String) { self.app = app; self.text = text }
    }
    package struct PlanKey: Hashable {
        package var app: String
        package var plan: String
        package var currency: Currency
        package var month: YearMonth
        package init(app: String, plan: String, currency: Currency, month: YearMonth) {
            self.app = app; self.plan = plan; self.currency = currency; self.month = month
        }
    }
    package struct MoneyKey: Hashable {
        package var app: String
        package var currency: Currency
        package var month: YearMonth
        package init(app: String, currency: Currency, month: YearMonth) { self.app = app; self.currency = currency; self.month = month }
    }

    public let settings: Settings
    public let catalog: ProductCatalog
    /// The months of the series, first to the period, with their start and end (T) instants.
    public let months: [YearMonth]
    let starts: [Timestamp]
    let ends: [Timestamp]

    var conversions: [AppMonth: KPIRate] = [:]
    var retentions: [AppMonth: KPIRate] = [:]
    var trials: [AppMonth: KPIRate] = [:]
    var churns: [AppMonth: KPIRate] = [:]
    var cancellations: [AppMonth: Int] = [:]
    var refunds: [AppMonth: Int] = [:]
    var shown: [AppText: (events: Int, users: Int)] = [:]
    var credited: [AppText: Int] = [:]
    /// Of the conversions credited, those whose credited view is in the period.
    var creditedShown: [AppText: Int] = [:]
    var mrr: [PlanKey: (subscribers: Int, mrr: Int64)] = [:]
    var movements: [MoneyKey: SubscriptionRows.Movements] = [:]
    /// Charges and refunds per app, currency and month of the series.
    var revenues: [MoneyKey: RevenueCount] = [:]
    /// Users active per app and month of the series: an event in the month, or paid at its start.
    var activeUsers: [AppMonth: Int] = [:]
    /// Per first-subscribed cohort, the members paid at T of each of the ``curveMonths`` months after it.
    var curves: [AppMonth: [Int]] = [:]
    /// Paid users of the sharing app, with the months (indexes into
    /// ``months``) at whose T they are paid.
    var sharingPaid: [String: MonthSet] = [:]
    /// The sharing app's name as the data spells it.
    var sharingAppName: String?
    /// The last app asked whether it shares premium, and the answer (users come app by app).
    private var sharingCache: (app: String, sharing: Bool)?
    /// Timelines added.
    public internal(set) var users = 0

    public init(settings: Settings, catalog: ProductCatalog) {
        self.settings = settings
        self.catalog = catalog
        var months: [YearMonth] = []
        var month = settings.firstMonth
        while month <= settings.period {
            months.append(month)
            month = month.adding(months: 1)
        }
        self.months = months
        starts = months.map { settings.timezone.startOfDay($0.firstDay) }
        ends = months.map { settings.timezone.endOfMonth($0) }
    }

    /// T of the period month.
    public var periodEnd: Timestamp { ends[ends.count - 1] }

    private func month(of t: Timestamp) -> YearMonth { settings.timezone.localDate(of: t).yearMonth }

    /// Whether a cohort's windows of `days` have all closed by the period's T.
    private func complete(_ cohort: YearMonth, days: Int) -> Bool {
        settings.timezone.endOfMonth(cohort).adding(seconds: Int64(days) * 86_400) <= periodEnd
    }

    /// Whether `app` is the sharing app (matched case-insensitively).
    private mutating func isSharing(_ app: String) -> Bool {
        if let cached = sharingCache, cached.app == app { return cached.sharing }
        let sharing = app.lowercased() == settings.sharingApp.lowercased()
        sharingCache = (app, sharing)
        return sharing
    }

    /// Adds one user's timeline.
    public mutating func add(_ timeline: SubscriptionTimeline) {
        users += 1
        let app = timeline.app
        let period = settings.period
        let window = Int64(settings.conversionWindowDays) * 86_400

        if let signup = timeline.signup, case let cohort = month(of: signup), cohort <= period {
            conversions[AppMonth(app: app, month: cohort), default: KPIRate(0, of: 0)].add(timeline.subscribed(within: window, of: signup))
        }
        if let first = timeline.firstSubscribed, case let cohort = month(of: first), cohort <= period {
            let judged = first.adding(seconds: Int64(settings.retentionDays) * 86_400)
            retentions[AppMonth(app: app, month: cohort), default: KPIRate(0, of: 0)].add(timeline.isPaid(at: judged))
            addCurve(timeline, app: app, cohort: cohort)
            if cohort == period {
                let view = timeline.creditedPaywall
                let key = AppText(app: app, text: Self.contextLabel(view.map { $0.context ?? "" }) ?? "none")
                credited[key, default: 0] += 1
                // Converted after a view of the period: counts towards the context's conversion rate.
                if let view, month(of: view.timestamp) == period { creditedShown[key, default: 0] += 1 }
            }
        }
        if let trial = timeline.firstTrial, case let cohort = month(of: trial), cohort <= period {
            trials[AppMonth(app: app, month: cohort), default: KPIRate(0, of: 0)].add(timeline.subscribed(within: window, of: trial))
        }
        var contextsSeen = Set<String>()
        // Read where the timeline holds each event: a copy per event would retain its strings.
        let events = timeline.events
        for e in events.indices {
            let kind = events[e].kind
            guard kind == .paywallShown || kind == .cancelled || kind == .refunded else { continue }
            let m = month(of: events[e].timestamp)
            switch kind {
            case .paywallShown where m == period:
                let key = AppText(app: app, text: Self.contextLabel(events[e].context) ?? "unspecified")
                let fresh = contextsSeen.insert(key.text).inserted
                let sofar = shown[key] ?? (0, 0)
                shown[key] = (sofar.events + 1, sofar.users + (fresh ? 1 : 0))
            case .cancelled where m >= settings.firstMonth && m <= period:
                cancellations[AppMonth(app: app, month: m), default: 0] += 1
            case .refunded where m >= settings.firstMonth && m <= period:
                refunds[AppMonth(app: app, month: m), default: 0] += 1
            default: break
            }
        }
        // The months with an event; the loop below adds those paid at their start. Counted on either way
        // out, the return of a user never paid included.
        var active = addRevenue(timeline)
        defer { countActive(active, app: app) }
        guard timeline.firstPaid != nil else { return }
        let sharing = isSharing(app)
        if sharing { sharingAppName = sharingAppName.map { min($0, app) } ?? app }
        // The states at the months' starts and ends (increasing instants) in
        // one forward pass; a month not paid at either end adds nothing.
        var sweep = StateSweep(timeline.changes)
        var entries = EntryCache(catalog)
        let monthCount = months.count   // a local: a closure reading self while self is modified copies all of self
        var paidMonths: MonthSet?
        for (i, month) in months.enumerated() {
            let startState = sweep.state(at: starts[i])
            let endState = sweep.state(at: ends[i])
            let paidAtStart = startState.isPaid, paidAtEnd = endState.isPaid
            if paidAtStart { active[i] = true }
            guard paidAtStart || paidAtEnd else { continue }
            let start = entries.entry(startState.paidProduct)
            let end = entries.entry(endState.paidProduct)
            if paidAtStart {
                churns[AppMonth(app: app, month: month), default: KPIRate(0, of: 0)].add(!paidAtEnd)
            }
            if paidAtEnd, let end {
                Self.count(&mrr[PlanKey(app: app, plan: end.plan, currency: end.currency, month: month), default: (0, 0)],
                           end.monthlyPrice)
            }
            if sharing && paidAtEnd {
                if paidMonths == nil { paidMonths = MonthSet(count: monthCount) }
                paidMonths![i] = true
            }
            addMovement(app: app, month: month, start: start, end: end, paidBefore: timeline.wasPaid(before: starts[i]))
        }
        if let paidMonths { sharingPaid[timeline.userId, default: MonthSet(count: monthCount)].formUnion(paidMonths) }
    }

    private static func count(_ tally: inout (subscribers: Int, mrr: Int64), _ monthly: Int64) {
        tally.subscribers += 1
        tally.mrr += monthly
    }

    private mutating func addMovement(app: String, month: YearMonth, start: ProductCatalog.Entry?, end: ProductCatalog.Entry?,
                                      paidBefore: Bool) {
        let startMRR = start?.monthlyPrice ?? 0
        let endMRR = end?.monthlyPrice ?? 0
        guard startMRR > 0 || endMRR > 0 else { return }
        func record(_ currency: Currency, from: Int64, to: Int64, paidBefore: Bool) {
            func add(_ row: inout SubscriptionRows.Movements) {
                row.startMRR += from
                row.endMRR += to
                if let bucket = MRRMovement.classify(start: from, end: to, paidBefore: paidBefore) {
                    row.amounts[bucket, default: 0] += abs(to - from)
                    row.users[bucket, default: 0] += 1
                }
            }
            add(&movements[MoneyKey(app: app, currency: currency, month: month),
                           default: SubscriptionRows.Movements(app: app, currency: currency, month: month)])
        }
        if let start, let end, start.currency != end.currency {
            // A move to another currency: churn in the old one, back in the new one.
            if startMRR > 0 { record(start.currency, from: startMRR, to: 0, paidBefore: true) }
            if endMRR > 0 { record(end.currency, from: 0, to: endMRR, paidBefore: true) }
        } else if let currency = (end ?? start)?.currency {
            record(currency, from: startMRR, to: endMRR, paidBefore: paidBefore)
        }
    }

    /// Adds another accumulator's results (built with the same settings over other users).
    public mutating func merge(_ other: SubscriptionKPIs) {
        users += other.users
        for (k, v) in other.conversions { conversions[k, default: KPIRate(0, of: 0)].merge(v) }
        for (k, v) in other.retentions { retentions[k, default: KPIRate(0, of: 0)].merge(v) }
        for (k, v) in other.trials { trials[k, default: KPIRate(0, of: 0)].merge(v) }
        for (k, v) in other.churns { churns[k, default: KPIRate(0, of: 0)].merge(v) }
        for (k, v) in other.cancellations { cancellations[k, default: 0] += v }
        for (k, v) in other.refunds { refunds[k, default: 0] += v }
        for (k, v) in other.shown { let s = shown[k] ?? (0, 0); shown[k] = (s.events + v.events, s.users + v.users) }
        for (k, v) in other.credited { credited[k, default: 0] += v }
        for (k, v) in other.creditedShown { creditedShown[k, default: 0] += v }
        for (k, v) in other.mrr { let s = mrr[k] ?? (0, 0); mrr[k] = (s.subscribers + v.subscribers, s.mrr + v.mrr) }
        for (k, v) in other.revenues { revenues[k, default: RevenueCount()].merge(v) }
        for (k, v) in other.activeUsers { activeUsers[k, default: 0] += v }
        for (k, v) in other.curves {
            let sofar = curves[k] ?? Array(repeating: 0, count: Self.curveMonths)
            curves[k] = zip(sofar, v).map { $0 + $1 }
        }
        for (k, v) in other.movements {
            var row = movements[k] ?? SubscriptionRows.Movements(app: k.app, currency: k.currency, month: k.month)
            row.startMRR += v.startMRR
            row.endMRR += v.endMRR
            for (b, a) in v.amounts { row.amounts[b, default: 0] += a }
            for (b, n) in v.users { row.users[b, default: 0] += n }
            movements[k] = row
        }
        let monthCount = months.count
        for (k, v) in other.sharingPaid { sharingPaid[k, default: MonthSet(count: monthCount)].formUnion(v) }
        if let name = other.sharingAppName { sharingAppName = sharingAppName.map { min($0, name) } ?? name }
    }

    /// A context as reported: nil stays nil, empty is "unspecified".
    static func contextLabel(_ context: String?) -> String? {
        context.map { $0.isEmpty ? "unspecified" : $0 }
    }

    // MARK: - Results

    private static func byApp(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
    private static func ordered<V>(_ d: [AppMonth: V]) -> [(AppMonth, V)] {
        d.sorted { $0.key.app != $1.key.app ? byApp($0.key.app, $1.key.app) : $0.key.month < $1.key.month }.map { ($0.key, $0.value) }
    }

    /// Signup cohorts up to the period, by app and month.
    public var conversion: [SubscriptionRows.Conversion] {
        Self.ordered(conversions).map { key, rate in
            .init(app: key.app, cohort: key.month, rate: rate, complete: complete(key.month, days: settings.conversionWindowDays))
        }
    }

    /// First-subscribed cohorts up to the period, by app and month.
    public var retention: [SubscriptionRows.Retention] {
        Self.ordered(retentions).map { key, rate in
            .init(app: key.app, cohort: key.month, rate: rate, complete: complete(key.month, days: settings.retentionDays))
        }
    }

    /// Trial cohorts up to the period, by app and month.
    public var trialConversion: [SubscriptionRows.Trials] {
        Self.ordered(trials).map { key, rate in
            .init(app: key.app, month: key.month, rate: rate, complete: complete(key.month, days: settings.conversionWindowDays))
        }
    }

    /// Churn per app and month of the series (months with paid users at their start, or cancellations or refunds).
    public var churn: [SubscriptionRows.Churn] {
        var keys: [AppMonth: KPIRate] = churns
        for key in Set(cancellations.keys).union(refunds.keys) where keys[key] == nil { keys[key] = KPIRate(0, of: 0) }
        return Self.ordered(keys).map { key, rate in
            .init(app: key.app, month: key.month, rate: rate, cancellations: cancellations[key] ?? 0, refunds: refunds[key] ?? 0)
        }
    }

    /// Paywall contexts of the period, by app then context (byte order); `none` included when credited.
    public var paywall: [SubscriptionRows.Paywall] {
        let keys = Set(shown.keys).union(credited.keys)
        return keys.sorted { $0.app != $1.app ? Self.byApp($0.app, $1.app) : Self.byApp($0.text, $1.text) }.map { key in
            .init(app: key.app, context: key.text, shown: shown[key]?.events ?? 0, users: shown[key]?.users ?? 0,
                  conversions: credited[key] ?? 0, convertedAfterView: creditedShown[key] ?? 0)
        }
    }

    /// Paid subscribers and MRR per app, plan and currency at each month's T of the series.
    public var mrrHistory: [SubscriptionRows.MRR] {
        mrr.map { key, value in
            SubscriptionRows.MRR(app: key.app, plan: key.plan, currency: key.currency, month: key.month,
                                 subscribers: value.subscribers, mrr: value.mrr)
        }.sorted {
            ($0.month, $0.app, $0.plan, $0.currency.code) < ($1.month, $1.app, $1.plan, $1.currency.code)
        }
    }

    /// Paid subscribers and MRR at the period's T (plans with subscribers only).
    public var mrrAtPeriodEnd: [SubscriptionRows.MRR] { mrrHistory.filter { $0.month == settings.period } }

    /// MRR movements per app, currency and month of the series.
    public var mrrMovements: [SubscriptionRows.Movements] {
        movements.values.sorted {
            ($0.app, $0.currency.code, $0.month) < ($1.app, $1.currency.code, $1.month)
        }
    }

    /// Premium entitlement of the sharing app at each month's T: payers, and
    /// users who are not paid but connected at T to a partner who is.
    /// Shared users are never payers and never add MRR.
    public func sharedPremium(_ connections: [PartnerConnection]) -> [SubscriptionRows.SharedPremium] {
        guard sharingAppName != nil || !connections.isEmpty else { return [] }
        let app = sharingAppName ?? settings.sharingApp
        // Per user, the months in which they are shared premium; each
        // connection looks its two users up once, not once per month.
        let none = MonthSet(count: months.count)
        var shared: [String: MonthSet] = [:]
        for c in connections {
            let userPaid = sharingPaid[c.userId], partnerPaid = sharingPaid[c.partnerId]
            guard userPaid != nil || partnerPaid != nil else { continue }
            for i in months.indices where c.isConnected(at: ends[i]) {
                let u = userPaid?[i] ?? false, p = partnerPaid?[i] ?? false
                if p && !u { shared[c.userId, default: none][i] = true }
                if u && !p { shared[c.partnerId, default: none][i] = true }
            }
        }
        return months.indices.map { i in
            .init(app: app, month: months[i], payers: sharingPaid.values.count { $0[i] },
                  sharedUsers: shared.values.count { $0[i] })
        }
    }
}

extension KPIRate {
    /// Counts one more member of the denominator, and of the numerator when `hit`.
    mutating func add(_ hit: Bool) {
        denominator += 1
        if hit { numerator += 1 }
    }

    mutating func merge(_ other: KPIRate) {
        numerator += other.numerator
        denominator += other.denominator
    }
}
