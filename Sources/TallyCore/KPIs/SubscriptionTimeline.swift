/// One user's subscription to one app over time, modelled once: the events
/// in time order and every state they lead to (``SubscriptionState``).
/// Every subscription KPI asks this type, never the raw events.
///
/// "At T" always means from the events strictly before T (the contract's
/// fine point). Events at the same instant apply in the order given, which
/// callers give in ``SubscriptionEventOrder`` (load order, then line).
public struct SubscriptionTimeline: Sendable {
    public let app: String
    public let userId: String
    /// The events, sorted by time (stable).
    public let events: [SubscriptionEvent]
    /// The state after each event that changed it, in order.
    public private(set) var changes: [(at: Timestamp, state: SubscriptionState)] = []
    /// The first `signup`.
    public private(set) var signup: Timestamp?
    /// The first `subscribed`.
    public private(set) var firstSubscribed: Timestamp?
    /// The first `trial_started`.
    public private(set) var firstTrial: Timestamp?
    /// The first instant the user became paid (by any paying event).
    public private(set) var firstPaid: Timestamp?

    public init(app: String, userId: String, events: [SubscriptionEvent]) {
        self.app = app
        self.userId = userId
        // The warehouse gives events in time order already: sort only when needed.
        let inOrder = zip(events, events.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp }
        let sorted = inOrder ? events : events.enumerated().sorted { a, b in
            a.element.timestamp != b.element.timestamp ? a.element.timestamp < b.element.timestamp : a.offset < b.offset
        }.map(\.element)
        self.events = sorted
        var state = SubscriptionState.none
        for event in sorted {
            switch event.kind {
            case .signup: if signup == nil { signup = event.timestamp }
            case .subscribed: if firstSubscribed == nil { firstSubscribed = event.timestamp }
            case .trialStarted: if firstTrial == nil { firstTrial = event.timestamp }
            default: break
            }
            let next = state.applying(event)
            if next != state {
                changes.append((event.timestamp, next))
                if next.isPaid && firstPaid == nil { firstPaid = event.timestamp }
                state = next
            }
        }
    }

    /// The state at `t`: after every event strictly before `t`.
    public func state(at t: Timestamp) -> SubscriptionState {
        // Few changes per user: a backward scan is cheapest.
        for change in changes.reversed() where change.at < t { return change.state }
        return .none
    }

    /// Whether the user is a paid subscriber at `t` (events strictly before `t`).
    public func isPaid(at t: Timestamp) -> Bool { state(at: t).isPaid }

    /// Whether the user had been paid at any instant before `t` (for reactivations).
    public func wasPaid(before t: Timestamp) -> Bool {
        guard let firstPaid else { return false }
        return firstPaid < t
    }

    /// The context of the last `paywall_shown` strictly before the first
    /// `subscribed`, or nil when none came first (or the user never subscribed).
    public var creditedPaywallContext: String? { creditedPaywall.map { $0.context ?? "" } }

    /// The last `paywall_shown` strictly before the first `subscribed` (the one a conversion is credited to),
    /// or nil when none came first (or the user never subscribed).
    public var creditedPaywall: SubscriptionEvent? {
        guard let firstSubscribed else { return nil }
        return events.last { $0.kind == .paywallShown && $0.timestamp < firstSubscribed }
    }

    /// Whether the first `subscribed` came within `seconds` of `start`: 0 ≤ subscribed − start ≤ seconds.
    public func subscribed(within seconds: Int64, of start: Timestamp) -> Bool {
        guard let firstSubscribed else { return false }
        let delta = firstSubscribed.microseconds - start.microseconds
        return delta >= 0 && delta <= seconds * 1_000_000
    }
}
