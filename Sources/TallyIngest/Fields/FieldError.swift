/// Why a field of a record could not be used, in words a person can act on.
public struct FieldError: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
