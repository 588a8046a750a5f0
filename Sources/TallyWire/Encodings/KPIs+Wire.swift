import TallyCore

// The wire forms of the KPI inputs: subscription events keyed by their
// timeline (app, user), products by id, connections by user, swipes by the
// swiping user, matches by their pair.

extension UserSubscriptionEvent: WireRecord {
    public static let wireKind = "subscription-event"
    public static let wireVersion = 1
    public static let wireKeyFieldCount = 2

    /// `subscription-event.v1  app  userId  kind  timestamp  productId  context  sourceFile  sourceLine`
    /// (source fields `\N` when the event has no source).
    public func encode(into writer: inout WireWriter) {
        writer.string(app)
        writer.string(userId)
        writer.enumeration(event.kind)
        writer.timestamp(event.timestamp)
        writer.string(event.productId)
        writer.string(event.context)
        writer.string(event.source?.file)
        writer.int(event.source.map { Int64($0.line) })
    }

    public init(fields: inout WireFields) throws(WireError) {
        let app = try fields.string("app")
        let userId = try fields.string("userId")
        let kind = try fields.enumeration("kind", SubscriptionEventKind.self)
        let timestamp = try fields.timestamp("timestamp")
        let productId = try fields.optionalString("productId")
        let context = try fields.optionalString("context")
        let file = try fields.optionalString("sourceFile")
        let line = try fields.optionalInt64("sourceLine")
        var source: SourceRef?
        switch (file, line) {
        case (nil, nil): source = nil
        case (let file?, let line?):
            guard let line = Int(exactly: line) else { throw fields.error("\(line) is out of range") }
            source = SourceRef(file: file, line: line)
        default: throw fields.error("is nil where sourceFile is not, or the reverse")
        }
        self.init(app: app, userId: userId,
                  event: SubscriptionEvent(kind: kind, timestamp: timestamp, productId: productId, context: context, source: source))
    }
}

extension ProductCatalog.Entry: WireRecord {
    public static let wireKind = "product"
    public static let wireVersion = 1
    public static let wireKeyFieldCount = 1

    /// `product.v1  productId  app  plan  yearly  price  currency`
    public func encode(into writer: inout WireWriter) {
        writer.string(productId)
        writer.string(app)
        writer.string(plan)
        writer.bool(yearly)
        writer.int(price)
        writer.currency(currency)
    }

    public init(fields: inout WireFields) throws(WireError) {
        let productId = try fields.string("productId")
        let app = try fields.string("app")
        let plan = try fields.string("plan")
        let yearly = try fields.bool("yearly")
        let price = try fields.int64("price")
        self.init(productId: productId, app: app, plan: plan, yearly: yearly, price: price, currency: try fields.currency("currency"))
    }
}

extension PartnerConnection: WireRecord {
    public static let wireKind = "partner-connection"
    public static let wireVersion = 1
    public static let wireKeyFieldCount = 1

    /// `partner-connection.v1  userId  partnerId  connectedAt  disconnectedAt`
    public func encode(into writer: inout WireWriter) {
        writer.string(userId)
        writer.string(partnerId)
        writer.timestamp(connectedAt)
        writer.timestamp(disconnectedAt)
    }

    public init(fields: inout WireFields) throws(WireError) {
        let userId = try fields.string("userId")
        let partnerId = try fields.string("partnerId")
        self.init(userId: userId, partnerId: partnerId, connectedAt: try fields.timestamp("connectedAt"),
                  disconnectedAt: try fields.optionalTimestamp("disconnectedAt"))
    }
}

extension Swipe: WireRecord {
    public static let wireKind = "swipe"
    public static let wireVersion = 1
    /// Keyed by the swiping user (the partition of the daily counts); match
    /// derivation re-keys by pair with ``MatchRule/pair(from:to:)``.
    public static let wireKeyFieldCount = 1

    /// `swipe.v1  fromUserId  toUserId  id  action  timestamp`
    public func encode(into writer: inout WireWriter) {
        writer.string(fromUserId)
        writer.string(toUserId)
        writer.string(id)
        writer.enumeration(action)
        writer.timestamp(timestamp)
    }

    public init(fields: inout WireFields) throws(WireError) {
        let from = try fields.string("fromUserId")
        let to = try fields.string("toUserId")
        let id = try fields.string("id")
        let action = try fields.enumeration("action", SwipeAction.self)
        self.init(id: id, fromUserId: from, toUserId: to, action: action, timestamp: try fields.timestamp("timestamp"))
    }
}

extension SwipeMatch: WireRecord {
    public static let wireKind = "match"
    public static let wireVersion = 1
    public static let wireKeyFieldCount = 2

    /// `match.v1  userA  userB  formedAt`
    public func encode(into writer: inout WireWriter) {
        writer.string(userA)
        writer.string(userB)
        writer.timestamp(formedAt)
    }

    public init(fields: inout WireFields) throws(WireError) {
        let a = try fields.string("userA")
        let b = try fields.string("userB")
        self.init(userA: a, userB: b, formedAt: try fields.timestamp("formedAt"))
    }
}
