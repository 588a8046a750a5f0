/// The contract's match rule, applied to one pair of users (the partition of
/// match derivation).
///
/// A pair matches when each user liked (`like` or `super_like`) the other and
/// neither ever reported the other, whenever the report came (before or
/// after the likes). The match forms at the later of the two *first* likes.
/// A later `pass` does not undo a like. Self-swipes never reach this rule:
/// they are rejected when read.
public enum MatchRule {
    /// The actions that can make or unmake a match: a like or super like
    /// makes one (with the other user's), a report unmakes it. Every other
    /// action (a `pass`) never changes a pair's ``PairState``, so a
    /// derivation may leave those swipes out of what it reads; the warehouse
    /// builds its match scan from this set and reads nothing else.
    ///
    /// ```swift
    /// MatchRule.matchActions.contains(.report)   // true
    /// MatchRule.changesMatches(.pass)            // false
    /// ```
    public static let matchActions = Set(SwipeAction.allCases.filter(changesMatches))

    /// Whether a swipe with `action` can make or unmake a match (the
    /// membership test of ``matchActions``, exhaustive over the actions so
    /// that a new one must be placed).
    @inlinable
    public static func changesMatches(_ action: SwipeAction) -> Bool {
        switch action {
        case .like, .superLike, .report: true
        case .pass: false
        }
    }

    /// One swipe between the two users of a pair, seen from the pair.
    public struct PairSwipe: Sendable, Equatable {
        /// True when the swipe goes from the pair's first user (in byte order) to the second.
        public var forward: Bool
        public var action: SwipeAction
        public var timestamp: Timestamp

        public init(forward: Bool, action: SwipeAction, timestamp: Timestamp) {
            self.forward = forward
            self.action = action
            self.timestamp = timestamp
        }
    }

    /// What is known of a pair so far; fold swipes in any order with ``add(_:)``.
    public struct PairState: Sendable, Equatable {
        public package(set) var firstForwardLike: Timestamp?
        public package(set) var firstBackwardLike: Timestamp?
        public package(set) var reported = false

        public init() {}

        /// Folds one swipe in; a swipe whose action is not among
        /// ``MatchRule/matchActions`` leaves the state as it was.
        public mutating func add(_ swipe: PairSwipe) {
            switch swipe.action {
            case .report:
                reported = true
            case .like, .superLike:
                if swipe.forward {
                    firstForwardLike = min(firstForwardLike ?? swipe.timestamp, swipe.timestamp)
                } else {
                    firstBackwardLike = min(firstBackwardLike ?? swipe.timestamp, swipe.timestamp)
                }
            case .pass:
                break
            }
        }

        /// Combines what two parts of the pair's swipes showed (a merge of partial results).
        public mutating func merge(_ other: PairState) {
            reported = reported || other.reported
            firstForwardLike = [firstForwardLike, other.firstForwardLike].compactMap { $0 }.min()
            firstBackwardLike = [firstBackwardLike, other.firstBackwardLike].compactMap { $0 }.min()
        }

        /// When the pair matched, or nil when it did not.
        public var matchedAt: Timestamp? {
            guard !reported, let a = firstForwardLike, let b = firstBackwardLike else { return nil }
            return max(a, b)
        }
    }

    /// When the pair matched, given all its swipes (both directions), or nil.
    public static func matchedAt(_ swipes: [PairSwipe]) -> Timestamp? {
        var state = PairState()
        for swipe in swipes { state.add(swipe) }
        return state.matchedAt
    }

    /// The pair key of a swipe: its two users in byte order, and whether it goes first → second.
    public static func pair(from: String, to: String) -> (first: String, second: String, forward: Bool) {
        from.utf8.lexicographicallyPrecedes(to.utf8) ? (from, to, true) : (to, from, false)
    }
}
