import TallyCore

/// One row of a Subscription Event report: how many times an event happened
/// to one subscription on one day.
public struct AppStoreEventCount: Sendable, Equatable {
    public var date: LocalDate
    public var app: String
    /// The subscription's name (or Apple ID when the name is empty).
    public var subscription: String
    /// Apple's event name, as written.
    public var appleEvent: String
    /// The contract event it stands for.
    public var event: SubscriptionEventKind
    public var quantity: Int64

    public init(date: LocalDate, app: String, subscription: String, appleEvent: String, event: SubscriptionEventKind,
                quantity: Int64) {
        self.date = date
        self.app = app
        self.subscription = subscription
        self.appleEvent = appleEvent
        self.event = event
        self.quantity = quantity
    }
}
