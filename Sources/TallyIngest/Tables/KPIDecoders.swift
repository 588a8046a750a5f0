import TallyCore

/// Decodes the rows of the `swipes/` and `subscriptions/` tables: what can
/// be checked in a row alone. Checks against other rows (is the product in
/// the catalogue?) happen when the KPIs are built.
public enum KPIDecoders {
    public static func swipeUser(_ f: FieldDecoder) throws(FieldError) -> SwipeUserRecord {
        let subscription = f.optional(4)
        if let subscription, !["free", "premium", "vip"].contains(subscription) {
            throw FieldError(.notOneOf(field: "subscription", value: String(subscription.prefix(40)), choices: "free, premium, vip"))
        }
        return SwipeUserRecord(id: try f.required(0), createdAt: try f.optionalTimestamp(1), gender: f.optional(2),
                               city: f.optional(3), subscription: subscription)
    }

    /// A swipe, as byte views of its fields (valid during the reader's
    /// callback only: swipes are the largest table, so no Strings are made).
    /// Rejects a swipe on oneself and an action the contract does not name.
    public static func swipe(_ f: FieldDecoder) throws(FieldError) -> SwipeFields {
        let id = try f.requiredBytes(0), from = try f.requiredBytes(1), to = try f.requiredBytes(2)
        guard !from.elementsEqual(to) else {
            throw FieldError(.fieldsEqual("fromUserId", "toUserId", value: FieldDecoder.shown(from)))
        }
        let actionBytes = try f.requiredBytes(3)
        guard let action = SwipeAction(utf8: actionBytes) else {
            throw FieldError(.notOneOf(field: "action", value: FieldDecoder.shown(actionBytes), choices: SwipeAction.spellings))
        }
        return SwipeFields(id: id, fromUserId: from, toUserId: to, action: action, timestamp: try f.timestamp(4))
    }

    public static func product(_ f: FieldDecoder) throws(FieldError) -> ProductRecord {
        let period = try f.choice(3, ["monthly", "yearly"])
        let currency = try f.currency(5)
        let price = try f.money(4, currency: currency)
        guard price >= 0 else { throw FieldError(.negative(field: "price", value: Money.plain(price, currency))) }
        return ProductRecord(entry: ProductCatalog.Entry(
            productId: try f.required(0), app: try f.required(1), plan: try f.required(2), yearly: period == "yearly",
            price: price, currency: currency))
    }

    /// An event. Rejects an event name the contract does not name, and a
    /// paying event (`subscribed`, `renewed`, `upgraded`, `downgraded`) without a product.
    public static func event(_ f: FieldDecoder) throws(FieldError) -> SubscriptionEventRecord {
        let e = try eventFields(f)
        func text(_ bytes: UnsafeBufferPointer<UInt8>?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }
        let event = SubscriptionEvent(kind: e.kind, timestamp: e.timestamp, productId: text(e.productId), context: text(e.context),
                                      source: SourceRef(file: "", line: e.line))
        return SubscriptionEventRecord(id: text(e.id)!, app: text(e.app)!, userId: text(e.userId)!, event: event)
    }

    /// An event as byte views of its fields (valid during the reader's
    /// callback only: events are a large table, so no Strings are made),
    /// checked as ``event(_:)`` checks it.
    public static func eventFields(_ f: FieldDecoder) throws(FieldError) -> SubscriptionEventFields {
        let id = try f.requiredBytes(0)
        let app = try f.requiredBytes(1)
        let user = try f.requiredBytes(2)
        let name = try f.requiredBytes(3)
        guard let kind = SubscriptionEventKind(utf8: name) else {
            let text = String(decoding: name, as: UTF8.self)
            throw FieldError(.notOneOf(field: "event", value: String(text.prefix(40)), choices: SubscriptionEventKind.spellings))
        }
        let product = f.view.bytes(4)
        if kind.isPaying && product == nil { throw FieldError(.productIdMissing(event: kind.rawValue)) }
        return SubscriptionEventFields(id: id, app: app, userId: user, kind: kind, productId: product, context: f.view.bytes(5),
                                       timestamp: try f.timestamp(6), line: f.line)
    }

    public static func connection(_ f: FieldDecoder) throws(FieldError) -> ConnectionRecord {
        let user = try f.required(0)
        let partner = try f.required(1)
        guard user != partner else { throw FieldError(.fieldsEqual("userId", "partnerId", value: String(user.prefix(40)))) }
        let connected = try f.timestamp(2)
        let disconnected = try f.optionalTimestamp(3)
        if let disconnected, disconnected < connected {
            throw FieldError(.endBeforeStart(end: "disconnectedAt", "\(disconnected)", start: "connectedAt", "\(connected)"))
        }
        return ConnectionRecord(connection: PartnerConnection(userId: user, partnerId: partner, connectedAt: connected,
                                                              disconnectedAt: disconnected))
    }
}
