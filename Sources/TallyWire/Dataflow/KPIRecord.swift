import TallyCore
import TallyIngest

/// A record of the KPIs family on its way between the stages of a dataflow
/// run (``FlowRecord/kpis(_:)``), by the stage it goes to.
///
/// - `rows` (keyed by table and key): ``swipe(_:)``, ``event(_:)`` (the reference
///   tables' rows travel as ``FlowRecord/reference(_:)``, as every dataset's do).
/// - `swipePairs` (keyed by the pair): ``pairSwipe(first:second:_:)``.
/// - `swipeDays` (keyed by the local day): ``daySwipe(from:action:at:)``, ``match(at:)``.
/// - `subscribers` (keyed by app and user): ``subscriberEvent(_:)``.
/// - `merge`: ``appStoreCount(_:)``, ``connection(_:)``, ``partial(_:firstEvent:)``.
public enum KPIRecord: Sendable {
    // MARK: rows
    /// A row of swipes/swipes.
    case swipe(SwipeRow)
    /// A row of subscriptions/events or of an App Store Connect Subscriber report.
    case event(EventRow)

    // MARK: swipePairs
    /// A counted like, super like or report between the pair's two users
    /// (`first` precedes `second` in byte order).
    case pairSwipe(first: String, second: String, MatchRule.PairSwipe)

    // MARK: swipeDays
    /// A counted swipe of the window, by its swiper.
    case daySwipe(from: String, action: SwipeAction, at: Timestamp)
    /// A match formed within the window.
    case match(at: Timestamp)

    // MARK: subscribers
    /// A counted event of the subscriber.
    case subscriberEvent(EventRow)

    // MARK: merge
    /// A row of an App Store Connect Subscription Event report.
    case appStoreCount(AppStoreEventCount)
    /// A partner connection that counts.
    case connection(PartnerConnection)
    /// What some partitions of the family gave, counted under the earliest
    /// first month of the series (``KPIsFamily/Summary/narrowed(to:)``), and
    /// the earliest instant among their subscribers' events.
    case partial(KPIsFamily.SummaryState, firstEvent: Timestamp?)
}

/// A swipe as decoded, with where it was read.
public struct SwipeRow: Sendable {
    public var id: String
    public var from: String
    public var to: String
    public var action: SwipeAction
    public var at: Timestamp
    public var origin: RowOrigin

    public init(id: String, from: String, to: String, action: SwipeAction, at: Timestamp, origin: RowOrigin) {
        self.id = id
        self.from = from
        self.to = to
        self.action = action
        self.at = at
        self.origin = origin
    }
}

/// A subscription event as decoded (from `subscriptions/events` or an App
/// Store Connect Subscriber report), with where it was read.
public struct EventRow: Sendable {
    public var record: SubscriptionEventRecord
    public var origin: RowOrigin
    /// Whether it was read from a Subscriber report, which words its repeats' rejects.
    public var fromSubscriberReport: Bool

    public init(record: SubscriptionEventRecord, origin: RowOrigin, fromSubscriberReport: Bool) {
        self.record = record
        self.origin = origin
        self.fromSubscriberReport = fromSubscriberReport
    }
}
