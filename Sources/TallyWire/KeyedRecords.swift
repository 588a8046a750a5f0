import TallyCore

// Values that carry no key of their own, with the key their partition is
// routed by: what goes on the wire for them.

/// One subscription event with the timeline it belongs to (app and user):
/// the input of the subscription KPIs, whose partition is a user's timeline.
public struct UserSubscriptionEvent: Sendable, Equatable {
    public var app: String
    public var userId: String
    public var event: SubscriptionEvent

    public init(app: String, userId: String, event: SubscriptionEvent) {
        self.app = app
        self.userId = userId
        self.event = event
    }
}

/// A match between two FypMatch users, as match derivation finds it:
/// `userA` before `userB` in byte order, and the instant it formed.
public struct SwipeMatch: Sendable, Equatable {
    public var userA: String
    public var userB: String
    public var formedAt: Timestamp

    public init(userA: String, userB: String, formedAt: Timestamp) {
        self.userA = userA
        self.userB = userB
        self.formedAt = formedAt
    }
}

extension MatchRule {
    /// What one part of a pair's swipes showed, with the pair: the partial
    /// result of match derivation, merged per pair with ``PairState/merge(_:)``.
    public struct PairPartial: Sendable, Equatable {
        /// The pair's users in byte order (``MatchRule/pair(from:to:)``).
        public var first: String
        public var second: String
        public var state: PairState

        public init(first: String, second: String, state: PairState) {
            self.first = first
            self.second = second
            self.state = state
        }
    }
}
