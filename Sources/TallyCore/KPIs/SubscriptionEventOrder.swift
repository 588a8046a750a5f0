/// The order one subscriber's events apply in (``SubscriptionTimeline``):
/// by instant; events at one instant in the order their files were loaded,
/// then by line. Which of two same-instant events applies last decides the
/// state after them (a `subscribed` and a `cancelled` at one instant), so the
/// order is a rule, declared here once: the warehouse builds its sorted scan
/// from ``keys`` and the dataflow sorts with ``precedes(_:_:)``.
///
/// ```swift
/// let a = SubscriptionEventOrder.Position(instant: t, loadOrder: 1, line: 9)
/// let b = SubscriptionEventOrder.Position(instant: t, loadOrder: 2, line: 3)
/// SubscriptionEventOrder.precedes(a, b)   // true: a's file was loaded first
/// ```
public enum SubscriptionEventOrder {
    /// What the order compares, the most significant first.
    public enum Key: Sendable, CaseIterable {
        /// The event's instant (`at`).
        case instant
        /// The order in which the event's file was loaded (earlier first).
        case loadOrder
        /// The event's line in its file.
        case line
    }

    /// The keys, in order.
    public static let keys: [Key] = [.instant, .loadOrder, .line]

    /// Where an event stands.
    public struct Position: Sendable, Equatable {
        public var instant: Timestamp
        public var loadOrder: Int64
        public var line: Int

        public init(instant: Timestamp, loadOrder: Int64, line: Int) {
            self.instant = instant
            self.loadOrder = loadOrder
            self.line = line
        }
    }

    /// Whether the event at `a` applies before the one at `b`, by ``keys``.
    public static func precedes(_ a: Position, _ b: Position) -> Bool {
        for key in keys {
            switch key {
            case .instant where a.instant != b.instant: return a.instant < b.instant
            case .loadOrder where a.loadOrder != b.loadOrder: return a.loadOrder < b.loadOrder
            case .line where a.line != b.line: return a.line < b.line
            default: continue
            }
        }
        return false
    }
}
