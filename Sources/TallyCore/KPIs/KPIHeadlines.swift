/// The Summary's headline figures: this month against last month and
/// against the targets, one line per metric and app (or currency).
public struct KPIHeadline: Sendable, Equatable {
    /// How the figure is shown.
    public enum Value: Sendable, Equatable {
        case count(Int)
        case money(Int64, Currency)
        case rate(KPIRate)
    }

    public var metric: String
    /// The app (or "FypMatch" for swipes), and what the figure covers (cohort, window).
    public var app: String
    public var scope: String
    public var current: Value
    public var previous: Value?
    /// The target as text (`15.0%–20.0%`, `≥ 80.0%`), and where the figure stands.
    public var target: String?
    public var status: TargetStatus?
    /// The currency of a figure given per app and currency (MRR, paid subscribers).
    public var currency: Currency?
    /// The cohort a rate is of (conversion, retention); nil for a figure of the period.
    public var cohort: YearMonth?

    /// This month against last month: counts and money as signed
    /// differences, rates in tenths of a percentage point (never a percent
    /// of a percent).
    public enum Change: Sendable, Equatable {
        case count(Int)
        case money(Int64, Currency)
        case points(Int64)

        /// With its sign: `+97`, `-5.40 BRL`, `+22.2 pp`, `0`.
        public var text: String {
            switch self {
            case .count(let n): return n > 0 ? "+\(n)" : "\(n)"
            case .money(let minor, let currency): return (minor > 0 ? "+" : "") + "\(Money.plain(minor, currency)) \(currency.code)"
            case .points(let tenths): return KPIRate.points(tenths)
            }
        }
    }

    /// The change since last month, or nil without a figure for both months.
    public var change: Change? {
        switch (current, previous) {
        case (.count(let a), .count(let b)?): return .count(a - b)
        case (.money(let a, let c), .money(let b, let d)?) where c == d: return .money(a - b, c)
        case (.rate(let a), .rate(let b)?): return a.pointChange(from: b).map { .points($0) }
        default: return nil
        }
    }

    /// The headlines of `report`.
    public static func of(_ report: KPIReport) -> [KPIHeadline] {
        var lines: [KPIHeadline] = []
        let period = report.period
        let previous = period.adding(months: -1)
        let sum = { (days: [SwipesDay], key: KeyPath<SwipesDay, Int>) in days.map { $0[keyPath: key] }.reduce(0, +) }
        lines.append(KPIHeadline(metric: "Swipes", app: "FypMatch", scope: "\(period)",
                                 current: .count(sum(report.swipesDaily, \.swipes)),
                                 previous: .count(sum(report.previousSwipesDaily, \.swipes))))
        lines.append(KPIHeadline(metric: "Matches", app: "FypMatch", scope: "\(period)",
                                 current: .count(sum(report.swipesDaily, \.matches)),
                                 previous: .count(sum(report.previousSwipesDaily, \.matches))))
        // MRR and payers per app and currency.
        var mrr: [String: [YearMonth: (Int, Int64, Currency)]] = [:]
        for row in report.mrrHistory where row.month >= previous {
            let key = "\(row.app)\u{0}\(row.currency.code)"
            let sofar = mrr[key]?[row.month] ?? (0, 0, row.currency)
            mrr[key, default: [:]][row.month] = (sofar.0 + row.subscribers, sofar.1 + row.mrr, row.currency)
        }
        for key in mrr.keys.sorted() {
            let app = String(key.split(separator: "\u{0}")[0])
            guard let currency = (mrr[key]![period] ?? mrr[key]![previous]).map({ $0.2 }) else { continue }
            let now = mrr[key]![period] ?? (0, 0, currency)
            let before = mrr[key]![previous] ?? (0, 0, currency)
            lines.append(KPIHeadline(metric: "MRR", app: app, scope: "at end of \(period), \(currency.code)",
                                     current: .money(now.1, currency), previous: .money(before.1, currency), currency: currency))
            lines.append(KPIHeadline(metric: "Paid subscribers", app: app, scope: "at end of \(period), \(currency.code)",
                                     current: .count(now.0), previous: .count(before.0), currency: currency))
        }
        let t = report.targets
        for app in report.apps {
            let cohorts = report.conversion.filter { $0.app == app && $0.complete }
            if let latest = cohorts.last {
                let before = cohorts.dropLast().last
                lines.append(KPIHeadline(
                    metric: "Free→paid conversion", app: app,
                    scope: "cohort \(latest.cohort) (latest complete), \(t.conversionWindowDays)-day window",
                    current: .rate(latest.rate), previous: before.map { .rate($0.rate) },
                    target: "\(percent(t.conversionMin))–\(percent(t.conversionMax))",
                    status: .of(latest.rate.value, min: t.conversionMin, max: t.conversionMax), cohort: latest.cohort))
            }
            let retained = report.retention.filter { $0.app == app && $0.complete }
            if let latest = retained.last {
                let before = retained.dropLast().last
                lines.append(KPIHeadline(
                    metric: "\(t.retentionDays)-day retention", app: app, scope: "cohort \(latest.cohort) (latest complete)",
                    current: .rate(latest.rate), previous: before.map { .rate($0.rate) },
                    target: "≥ \(percent(t.retention))", status: .of(latest.rate.value, min: t.retention), cohort: latest.cohort))
            }
            let churn = report.churn.filter { $0.app == app }
            if let now = churn.first(where: { $0.month == period }) {
                lines.append(KPIHeadline(metric: "Churn", app: app, scope: "\(period)", current: .rate(now.rate),
                                         previous: churn.first { $0.month == previous }.map { .rate($0.rate) }))
            }
        }
        for row in report.sharedPremium where row.month == period {
            let before = report.sharedPremium.first { $0.month == previous }
            lines.append(KPIHeadline(metric: "Shared premium users", app: row.app, scope: "at end of \(period), not payers",
                                     current: .count(row.sharedUsers), previous: before.map { .count($0.sharedUsers) }))
        }
        return lines
    }

    /// `0.15` → `15.0%`.
    public static func percent(_ fraction: Double) -> String {
        KPIRate(Int((fraction * 1000).rounded()), of: 1000).percent
    }
}
