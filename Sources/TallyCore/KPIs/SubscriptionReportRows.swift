/// The rows of the subscription reports, as ``SubscriptionKPIs`` computes them.
public enum SubscriptionRows {
    /// A signup cohort of `kpis/conversion.csv`.
    public struct Conversion: Sendable, Equatable {
        public var app: String
        public var cohort: YearMonth
        /// signups = denominator, converted = numerator.
        public var rate: KPIRate
        /// False while some of the cohort's windows are still open at T.
        public var complete: Bool
    }

    /// A first-subscribed cohort of `kpis/retention.csv`.
    public struct Retention: Sendable, Equatable {
        public var app: String
        public var cohort: YearMonth
        /// subscribers = denominator, retained = numerator.
        public var rate: KPIRate
        public var complete: Bool
    }

    /// A paywall context of `kpis/paywall.csv` (the period month).
    public struct Paywall: Sendable, Equatable {
        public var app: String
        public var context: String
        /// `paywall_shown` events in the month.
        public var shown: Int
        /// Distinct users shown it in the month.
        public var users: Int
        /// First subscriptions in the month credited to the context.
        public var conversions: Int
        /// Of them, those credited to a view in the month: users shown the context in the month who converted after it.
        public var convertedAfterView: Int

        /// Paywall conversion: users shown the context in the month whose first subscription, in the month,
        /// is credited to it, over the users shown it (a conversion credited to a view of an earlier month
        /// is left out, so the rate never passes 100%).
        public var rate: KPIRate { KPIRate(convertedAfterView, of: users) }
    }

    /// Paid subscribers and MRR of one plan and currency at a month's end.
    public struct MRR: Sendable, Equatable {
        public var app: String
        public var plan: String
        public var currency: Currency
        public var month: YearMonth
        public var subscribers: Int
        /// In `currency` minor units.
        public var mrr: Int64
    }

    /// Churn of one month.
    public struct Churn: Sendable, Equatable {
        public var app: String
        public var month: YearMonth
        /// paid at the month's start = denominator; of them not paid at its end = numerator.
        public var rate: KPIRate
        /// `cancelled` events in the month (auto-renew turned off): churn to come.
        public var cancellations: Int
        /// `refunded` events in the month.
        public var refunds: Int
    }

    /// MRR movements of one month, in one currency (ChartMogul's split).
    public struct Movements: Sendable, Equatable {
        public var app: String
        public var currency: Currency
        public var month: YearMonth
        /// MRR at the month's start and end.
        public var startMRR: Int64 = 0
        public var endMRR: Int64 = 0
        /// Amounts (minor units, all ≥ 0) and the users behind them, per bucket.
        public var amounts: [MRRMovement: Int64] = [:]
        public var users: [MRRMovement: Int] = [:]

        /// A month of no MRR and no movements.
        public init(app: String, currency: Currency, month: YearMonth) {
            self.app = app
            self.currency = currency
            self.month = month
        }

        /// start + the signed movements (new + expansion + reactivation − contraction − churn).
        public var computedEnd: Int64 {
            startMRR + MRRMovement.allCases.map(signedAmount).reduce(0, +)
        }
        public var net: Int64 { endMRR - startMRR }
        /// The size of a bucket's movement (≥ 0).
        public func amount(_ bucket: MRRMovement) -> Int64 { amounts[bucket] ?? 0 }
        /// A bucket's movement with its sign (``MRRMovement/sign``): what every report shows.
        public func signedAmount(_ bucket: MRRMovement) -> Int64 { bucket.sign * amount(bucket) }
        public func count(_ bucket: MRRMovement) -> Int { users[bucket] ?? 0 }
    }

    /// Trials started in one month.
    public struct Trials: Sendable, Equatable {
        public var app: String
        public var month: YearMonth
        /// trials started = denominator; of them subscribed within the window = numerator.
        public var rate: KPIRate
        public var complete: Bool
    }

    /// Premium entitlement of an app with partner sharing (LovU) at a month's end.
    public struct SharedPremium: Sendable, Equatable {
        public var app: String
        public var month: YearMonth
        /// Paid subscribers at T.
        public var payers: Int
        /// Not paid, but connected at T to a partner who is.
        public var sharedUsers: Int
        /// payers + sharedUsers: everyone with premium.
        public var entitled: Int { payers + sharedUsers }
    }
}
