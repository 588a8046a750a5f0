import GRDB
import TallyCore
import TallyIngest

/// Queries for the product KPIs.
extension WarehouseReader {
    /// Streams the swipes made in `[from, to)`, in time order, as (from user, action, instant).
    public func forEachSwipe(from: Timestamp, to: Timestamp,
                             _ body: (_ fromUser: String, _ action: SwipeAction, _ at: Timestamp) throws -> Void) throws {
        let rows = try Row.fetchCursor(db, sql: "SELECT from_user, action, at FROM swipe WHERE at >= ? AND at < ? ORDER BY at, id",
                                       arguments: [from.microseconds, to.microseconds])
        while let row = try rows.next() {
            guard let action = SwipeAction(contract: row[1]) else { continue }
            try body(row[0], action, Timestamp(microseconds: row[2]))
        }
    }

    /// The instants of the matches formed in `[from, to)`.
    public func matchInstants(from: Timestamp, to: Timestamp) throws -> [Timestamp] {
        try Int64.fetchAll(db, sql: "SELECT formed_at FROM swipe_match WHERE formed_at >= ? AND formed_at < ? ORDER BY formed_at",
                           arguments: [from.microseconds, to.microseconds]).map(Timestamp.init(microseconds:))
    }

    /// The products of `subscriptions/products`.
    public func products() throws -> [ProductCatalog.Entry] {
        try Row.fetchAll(db, sql: "SELECT product_id, app, plan, period, price, currency FROM product ORDER BY product_id")
            .compactMap { row in
                guard let currency = Currency(code: row[5]) else { return nil }
                return ProductCatalog.Entry(productId: row[0], app: row[1], plan: row[2], yearly: (row[3] as String) == "yearly",
                                            price: row[4], currency: currency)
            }
    }

    /// The earliest subscription event, if any.
    public func firstSubscriptionEvent() throws -> Timestamp? {
        try Int64.fetchOne(db, sql: "SELECT min(at) FROM subscription_event").map(Timestamp.init(microseconds:))
    }

    /// Streams every user's subscription events, one (app, user) at a time
    /// (byte order), events in time order (ties: load order, then line).
    /// Memory holds one user's events.
    public func forEachSubscriber(_ body: (_ app: String, _ userId: String, _ events: [(id: String, event: SubscriptionEvent)]) throws -> Void) throws {
        let paths = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, display_path FROM input_file")
            .map { ($0[0] as Int64, $0[1] as String) })
        // The table's own order: one scan, no sort.
        let rows = try Row.fetchCursor(db, sql: """
            SELECT app, user_id, event, product_id, context, at, file_id, line, id
            FROM subscription_event ORDER BY app, user_id, at, load_seq, line
            """)
        var key: (app: String, user: String)?
        var events: [(id: String, event: SubscriptionEvent)] = []
        while let row = try rows.next() {
            let app: String = row[0]
            let user: String = row[1]
            if let k = key, k.app != app || k.user != user {
                try body(k.app, k.user, events)
                events.removeAll(keepingCapacity: true)
            }
            key = (app, user)
            guard let kind = SubscriptionEventKind(contract: row[2]) else { continue }
            events.append((row[8], SubscriptionEvent(kind: kind, timestamp: Timestamp(microseconds: row[5]), productId: row[3],
                                                     context: row[4], source: SourceRef(file: paths[row[6]] ?? "", line: row[7]))))
        }
        if let k = key { try body(k.app, k.user, events) }
    }

    /// Every partner connection (LovU).
    public func partnerConnections() throws -> [PartnerConnection] {
        try Row.fetchAll(db, sql: """
            SELECT user_id, partner_id, connected_at, disconnected_at FROM partner_connection
            ORDER BY user_id, partner_id, connected_at
            """).map { row in
            PartnerConnection(userId: row[0], partnerId: row[1], connectedAt: Timestamp(microseconds: row[2]),
                              disconnectedAt: (row[3] as Int64?).map(Timestamp.init(microseconds:)))
        }
    }

    /// App Store Connect daily event counts of days `first...last`, summed per
    /// day, app, subscription and Apple event.
    public func appStoreEventCounts(first: LocalDate, last: LocalDate) throws -> [AppStoreEventCount] {
        try Row.fetchAll(db, sql: """
            SELECT date, app, subscription, apple_event, event, sum(quantity) FROM appstore_event_count
            WHERE date >= ? AND date <= ?
            GROUP BY date, app, subscription, apple_event, event ORDER BY date, app, subscription, apple_event
            """, arguments: [first.description, last.description]).compactMap { row in
            guard let date = LocalDate.parse(row[0] as String), let kind = SubscriptionEventKind(contract: row[4]) else { return nil }
            return AppStoreEventCount(date: date, app: row[1], subscription: row[2], appleEvent: row[3], event: kind, quantity: row[5])
        }
    }
}
