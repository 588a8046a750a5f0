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
enum KPIRecord: Sendable {
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
struct SwipeRow: Sendable {
    var id: String
    var from: String
    var to: String
    var action: SwipeAction
    var at: Timestamp
    var origin: RowOrigin
}

/// A subscription event as decoded (from `subscriptions/events` or an App
/// Store Connect Subscriber report), with where it was read.
struct EventRow: Sendable {
    var record: SubscriptionEventRecord
    var origin: RowOrigin
    /// Whether it was read from a Subscriber report, which words its repeats' rejects.
    var fromSubscriberReport: Bool
}
