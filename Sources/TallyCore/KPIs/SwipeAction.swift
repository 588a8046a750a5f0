/// What a FypMatch user did on another's profile (`swipes.action`).
public enum SwipeAction: String, Sendable, CaseIterable, Hashable {
    case like
    case pass
    case superLike = "super_like"
    case report

    /// Whether the action counts as a like for matches (`like` or `super_like`).
    public var isLike: Bool { self == .like || self == .superLike }

    /// The action spelled `text`, exactly as the contract spells it, or nil.
    public init?(contract text: String) { self.init(rawValue: text) }

    /// The action whose contract spelling is `bytes`, or nil. Concrete and
    /// table-driven, because it runs once per swipe loaded: a generic
    /// `elementsEqual` over `rawValue.utf8` runs unspecialized, with metadata
    /// lookups per byte.
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        for (action, spelling) in Self.utf8Spellings where spelling.count == bytes.count && spelling.elementsEqual(bytes) {
            self = action
            return
        }
        return nil
    }

    /// The action whose contract spelling is `bytes`, or nil.
    public init?(utf8 bytes: [UInt8]) {
        guard let action = bytes.withUnsafeBufferPointer({ SwipeAction(utf8: $0) }) else { return nil }
        self = action
    }

    private static let utf8Spellings: [(Self, [UInt8])] = allCases.map { ($0, Array($0.rawValue.utf8)) }

    /// The contract's spellings, for messages.
    public static var spellings: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// One accepted swipe.
public struct Swipe: Sendable, Equatable {
    public var id: String
    public var fromUserId: String
    public var toUserId: String
    public var action: SwipeAction
    public var timestamp: Timestamp

    public init(id: String, fromUserId: String, toUserId: String, action: SwipeAction, timestamp: Timestamp) {
        self.id = id
        self.fromUserId = fromUserId
        self.toUserId = toUserId
        self.action = action
        self.timestamp = timestamp
    }
}
