/// The product KPIs as a report family.
///
/// - Partitions, of three kinds (``Partition``): a subscriber's events
///   (key: app and user), a batch of accepted swipes and a batch of match
///   instants (key: the batch's number; any split of the swipes and matches
///   works, because the daily counters merge by sums and unions).
/// - Per partition: the subscriber's timeline added to the subscription
///   KPIs (its events with unknown products rejected,
///   ``UnknownProductRule``), or the swipes and matches counted per local day
///   of the period and of the month before.
/// - Summary: ``SubscriptionKPIs`` (merged with its own ``SubscriptionKPIs/merge(_:)``),
///   the two months' ``SwipesDailyAccumulator``s and the rejects.
/// - Report: ``KPIReport``, with the settings' broadcast inputs (partner
///   connections, App Store event counts, fx).
///
/// ```swift
/// let family = KPIsFamily(settings: settings)
/// var summary = family.emptySummary()
/// summary.merge(family.compute(.subscriber(app: "LovU", userId: "u1", events: events, ids: ids)).summary)
/// let report = family.finalise(summary)
/// ```
public struct KPIsFamily: ReportFamily {
    public struct Settings: Sendable {
        public var subscriptions: SubscriptionKPIs.Settings
        public var catalog: ProductCatalog
        public var targets: KPIReport.Targets
        public var connections: [PartnerConnection]
        public var appStoreEvents: [AppStoreEventCountRow]
        public var reportingCurrency: Currency?
        public var fx: FxTable

        public init(subscriptions: SubscriptionKPIs.Settings, catalog: ProductCatalog, targets: KPIReport.Targets,
                    connections: [PartnerConnection] = [], appStoreEvents: [AppStoreEventCountRow] = [],
                    reportingCurrency: Currency? = nil, fx: FxTable = FxTable()) {
            self.subscriptions = subscriptions
            self.catalog = catalog
            self.targets = targets
            self.connections = connections
            self.appStoreEvents = appStoreEvents
            self.reportingCurrency = reportingCurrency
            self.fx = fx
        }

        public var period: YearMonth { subscriptions.period }
    }

    /// One swipe as the KPIs count it: who (a number per user), what, when.
    public struct Swipe: Sendable, Hashable {
        public var from: Int64
        public var action: SwipeAction
        public var at: Timestamp

        public init(from: Int64, action: SwipeAction, at: Timestamp) {
            self.from = from
            self.action = action
            self.at = at
        }
    }

    public enum Partition: Sendable {
        /// A subscriber's events by time, with each event's id (for rejects).
        case subscriber(app: String, userId: String, events: [SubscriptionEvent], ids: [String])
        /// A numbered batch of accepted swipes of the period and the month before.
        case swipes(batch: Int, [Swipe])
        /// A numbered batch of the instants matches formed at.
        case matches(batch: Int, [Timestamp])
    }

    public struct Summary: Mergeable {
        public var subscriptions: SubscriptionKPIs
        public var swipes: SwipesDailyAccumulator<NumberedSwiperSet>
        public var previousSwipes: SwipesDailyAccumulator<NumberedSwiperSet>
        public var rejects = RejectList()

        public mutating func merge(_ other: Summary) {
            subscriptions.merge(other.subscriptions)
            swipes.merge(other.swipes)
            previousSwipes.merge(other.previousSwipes)
            rejects.merge(other.rejects)
        }
    }

    public struct Report: Sendable {
        public var kpis: KPIReport
        public var rejects: [Reject]
        /// Subscribers (app and user) counted.
        public var subscribers: Int
    }

    public let settings: Settings
    public var name: String { "kpis" }

    public init(settings: Settings) { self.settings = settings }

    public func key(of partition: Partition) -> PartitionKey {
        switch partition {
        case let .subscriber(app, userId, _, _): PartitionKey(["subscriber", app, userId])
        case let .swipes(batch, _): PartitionKey(["swipes", Self.batchName(batch)])
        case let .matches(batch, _): PartitionKey(["matches", Self.batchName(batch)])
        }
    }

    /// A batch number that sorts as its number does (zero-padded).
    private static func batchName(_ batch: Int) -> String {
        let digits = String(batch)
        return String(repeating: "0", count: max(0, 12 - digits.count)) + digits
    }

    public func compute(_ partition: Partition) -> PartitionResult<[Reject], Summary> {
        var summary = emptySummary()
        add(partition, to: &summary)
        return PartitionResult(key: key(of: partition), rows: summary.rejects.rejects, summary: summary)
    }

    /// Adds one partition's contribution to `summary`: the same as merging
    /// `compute(partition).summary`, without building an empty summary per
    /// partition (the run adds thousands of subscribers to one summary).
    public func add(_ partition: Partition, to summary: inout Summary) {
        let tz = settings.subscriptions.timezone
        let period = settings.period
        switch partition {
        case let .subscriber(app, userId, events, ids):
            var kept: [SubscriptionEvent] = []
            kept.reserveCapacity(events.count)
            for (event, id) in zip(events, ids) {
                if let reason = UnknownProductRule.reason(event, catalog: settings.catalog) {
                    summary.rejects.append(Reject(dataset: "subscriptions", file: event.source?.file ?? "",
                                                  line: event.source?.line ?? 0, id: id, reason: reason))
                } else {
                    kept.append(event)
                }
            }
            summary.subscriptions.add(SubscriptionTimeline(app: app, userId: userId, events: kept))
        case let .swipes(_, swipes):
            for swipe in swipes {
                let day = tz.localDate(of: swipe.at)
                if day.yearMonth == period {
                    summary.swipes.addSwipe(on: day, from: swipe.from, action: swipe.action)
                } else {
                    summary.previousSwipes.addSwipe(on: day, from: swipe.from, action: swipe.action)
                }
            }
        case let .matches(_, instants):
            for instant in instants {
                let day = tz.localDate(of: instant)
                if day.yearMonth == period { summary.swipes.addMatch(on: day) } else { summary.previousSwipes.addMatch(on: day) }
            }
        }
    }

    public func emptySummary() -> Summary {
        Summary(subscriptions: SubscriptionKPIs(settings: settings.subscriptions, catalog: settings.catalog),
                swipes: SwipesDailyAccumulator(month: settings.period),
                previousSwipes: SwipesDailyAccumulator(month: settings.period.adding(months: -1)))
    }

    public func finalise(_ summary: Summary) -> Report {
        let kpis = KPIReport(period: settings.period, targets: settings.targets, swipesDaily: summary.swipes.result,
                             previousSwipesDaily: summary.previousSwipes.result, subscriptions: summary.subscriptions,
                             connections: settings.connections, appStoreEvents: settings.appStoreEvents,
                             reportingCurrency: settings.reportingCurrency, fx: settings.fx)
        return Report(kpis: kpis, rejects: summary.rejects.sorted, subscribers: summary.subscriptions.users)
    }
}
