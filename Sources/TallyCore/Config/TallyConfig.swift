/// Every setting of a tally run, with the contract's defaults.
///
/// Loaded from `tally.yml` (see `TallyPipeline.ConfigLoader`); a setting the
/// file leaves out keeps its default here.
public struct TallyConfig: Sendable, Equatable {
    /// The report time zone: days, weeks and months are local to it.
    public var timezone = "America/Sao_Paulo"
    /// The language and formats of statements (XLSX and text): pt-BR, en-US or es-ES.
    public var locale = "pt-BR"
    public var statements = Statements()
    public var leaderboards = Leaderboards()
    public var activity = Activity()
    public var kpis = KPIs()
    public var csv = CSV()
    /// When the run flags a dataset's volume (``RunChanges``).
    public var changes = RunChanges.Thresholds()
    /// The product catalogue: known plans and prices, used beside `subscriptions/products`.
    public var products: [Product] = []

    public init() {}

    /// Monthly couple statements.
    public struct Statements: Sendable, Equatable {
        /// Months in the spending trend (sparkline), ending with the period.
        public var trendMonths = 6
        /// The largest number of members with a non-zero balance for which
        /// transfers are searched exactly; larger groups settle greedily.
        public var exactTransferLimit = 20
        /// Whether every couple also gets its own workbook (`statements/<coupleId>.xlsx`),
        /// the file a couple is sent; off by default (each adds its writing time to the statements stage).
        /// `tally statement` writes one couple's on demand either way.
        public var coupleWorkbooks = false
        /// How statements name categories for people, tag → label (`mercado: Supermercado`), before
        /// the locale's built-in labels; the CSVs keep the raw tags.
        public var categoryLabels: [String: String] = [:]
        public init() {}
    }

    /// Fitness challenge leaderboards.
    public struct Leaderboards: Sendable, Equatable {
        /// A check-in counts only for workouts of at least this many minutes.
        public var minimumWorkoutMinutes = 30
        /// rankChange compares with the leaderboard this many days earlier.
        public var rankChangeDays = 7
        public init() {}
    }

    /// Daily activity scores.
    public struct Activity: Sendable, Equatable {
        /// A user is ranked (workbook and text) only with at least this many days of
        /// data in the month; the rest are listed apart. A week by default, so a user
        /// with three days is not ranked among users with thirty. The CSVs list everyone.
        public var minimumDaysRanked = 7
        public init() {}
    }

    /// Product KPIs.
    public struct KPIs: Sendable, Equatable {
        /// A signup converts when the first `subscribed` comes within this many days.
        public var conversionWindowDays = 30
        /// Subscriber retention is judged this many days after the first `subscribed`.
        public var retentionDays = 30
        /// Free→paid conversion target range.
        public var conversionTargetMin = 0.15
        public var conversionTargetMax = 0.20
        /// 30-day retention target (at least).
        public var retentionTarget = 0.80
        /// The currency the studio's MRR total is given in (converted with
        /// `expenses/fx` rates); nil: totals per currency only.
        public var reportingCurrency: Currency?
        public init() {}
    }

    /// The CSV reports.
    public struct CSV: Sendable, Equatable {
        /// Also write spreadsheet-ready copies in this dialect (`<family>/excel/<name>.csv`);
        /// ``CSVDialect/rfc4180`` (the default) writes the contract's files alone.
        public var dialect = CSVDialect.rfc4180
        public init() {}
    }

    /// A product of the catalogue.
    public struct Product: Sendable, Equatable {
        public var productId: String
        public var app: String
        public var plan: String
        /// `monthly` or `yearly`.
        public var period: String
        /// The price in `currency` minor units.
        public var price: Int64
        public var currency: Currency

        public init(productId: String, app: String, plan: String, period: String, price: Int64, currency: Currency) {
            self.productId = productId
            self.app = app
            self.plan = plan
            self.period = period
            self.price = price
            self.currency = currency
        }
    }
}
