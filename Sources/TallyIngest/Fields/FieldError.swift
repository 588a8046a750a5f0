import TallyCore

/// Why a field of a record could not be used: the reject's kind and its
/// sentence (``TallyCore/RejectReason``), in words a person can act on.
///
/// ```swift
/// throw FieldError(.empty("paidBy"))   // "paidBy is empty" (field_empty)
/// ```
public struct FieldError: Error, Equatable, Sendable, CustomStringConvertible {
    public var why: RejectReason

    public init(_ why: RejectReason) { self.why = why }

    /// The sentence of `rejects.csv`.
    public var reason: String { why.text }

    public var description: String { why.text }
}
