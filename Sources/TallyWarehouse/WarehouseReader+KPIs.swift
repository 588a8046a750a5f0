import GRDB
import TallyCore
import TallyIngest

/// Queries for the product KPIs.
extension WarehouseReader {
    /// Streams the accepted swipes made in `[from, to)`, in no particular
    /// order, as (the swiping user's number, action, instant). Users are
    /// numbered per warehouse (one number per user id), so distinct swipers
    /// can be counted without their ids. Reads the rows of the files whose
    /// swipes cover some of the window (``SwipeSpans``).
    public func forEachSwipe(from: Timestamp, to: Timestamp,
                             _ body: (_ fromUser: Int64, _ action: SwipeAction, _ at: Timestamp) throws -> Void) throws {
        try reading(.swipeMatches)
        let select = "SELECT from_person, action, at FROM swipe_row WHERE at >= ? AND at < ? AND rowid NOT IN (SELECT row FROM swipe_superseded)"
        func scan(_ rows: RawCursor) throws {
            while try rows.next() {
                guard let action = rows.withText(1, SwipeAction.init(utf8:)) else {
                    throw WarehouseError("a stored swipe has the action '\(String(decoding: rows.text(1) ?? .init(start: nil, count: 0), as: UTF8.self))', which this tally does not know: the warehouse was written by another version; run again with a new --db")
                }
                try body(rows.int64(0), action, Timestamp(microseconds: rows.int64(2)))
            }
        }
        // The rows of the files that cover the window (SwipeSpans), else the whole log.
        guard let ranges = try SwipeSpans.ranges(db, from: from.microseconds, to: to.microseconds) else {
            return try scan(RawCursor(db, sql: select, arguments: [from.microseconds, to.microseconds]))
        }
        for range in ranges {
            try scan(RawCursor(db, sql: select + " AND rowid BETWEEN ? AND ?",
                               arguments: [from.microseconds, to.microseconds, range.lowerBound, range.upperBound]))
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

    /// The earliest subscription event, if any: of the log's rows that
    /// count (the view's rows, without its join to their files). With
    /// `before`, the instant of any counted event before it when there is
    /// one, else the earliest: one pass over the log in its own order, which
    /// stops at the first event before `before` (a log loaded month by month
    /// holds one near its start when there is one).
    public func firstSubscriptionEvent(before: Timestamp? = nil) throws -> Timestamp? {
        try reading(.subscriptionEvents)
        // One pass over the log in its own order, ended by the first event before `before`.
        let rows = try RawCursor(db, sql: """
            SELECT at FROM subscription_event_row WHERE rowid NOT IN (SELECT row FROM subscription_event_superseded)
            """)
        var earliest: Int64?
        while try rows.next() {
            let at = rows.int64(0)
            if let before, at < before.microseconds { return Timestamp(microseconds: at) }
            if earliest.map({ at < $0 }) ?? true { earliest = at }
        }
        return earliest.map(Timestamp.init(microseconds:))
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
        try forEachSubscriber(skipping: [], gather: false, body)
    }

    /// ``forEachSubscriber(_:)``, leaving out every subscriber whose key's
    /// hash (``subscriberKeyHash(_:)``) `skipping` holds: their events are
    /// not decoded. With `gather`, the counted events are read in the log's
    /// order, not sorted by SQLite, and the other subscribers' events are
    /// held and grouped in memory: no sort of the whole log, and memory for
    /// the events read (for when `skipping` leaves out most subscribers).
    /// The subscribers then come in the order of their first event in the
    /// log, not by name (each one's events still in
    /// ``TallyCore/SubscriptionEventOrder``): for a consumer that adds them
    /// in any order, as the KPIs' mergeable counts do.
    public func forEachSubscriber(skipping: Set<UInt64>, gather: Bool,
                                  _ body: (_ app: String, _ userId: String, _ events: [SubscriptionEvent], _ ids: [String]) throws -> Void) throws {
        try reading(.subscriptionEvents)
        let paths = try displayPaths()
        let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
        try db.execute(sql: "PRAGMA cache_size = -4096")
        defer { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }
        let rows = try RawCursor(db, sql: """
            SELECT app, user_id, event, product_id, context, at, file_id, line, id, load_seq
            FROM subscription_event\(gather ? "" : " ORDER BY app, user_id, \(Self.subscriptionEventOrder)")
            """)
        var strings = StringCache()
        func event(_ rows: RawCursor) throws -> SubscriptionEvent {
            guard let kind = SubscriptionEventKind(utf8: rows.text(2)!) else {
                throw WarehouseError("stored subscription event '\(String(decoding: rows.text(8)!, as: UTF8.self))' has the kind '\(String(decoding: rows.text(2)!, as: UTF8.self))', which this tally does not know: the warehouse was written by another version; run again with a new --db")
            }
            return SubscriptionEvent(kind: kind, timestamp: Timestamp(microseconds: rows.int64(5)),
                                     productId: rows.text(3).map { strings.string($0) },
                                     context: rows.text(4).map { strings.string($0) },
                                     source: SourceRef(file: paths[rows.int64(6)] ?? "", line: Int(rows.int64(7))))
        }
        guard gather else {
            var app = "", user = ""
            var started = false, skipped = false
            var events: [SubscriptionEvent] = []
            var ids: [String] = []
            while try rows.next() {
                let appBytes = rows.text(0)!, userBytes = rows.text(1)!
                if !started || !StringCache.equal(user, userBytes) || !StringCache.equal(app, appBytes) {
                    if started && !skipped { try body(app, user, events, ids) }
                    events.removeAll(keepingCapacity: true)
                    ids.removeAll(keepingCapacity: true)
                    app = strings.string(appBytes)
                    user = String(decoding: userBytes, as: UTF8.self)
                    started = true
                    skipped = !skipping.isEmpty && skipping.contains(Self.subscriberKeyHash(app: appBytes, userId: userBytes))
                }
                if skipped { continue }
                events.append(try event(rows))
                ids.append(String(decoding: rows.text(8)!, as: UTF8.self))
            }
            if started && !skipped { try body(app, user, events, ids) }
            return
        }
        // The log's order: each row's subscriber looked up by its key's hash (the one the skip
        // already computed; a subscriber whose hash another one has goes by its names), its event
        // held in one array in the log's order; then the events grouped by subscriber (a counting
        // sort), and each subscriber's few events sorted when the log holds them out of order.
        struct Subscriber: Hashable {
            var app: String
            var user: String
        }
        struct Held {
            var position: SubscriptionEventOrder.Position
            var event: SubscriptionEvent
            var id: String
        }
        var byHash: [UInt64: Int32] = [:]
        var sharingHash: [Subscriber: Int32] = [:]
        var subscribers: [Subscriber] = []
        var owners: [Int32] = []
        var held: [Held] = []
        // Room for every row of the log at once: growing by doubling copies what is held into new
        // pages each time, and untouched capacity costs address space, not memory.
        let rowsAtMost = try Int.fetchOne(db, sql: "SELECT max(rowid) FROM subscription_event_row") ?? 0
        owners.reserveCapacity(rowsAtMost)
        held.reserveCapacity(rowsAtMost)
        func add(_ subscriber: Subscriber) -> Int32 {
            subscribers.append(subscriber)
            return Int32(subscribers.count - 1)
        }
        while try rows.next() {
            let appBytes = rows.text(0)!, userBytes = rows.text(1)!
            let hash = Self.subscriberKeyHash(app: appBytes, userId: userBytes)
            if skipping.contains(hash) { continue }
            let owner: Int32
            if let found = byHash[hash] {
                let known = subscribers[Int(found)]
                if StringCache.equal(known.user, userBytes) && StringCache.equal(known.app, appBytes) {
                    owner = found
                } else {
                    let subscriber = Subscriber(app: strings.string(appBytes), user: String(decoding: userBytes, as: UTF8.self))
                    owner = sharingHash[subscriber] ?? add(subscriber)
                    sharingHash[subscriber] = owner
                }
            } else {
                owner = add(Subscriber(app: strings.string(appBytes), user: String(decoding: userBytes, as: UTF8.self)))
                byHash[hash] = owner
            }
            owners.append(owner)
            held.append(Held(position: .init(instant: Timestamp(microseconds: rows.int64(5)), loadOrder: rows.int64(9),
                                             line: Int(rows.int64(7))),
                             event: try event(rows), id: String(decoding: rows.text(8)!, as: UTF8.self)))
        }
        byHash = [:]
        sharingHash = [:]
        // Each subscriber's events: `grouped[start[i]..<start[i + 1]]` (indexes into `held`, in the log's order).
        var start = [Int](repeating: 0, count: subscribers.count + 1)
        for owner in owners { start[Int(owner) + 1] += 1 }
        for i in subscribers.indices { start[i + 1] += start[i] }
        var grouped = [Int32](repeating: 0, count: held.count)
        var next = start
        for (row, owner) in owners.enumerated() {
            grouped[next[Int(owner)]] = Int32(row)
            next[Int(owner)] += 1
        }
        owners = []
        // Each subscriber in the order of its first event in the log (no sort of the subscribers' names:
        // the KPIs add subscribers in any order), its events sorted only when the log holds them out of order.
        var events: [SubscriptionEvent] = [], ids: [String] = []
        var order: [Int32] = []
        for i in subscribers.indices {
            order.removeAll(keepingCapacity: true)
            order.append(contentsOf: grouped[start[i]..<start[i + 1]])
            let inOrder = zip(order, order.dropFirst()).allSatisfy {
                SubscriptionEventOrder.precedes(held[Int($0)].position, held[Int($1)].position)
            }
            if !inOrder { order.sort { SubscriptionEventOrder.precedes(held[Int($0)].position, held[Int($1)].position) } }
            events.removeAll(keepingCapacity: true)
            ids.removeAll(keepingCapacity: true)
            for row in order {
                events.append(held[Int(row)].event)
                ids.append(held[Int(row)].id)
            }
            try body(subscribers[i].app, subscribers[i].user, events, ids)
        }
    }

    /// A subscriber's key in the subscriptions' key changes
    /// (``subscriptionChanges(since:)``): the app's length in UTF-8 bytes, `:`,
    /// the app, then the user id, so that no two pairs share one.
    public static func subscriberKey(app: String, userId: String) -> String { "\(app.utf8.count):\(app)\(userId)" }

    /// The 64-bit FNV-1a hash of a subscriber's key (``subscriberKey(app:userId:)``).
    public static func subscriberKeyHash(_ key: String) -> UInt64 {
        var hash = KeyHash()
        hash.add(key.utf8)
        return hash.value
    }

    /// ``subscriberKeyHash(_:)`` of ``subscriberKey(app:userId:)``, without making the key.
    public static func subscriberKeyHash(app: String, userId: String) -> UInt64 {
        var app = app, userId = userId
        return app.withUTF8 { a in userId.withUTF8 { u in subscriberKeyHash(app: a, userId: u) } }
    }

    /// ``subscriberKeyHash(_:)`` of the key of the app and user id a row holds.
    static func subscriberKeyHash(app: UnsafeBufferPointer<UInt8>, userId: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = KeyHash()
        hash.add(String(app.count).utf8)
        hash.add(CollectionOfOne(UInt8(ascii: ":")))
        hash.add(app)
        hash.add(userId)
        return hash.value
    }

    /// FNV-1a, 64 bits.
    private struct KeyHash {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        mutating func add(_ bytes: some Sequence<UInt8>) {
            for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
    }

    /// What the refreshes of the counted subscription events changed, by
    /// subscriber (``subscriberKey(app:userId:)``): every subscriber, or those changed after refresh `since`.
    public func subscriptionChanges(since: Int64 = 0) throws -> KeyChanges {
        try keyChanges(scope: SubscriptionLogSchema.changeScope, since: since)
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
