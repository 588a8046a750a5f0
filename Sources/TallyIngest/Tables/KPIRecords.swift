import TallyCore

/// A row of `swipes/users` (FypMatch).
public struct SwipeUserRecord: Sendable, Equatable {
    public var id: String
    public var createdAt: Timestamp?
    public var gender: String?
    public var city: String?
    /// `free`, `premium` or `vip`.
    public var subscription: String?

    public init(id: String, createdAt: Timestamp?, gender: String?, city: String?, subscription: String?) {
        self.id = id
        self.createdAt = createdAt
        self.gender = gender
        self.city = city
        self.subscription = subscription
    }
}

/// A row of `swipes/swipes`, as byte views into the reader's buffer: valid
/// only during the reader's callback (store it, don't keep it).
public struct SwipeFields {
    public var id: UnsafeBufferPointer<UInt8>
    public var fromUserId: UnsafeBufferPointer<UInt8>
    public var toUserId: UnsafeBufferPointer<UInt8>
    public var action: SwipeAction
    public var timestamp: Timestamp
}

/// A row of `subscriptions/products`.
public struct ProductRecord: Sendable, Equatable {
    public var entry: ProductCatalog.Entry

    public init(entry: ProductCatalog.Entry) {
        self.entry = entry
    }
}

/// A row of `subscriptions/events`, as byte views into the reader's buffer:
/// valid only during the reader's callback (store it, don't keep it).
public struct SubscriptionEventFields {
    public var id: UnsafeBufferPointer<UInt8>
    public var app: UnsafeBufferPointer<UInt8>
    public var userId: UnsafeBufferPointer<UInt8>
    public var kind: SubscriptionEventKind
    public var productId: UnsafeBufferPointer<UInt8>?
    public var context: UnsafeBufferPointer<UInt8>?
    public var timestamp: Timestamp
    public var line: Int
}

/// A row of `subscriptions/events`.
public struct SubscriptionEventRecord: Sendable, Equatable {
    public var id: String
    public var app: String
    public var userId: String
    public var event: SubscriptionEvent

    public init(id: String, app: String, userId: String, event: SubscriptionEvent) {
        self.id = id
        self.app = app
        self.userId = userId
        self.event = event
    }
}

/// A row of `subscriptions/connections` (LovU).
public struct ConnectionRecord: Sendable, Equatable {
    public var connection: PartnerConnection

    public init(connection: PartnerConnection) {
        self.connection = connection
    }
}
