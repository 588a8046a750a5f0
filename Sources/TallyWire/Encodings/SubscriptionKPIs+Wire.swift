import TallyCore

extension SubscriptionKPIs.State: WireRecord {
    public static let wireKind = "subscription-kpis"
    public static let wireVersion = 3
    /// A total over partitions: not routed by a key.
    public static let wireKeyFieldCount = 0


    private static func sorted<Value>(_ d: [SubscriptionKPIs.AppMonth: Value]) -> [(key: SubscriptionKPIs.AppMonth, value: Value)] {
        d.sorted { x, y in WireOrder.precedes(x.key.app, y.key.app) ?? WireOrder.precedes(x.key.month, y.key.month) ?? false }
    }

    private static func sorted<Value>(_ d: [SubscriptionKPIs.AppText: Value]) -> [(key: SubscriptionKPIs.AppText, value: Value)] {
        d.sorted { x, y in WireOrder.precedes(x.key.app, y.key.app) ?? WireOrder.precedes(x.key.text, y.key.text) ?? false }
    }

    private static func writeRates(_ rates: [SubscriptionKPIs.AppMonth: KPIRate], into writer: inout WireWriter) {
        writer.count(rates.count)
        for (key, rate) in sorted(rates) {
            writer.string(key.app)
            writer.month(key.month)
            writer.int(rate.numerator)
            writer.int(rate.denominator)
        }
    }

    private static func readRates(_ fields: inout WireFields) throws(WireError) -> [SubscriptionKPIs.AppMonth: KPIRate] {
        var rates: [SubscriptionKPIs.AppMonth: KPIRate] = [:]
        for _ in 0..<(try fields.count("rates.count")) {
            let key = SubscriptionKPIs.AppMonth(app: try fields.string("rate.app"), month: try fields.month("rate.month"))
            let numerator = try fields.int("rate.numerator")
            rates[key] = KPIRate(numerator, of: try fields.int("rate.denominator"))
        }
        return rates
    }

    private static func writeCounts(_ counts: [SubscriptionKPIs.AppMonth: Int], into writer: inout WireWriter) {
        writer.count(counts.count)
        for (key, count) in sorted(counts) {
            writer.string(key.app)
            writer.month(key.month)
            writer.int(count)
        }
    }

    private static func readCounts(_ fields: inout WireFields) throws(WireError) -> [SubscriptionKPIs.AppMonth: Int] {
        var counts: [SubscriptionKPIs.AppMonth: Int] = [:]
        for _ in 0..<(try fields.count("counts.count")) {
            let key = SubscriptionKPIs.AppMonth(app: try fields.string("count.app"), month: try fields.month("count.month"))
            counts[key] = try fields.int("count.value")
        }
        return counts
    }

    /// `subscription-kpis.v3  period  firstMonth  timezone  conversionWindowDays
    /// retentionDays  sharingApp  users`, then the lists conversions,
    /// retentions, trials, churns (`n  (app  month  numerator  denominator)…`),
    /// cancellations, refunds (`n  (app  month  count)…`), shown
    /// (`n  (app  context  events  users)…`), credited (`n  (app  context
    /// count)…`), mrr (`n  (app  plan  currency  month  subscribers  mrr)…`),
    /// movements (`n  (app  currency  month  startMRR  endMRR  nAmounts
    /// (bucket  amount)…  nUsers  (bucket  users)…)…`), sharingPaid
    /// (`n  (userId  nMonths  month…)…`), sharingAppName, revenues (`n  (app
    /// currency  month  charges  revenue  refunds  refunded  payingUsers)…`),
    /// activeUsers (`n  (app  month  count)…`), curves (`n  (app  month
    /// nCounts  count…)…`) and creditedShown (`n  (app  context  count)…`).
    /// Every list is
    /// sorted (byte order of its text keys, currencies by code then minor
    /// units, months in order).
    public func encode(into writer: inout WireWriter) {
        writer.month(period)
        writer.month(firstMonth)
        writer.string(timezone)
        writer.int(conversionWindowDays)
        writer.int(retentionDays)
        writer.string(sharingApp)
        writer.int(users)
        for rates in [conversions, retentions, trials, churns] { Self.writeRates(rates, into: &writer) }
        Self.writeCounts(cancellations, into: &writer)
        Self.writeCounts(refunds, into: &writer)
        writer.count(shown.count)
        for (key, count) in Self.sorted(shown) {
            writer.string(key.app)
            writer.string(key.text)
            writer.int(count.events)
            writer.int(count.users)
        }
        writer.count(credited.count)
        for (key, count) in Self.sorted(credited) {
            writer.string(key.app)
            writer.string(key.text)
            writer.int(count)
        }
        writer.count(mrr.count)
        let plans = mrr.sorted { x, y in
            WireOrder.precedes(x.key.app, y.key.app) ?? WireOrder.precedes(x.key.plan, y.key.plan)
                ?? WireOrder.precedes(x.key.currency, y.key.currency) ?? WireOrder.precedes(x.key.month, y.key.month) ?? false
        }
        for (key, count) in plans {
            writer.string(key.app)
            writer.string(key.plan)
            writer.currency(key.currency)
            writer.month(key.month)
            writer.int(count.subscribers)
            writer.int(count.mrr)
        }
        writer.count(movements.count)
        let moves = movements.sorted { x, y in
            WireOrder.precedes(x.key.app, y.key.app) ?? WireOrder.precedes(x.key.currency, y.key.currency)
                ?? WireOrder.precedes(x.key.month, y.key.month) ?? false
        }
        for (key, row) in moves {
            writer.string(key.app)
            writer.currency(key.currency)
            writer.month(key.month)
            writer.int(row.startMRR)
            writer.int(row.endMRR)
            let amounts = MRRMovement.allCases.filter { row.amounts[$0] != nil }
            writer.count(amounts.count)
            for bucket in amounts {
                writer.enumeration(bucket)
                writer.int(row.amounts[bucket]!)
            }
            let userBuckets = MRRMovement.allCases.filter { row.users[$0] != nil }
            writer.count(userBuckets.count)
            for bucket in userBuckets {
                writer.enumeration(bucket)
                writer.int(row.users[bucket]!)
            }
        }
        writer.count(sharingPaid.count)
        for (user, months) in sharingPaid.sorted(by: { WireOrder.precedes($0.key, $1.key) ?? false }) {
            writer.string(user)
            writer.count(months.count)
            for month in months.sorted() { writer.month(month) }
        }
        writer.string(sharingAppName)
        writer.count(revenues.count)
        let money = revenues.sorted { x, y in
            WireOrder.precedes(x.key.app, y.key.app) ?? WireOrder.precedes(x.key.currency, y.key.currency)
                ?? WireOrder.precedes(x.key.month, y.key.month) ?? false
        }
        for (key, count) in money {
            writer.string(key.app)
            writer.currency(key.currency)
            writer.month(key.month)
            writer.int(count.charges)
            writer.int(count.revenue)
            writer.int(count.refunds)
            writer.int(count.refunded)
            writer.int(count.payingUsers)
        }
        Self.writeCounts(activeUsers, into: &writer)
        writer.count(curves.count)
        for (key, counts) in Self.sorted(curves) {
            writer.string(key.app)
            writer.month(key.month)
            writer.count(counts.count)
            for count in counts { writer.int(count) }
        }
        writer.count(creditedShown.count)
        for (key, count) in Self.sorted(creditedShown) {
            writer.string(key.app)
            writer.string(key.text)
            writer.int(count)
        }
    }

    public init(fields: inout WireFields) throws(WireError) {
        self.init(period: try fields.month("period"), firstMonth: try fields.month("firstMonth"), timezone: try fields.string("timezone"),
                  conversionWindowDays: try fields.int("conversionWindowDays"), retentionDays: try fields.int("retentionDays"),
                  sharingApp: try fields.string("sharingApp"))
        users = try fields.int("users")
        conversions = try Self.readRates(&fields)
        retentions = try Self.readRates(&fields)
        trials = try Self.readRates(&fields)
        churns = try Self.readRates(&fields)
        cancellations = try Self.readCounts(&fields)
        refunds = try Self.readCounts(&fields)
        for _ in 0..<(try fields.count("shown.count")) {
            let key = SubscriptionKPIs.AppText(app: try fields.string("shown.app"), text: try fields.string("shown.context"))
            let events = try fields.int("shown.events")
            shown[key] = PaywallCount(events: events, users: try fields.int("shown.users"))
        }
        for _ in 0..<(try fields.count("credited.count")) {
            let key = SubscriptionKPIs.AppText(app: try fields.string("credited.app"), text: try fields.string("credited.context"))
            credited[key] = try fields.int("credited.count")
        }
        for _ in 0..<(try fields.count("mrr.count")) {
            let app = try fields.string("mrr.app")
            let plan = try fields.string("mrr.plan")
            let currency = try fields.currency("mrr.currency")
            let key = SubscriptionKPIs.PlanKey(app: app, plan: plan, currency: currency, month: try fields.month("mrr.month"))
            let subscribers = try fields.int("mrr.subscribers")
            mrr[key] = PlanCount(subscribers: subscribers, mrr: try fields.int64("mrr.mrr"))
        }
        for _ in 0..<(try fields.count("movements.count")) {
            let app = try fields.string("movement.app")
            let currency = try fields.currency("movement.currency")
            let key = SubscriptionKPIs.MoneyKey(app: app, currency: currency, month: try fields.month("movement.month"))
            var row = SubscriptionRows.Movements(app: key.app, currency: key.currency, month: key.month)
            row.startMRR = try fields.int64("movement.startMRR")
            row.endMRR = try fields.int64("movement.endMRR")
            for _ in 0..<(try fields.count("movement.amounts")) {
                let bucket = try fields.enumeration("movement.bucket", MRRMovement.self)
                row.amounts[bucket] = try fields.int64("movement.amount")
            }
            for _ in 0..<(try fields.count("movement.users")) {
                let bucket = try fields.enumeration("movement.bucket", MRRMovement.self)
                row.users[bucket] = try fields.int("movement.userCount")
            }
            movements[key] = row
        }
        for _ in 0..<(try fields.count("sharingPaid.count")) {
            let user = try fields.string("sharingPaid.userId")
            var months = Set<YearMonth>()
            for _ in 0..<(try fields.count("sharingPaid.months")) { months.insert(try fields.month("sharingPaid.month")) }
            sharingPaid[user] = months
        }
        sharingAppName = try fields.optionalString("sharingAppName")
        for _ in 0..<(try fields.count("revenues.count")) {
            let app = try fields.string("revenue.app")
            let currency = try fields.currency("revenue.currency")
            let key = SubscriptionKPIs.MoneyKey(app: app, currency: currency, month: try fields.month("revenue.month"))
            var count = SubscriptionKPIs.RevenueCount()
            count.charges = try fields.int("revenue.charges")
            count.revenue = try fields.int64("revenue.revenue")
            count.refunds = try fields.int("revenue.refunds")
            count.refunded = try fields.int64("revenue.refunded")
            count.payingUsers = try fields.int("revenue.payingUsers")
            revenues[key] = count
        }
        activeUsers = try Self.readCounts(&fields)
        for _ in 0..<(try fields.count("curves.count")) {
            let key = SubscriptionKPIs.AppMonth(app: try fields.string("curve.app"), month: try fields.month("curve.month"))
            let n = try fields.count("curve.counts")
            guard n == SubscriptionKPIs.curveMonths else { throw fields.error("a retention curve of \(n) months, not \(SubscriptionKPIs.curveMonths)") }
            var counts: [Int] = []
            for _ in 0..<n { counts.append(try fields.int("curve.count")) }
            curves[key] = counts
        }
        for _ in 0..<(try fields.count("creditedShown.count")) {
            let key = SubscriptionKPIs.AppText(app: try fields.string("creditedShown.app"), text: try fields.string("creditedShown.context"))
            creditedShown[key] = try fields.int("creditedShown.count")
        }
    }
}
