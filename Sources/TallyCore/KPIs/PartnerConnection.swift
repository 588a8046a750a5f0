/// Two users who share premium (LovU `subscriptions/connections`), both ways.
public struct PartnerConnection: Sendable, Equatable {
    public var userId: String
    public var partnerId: String
    public var connectedAt: Timestamp
    public var disconnectedAt: Timestamp?

    public init(userId: String, partnerId: String, connectedAt: Timestamp, disconnectedAt: Timestamp? = nil) {
        self.userId = userId
        self.partnerId = partnerId
        self.connectedAt = connectedAt
        self.disconnectedAt = disconnectedAt
    }

    /// Connected at `t`, from what happened strictly before `t`: connected
    /// before `t` and not disconnected before `t`.
    public func isConnected(at t: Timestamp) -> Bool {
        connectedAt < t && (disconnectedAt.map { !($0 < t) } ?? true)
    }
}
