/// The events of `subscriptions/events`, as the contract names them.
public enum SubscriptionEventKind: String, Sendable, CaseIterable, Hashable, Comparable {
    case signup
    case paywallShown = "paywall_shown"
    case trialStarted = "trial_started"
    case subscribed
    case renewed
    /// A change to a dearer product; `productId` is the new product.
    case upgraded
    /// A change to a cheaper product; `productId` is the new product.
    case downgraded
    /// Auto-renew turned off: access lasts until `expired`.
    case cancelled
    case expired
    /// Access ends at once.
    case refunded

    /// The event spelled `text` exactly as the contract spells it, or nil.
    public init?(contract text: String) { self.init(rawValue: text) }

    /// The event whose contract spelling is `bytes`, or nil. Concrete and
    /// table-driven, because it runs once per event loaded: a generic
    /// `elementsEqual` over `rawValue.utf8` runs unspecialized, with metadata
    /// lookups per byte.
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        for (kind, spelling) in Self.utf8Spellings where spelling.count == bytes.count && spelling.elementsEqual(bytes) {
            self = kind
            return
        }
        return nil
    }

    private static let utf8Spellings: [(Self, [UInt8])] = allCases.map { ($0, Array($0.rawValue.utf8)) }

    /// Whether the event starts or continues paid access (the contract's
    /// `subscribed`, `renewed`, `upgraded`, `downgraded`).
    public var isPaying: Bool {
        self == .subscribed || self == .renewed || self == .upgraded || self == .downgraded
    }

    /// Whether the event ends paid access (`expired`, `refunded`).
    public var endsAccess: Bool { self == .expired || self == .refunded }

    /// The contract's spellings, for messages.
    public static var spellings: String { allCases.map(\.rawValue).joined(separator: ", ") }

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One subscription event of one user of one app.
public struct SubscriptionEvent: Sendable, Equatable {
    public var kind: SubscriptionEventKind
    public var timestamp: Timestamp
    /// The product (for upgrades and downgrades, the new one); nil when the row had none.
    public var productId: String?
    /// The paywall context (`paywall_shown`).
    public var context: String?
    /// Where the event was read, for rejects.
    public var source: SourceRef?

    public init(kind: SubscriptionEventKind, timestamp: Timestamp, productId: String? = nil, context: String? = nil,
                source: SourceRef? = nil) {
        self.kind = kind
        self.timestamp = timestamp
        self.productId = productId
        self.context = context
        self.source = source
    }
}
