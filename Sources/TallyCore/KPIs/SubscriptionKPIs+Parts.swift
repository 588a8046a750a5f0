/// Small helpers of ``SubscriptionKPIs/add(_:)``, which runs once per user
/// of every app: each keeps work off that per-user path.

/// The states of a timeline at increasing instants, in one forward pass
/// over its changes: the state at `t` is the one after every change strictly
/// before `t` (as ``SubscriptionTimeline/state(at:)``).
struct StateSweep {
    private let changes: [(at: Timestamp, state: SubscriptionState)]
    private var next = 0
    private var current = SubscriptionState.none

    init(_ changes: [(at: Timestamp, state: SubscriptionState)]) { self.changes = changes }

    /// The state at `t`; `t` must not decrease from one call to the next.
    mutating func state(at t: Timestamp) -> SubscriptionState {
        while next < changes.count && changes[next].at < t {
            current = changes[next].state
            next += 1
        }
        return current
    }
}

/// Catalogue lookups for one user, who pays for few products: the last one
/// found is kept.
struct EntryCache {
    private let catalog: ProductCatalog
    /// The product looked up last and its entry: compared in place, not bound to a copy.
    private var lastId: String?
    private var lastEntry: ProductCatalog.Entry?

    init(_ catalog: ProductCatalog) { self.catalog = catalog }

    mutating func entry(_ productId: String?) -> ProductCatalog.Entry? {
        guard let productId else { return nil }
        if lastId == productId { return lastEntry }
        lastEntry = catalog[productId]
        lastId = productId
        return lastEntry
    }
}

/// A set of month indexes (into ``SubscriptionKPIs/months``), as bits: the
/// first 64 months in one word held inline (a user's set costs no
/// allocation for series of up to 64 months), the others in an array.
struct MonthSet: Sendable, Equatable {
    private var first: UInt64 = 0
    private var rest: [UInt64]

    init(count: Int) { rest = Array(repeating: 0, count: max(0, (count - 1) / 64)) }

    subscript(_ i: Int) -> Bool {
        get { (i < 64 ? first : rest[(i >> 6) - 1]) & (1 << UInt64(i & 63)) != 0 }
        set {
            let bit: UInt64 = 1 << UInt64(i & 63)
            if i < 64 {
                if newValue { first |= bit } else { first &= ~bit }
            } else {
                if newValue { rest[(i >> 6) - 1] |= bit } else { rest[(i >> 6) - 1] &= ~bit }
            }
        }
    }

    mutating func formUnion(_ other: MonthSet) {
        first |= other.first
        for w in other.rest.indices { rest[w] |= other.rest[w] }
    }
}
