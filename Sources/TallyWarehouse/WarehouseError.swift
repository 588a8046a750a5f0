/// A warehouse failure, with a message that says what to do.
public struct WarehouseError: Error, CustomStringConvertible, Sendable {
    public enum Code: Sendable { case general, busy }
    public var description: String
    public var code: Code

    public init(_ description: String, code: Code = .general) {
        self.description = description
        self.code = code
    }
}
