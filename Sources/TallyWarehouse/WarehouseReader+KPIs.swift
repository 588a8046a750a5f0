import GRDB
import TallyCore
import TallyIngest

/// Queries for the product KPIs.
extension WarehouseReader {
    /// Streams the accepted swipes made in `[from, to)`, in no particular
    /// order, as (the swiping user's number, action, instant). Users are
    /// numbered per warehouse (one number per user id), so distinct swipers
    /// can be counted without their ids.
    public func forEachSwipe(from: Timestamp, to: Timestamp,
                             _ body: (_ fromUser: Int64, _ action: SwipeAction, _ at: Timestamp) throws -> Void) throws {
        try reading(.swipeMatches)
        let rows = try RawCursor(db, sql: """
            SELECT from_person, action, at FROM swipe_row
            WHERE at >= ? AND at < ? AND rowid NOT IN (SELECT row FROM swipe_superseded)
            """, arguments: [from.microseconds, to.microseconds])
        while try rows.next() {
            guard let action = rows.withText(1, SwipeAction.init(utf8:)) else {
                throw WarehouseError("a stored swipe has the action '\(String(decoding: rows.text(1) ?? .init(start: nil, count: 0), as: UTF8.self))', which this tally does not know: the warehouse was written by another version; run again with a new --db")
            }
            try body(rows.int64(0), action, Timestamp(microseconds: rows.int64(2)))
        }
    }

    /// The instants of the matches formed in `[from, to)`.
    public func matchInstants(from: Timestamp, to: Timestamp) throws -> [Timestamp] {
        try reading(.swipeMatches)
        return try Int64.fetchAll(db, sql: "SELECT formed_at FROM swipe_match WHERE formed_at >= ? AND formed_at < ? ORDER BY formed_at",
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
        try reading(.subscriptionEvents)
        return try Int64.fetchOne(db, sql: "SELECT min(at) FROM subscription_event").map(Timestamp.init(microseconds:))
    }

    /// Streams every user's subscription events, one (app, user) at a time
    /// (byte order), events in ``TallyCore/SubscriptionEventOrder`` (time,
    /// then load order, then line: the scan's `ORDER BY` is built from the
    /// rule's keys, ``subscriptionEventOrder``), with each event's id at the
    /// same index of `ids`. Memory holds one user's events.
    ///
    /// One sorted scan of the counted events (the view over the log), columns
    /// read in place: a String is made per user, not per row, and product
    /// ids, contexts and file paths are made once each. The sort runs with a
    /// 4 MiB page cache: SQLite's sorter keeps up to the cache size in memory
    /// per thread, and merging 4 MiB runs is faster than sorting in larger
    /// ones, with the least memory (docs/performance.md).
    public func forEachSubscriber(_ body: (_ app: String, _ userId: String, _ events: [SubscriptionEvent], _ ids: [String]) throws -> Void) throws {
        try reading(.subscriptionEvents)
        let paths = try displayPaths()
        let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
        try db.execute(sql: "PRAGMA cache_size = -4096")
        defer { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }
        let rows = try RawCursor(db, sql: """
            SELECT app, user_id, event, product_id, context, at, file_id, line, id
            FROM subscription_event ORDER BY app, user_id, \(Self.subscriptionEventOrder)
            """)
        var strings = StringCache()
        var app = "", user = ""
        var started = false
        var events: [SubscriptionEvent] = []
        var ids: [String] = []
        while try rows.next() {
            let appBytes = rows.text(0)!, userBytes = rows.text(1)!
            if !started || !StringCache.equal(user, userBytes) || !StringCache.equal(app, appBytes) {
                if started { try body(app, user, events, ids) }
                events.removeAll(keepingCapacity: true)
                ids.removeAll(keepingCapacity: true)
                app = strings.string(appBytes)
                user = String(decoding: userBytes, as: UTF8.self)
                started = true
            }
            guard let kind = SubscriptionEventKind(utf8: rows.text(2)!) else {
                throw WarehouseError("stored subscription event '\(String(decoding: rows.text(8)!, as: UTF8.self))' has the kind '\(String(decoding: rows.text(2)!, as: UTF8.self))', which this tally does not know: the warehouse was written by another version; run again with a new --db")
            }
            let file = rows.int64(6)
            events.append(SubscriptionEvent(kind: kind, timestamp: Timestamp(microseconds: rows.int64(5)),
                                            productId: rows.text(3).map { strings.string($0) },
                                            context: rows.text(4).map { strings.string($0) },
                                            source: SourceRef(file: paths[file] ?? "", line: Int(rows.int64(7)))))
            ids.append(String(decoding: rows.text(8)!, as: UTF8.self))
        }
        if started { try body(app, user, events, ids) }
    }

    /// The columns of `subscription_event` that sort one subscriber's events
    /// in ``TallyCore/SubscriptionEventOrder``, its keys in order: `at, load_seq, line`.
    static let subscriptionEventOrder = SubscriptionEventOrder.keys.map { key in
        switch key {
        case .instant: "at"
        case .loadOrder: "load_seq"
        case .line: "line"
        }
    }.joined(separator: ", ")

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

    /// The rows of App Store Connect Subscription Event reports of days
    /// `first...last`, as stored, in no particular order (the KPIs sum and
    /// order them: `AppStoreDailyCounts` in TallyCore).
    public func appStoreEventCounts(first: LocalDate, last: LocalDate) throws -> [AppStoreEventCount] {
        try Row.fetchAll(db, sql: """
            SELECT date, app, subscription, apple_event, event, quantity FROM appstore_event_count
            WHERE date >= ? AND date <= ?
            """, arguments: [first.description, last.description]).compactMap { row in
            guard let date = LocalDate.parse(row[0] as String), let kind = SubscriptionEventKind(contract: row[4]) else { return nil }
            return AppStoreEventCount(date: date, app: row[1], subscription: row[2], appleEvent: row[3], event: kind, quantity: row[5])
        }
    }
}
