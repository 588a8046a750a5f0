/// What each KPI of the reports counts: its numerator, denominator, window,
/// rule and target, in the reports' language (English), with the windows
/// and targets of the configuration written in. The workbook's Definitions
/// sheet and docs/kpis.md list exactly these; a figure that is a count or an
/// amount rather than a rate has its measure as numerator and `—` as
/// denominator.
///
/// Month M is the period month in the report time zone and T the first
/// instant after it; "at T" means from the events strictly before T.
///
/// ```swift
/// let rows = KPIDefinition.all(KPIReport.Targets(config.kpis))
/// rows.first { $0.kpi == "Free→paid conversion" }?.window   // "first subscribed within 30 days (30 × 24 h) of signup"
/// ```
public struct KPIDefinition: Sendable, Equatable {
    public var kpi: String
    public var numerator: String
    public var denominator: String
    public var window: String
    public var rule: String
    /// The target as the Summary shows it (`15.0%–20.0%`, `≥ 80.0%`), or `—`.
    public var target: String

    public init(kpi: String, numerator: String, denominator: String, window: String, rule: String, target: String = "—") {
        self.kpi = kpi
        self.numerator = numerator
        self.denominator = denominator
        self.window = window
        self.rule = rule
        self.target = target
    }

    /// The headings of a definitions table, in column order.
    public static let headings = ["KPI", "Numerator", "Denominator", "Window", "Rule", "Target"]

    /// The fields in the order of ``headings``.
    public var fields: [String] { [kpi, numerator, denominator, window, rule, target] }

    /// Every KPI of `kpis/`, in the order of the workbook's sheets, with `targets`' windows and targets.
    public static func all(_ targets: KPIReport.Targets) -> [KPIDefinition] {
        let conversionDays = targets.conversionWindowDays, retentionDays = targets.retentionDays
        let conversionTarget = "\(KPIHeadline.percent(targets.conversionMin))–\(KPIHeadline.percent(targets.conversionMax))"
        let retentionTarget = "≥ \(KPIHeadline.percent(targets.retention))"
        return [
            KPIDefinition(kpi: "Swipes", numerator: "accepted swipes (each id once)", denominator: "—",
                          window: "a local day of M", rule: "every action: like, super like, pass, report"),
            KPIDefinition(kpi: "Like rate", numerator: "likes + super likes", denominator: "swipes",
                          window: "a local day of M", rule: "accepted swipes only; empty over 0 swipes"),
            KPIDefinition(kpi: "Matches", numerator: "pairs that liked each other", denominator: "—",
                          window: "the local day the match forms",
                          rule: "forms at the later of the two first likes; a report either way, at any time, blocks the pair"),
            KPIDefinition(kpi: "Match rate", numerator: "matches", denominator: "likes + super likes",
                          window: "a local day of M", rule: "empty over 0 likes"),
            KPIDefinition(kpi: "Free→paid conversion", numerator: "signups converted", denominator: "signups of the cohort",
                          window: "first subscribed within \(conversionDays) days (\(conversionDays) × 24 h) of signup",
                          rule: "cohort: local month of the first signup; judged once the last window of the cohort has closed by T",
                          target: conversionTarget),
            KPIDefinition(kpi: "Paywall conversions", numerator: "first subscriptions in M credited to a context",
                          denominator: "—", window: "M",
                          rule: "credited to the last paywall shown strictly before the first subscribed (from any month), else none"),
            KPIDefinition(kpi: "Paywall conversion rate", numerator: "users shown the context in M who converted after a view of it in M",
                          denominator: "users shown the context in M", window: "M",
                          rule: "the first subscribed is in M and credited to the context, its last view before being in M"),
            KPIDefinition(kpi: "Paid subscribers", numerator: "users paid at T", denominator: "—", window: "at T",
                          rule: "the latest subscribed, renewed, upgraded or downgraded before T is not followed by an expired or refunded"),
            KPIDefinition(kpi: "MRR", numerator: "sum of the paid subscribers' monthly prices", denominator: "—", window: "at T",
                          rule: "a yearly price / 12 rounded half away from zero per subscriber; per app, plan and currency"),
            KPIDefinition(kpi: "MRR movements", numerator: "MRR at T − MRR at the start of the month, per user", denominator: "—",
                          window: "a month",
                          rule: "new (never paid before), reactivation, expansion, contraction, churn; "
                              + "losses negative, so start + movements = end"),
            KPIDefinition(kpi: "Revenue", numerator: "the catalogue price of each charge in the month", denominator: "—",
                          window: "a month", rule: "a charge: subscribed, renewed, upgraded or downgraded, at the full price "
                              + "of the product paid for after it (a yearly product's yearly price); per app and currency"),
            KPIDefinition(kpi: "Refunds", numerator: "the price of each refunded event's product", denominator: "—",
                          window: "a month", rule: "the refund's product, else the product last charged; net revenue = revenue − refunds"),
            KPIDefinition(kpi: "ARPU", numerator: "revenue", denominator: "active users of the app", window: "a month",
                          rule: "active: any event of the app in the month, or paid at its first instant; "
                              + "minor units, half away from zero"),
            KPIDefinition(kpi: "ARPPU", numerator: "revenue", denominator: "users charged in the month", window: "a month",
                          rule: "paying users in that currency; minor units, half away from zero"),
            KPIDefinition(kpi: "Churn", numerator: "of them, not paid at T", denominator: "paid at the month's first instant",
                          window: "a month", rule: "a cancel is churn to come, counted apart: access lasts until expired"),
            KPIDefinition(kpi: "\(retentionDays)-day retention", numerator: "subscribers paid \(retentionDays) days later",
                          denominator: "subscribers of the cohort",
                          window: "first subscribed + \(retentionDays) × 24 h",
                          rule: "cohort: local month of the first subscribed; judged once every member's day has passed by T",
                          target: retentionTarget),
            KPIDefinition(kpi: "Retention curve (M1–M\(SubscriptionKPIs.curveMonths))", numerator: "members paid at T of month k",
                          denominator: "subscribers of the cohort",
                          window: "T of the k-th month after the cohort month, once it has passed",
                          rule: "cohort: local month of the first subscribed; a member who comes back counts again, so a curve may rise"),
            KPIDefinition(kpi: "Trial conversion", numerator: "trials that subscribed", denominator: "trials started",
                          window: "first subscribed within \(conversionDays) days of the first trial",
                          rule: "cohort: local month of the first trial_started"),
            KPIDefinition(kpi: "Shared premium users", numerator: "users not paid at T with a paid partner", denominator: "—",
                          window: "at T", rule: "connected at T, either side of the connection; never payers, never MRR"),
            KPIDefinition(kpi: "Studio MRR total", numerator: "each currency's MRR converted once", denominator: "—",
                          window: "at T of M",
                          rule: "latest expenses/fx rate on or before the month's last day; no total when a currency has no rate"),
        ]
    }
}
