import TallyCore

/// Why a wire line could not be read, naming the line, the record kind and
/// the field, in words a person can act on.
///
/// ```
/// line 12: expense.v1, field 5 (amount): '12x' is not an integer
/// line 40: expense.v2 is newer than this tally reads (v1)
/// ```
public struct WireError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The 1-based line number in the input read.
    public var line: Int
    /// The record tag as the line spells it (`expense.v1`), or the line's first bytes when it has no valid tag.
    public var kind: String
    /// The 1-based position of the field after the tag (the first key field is 1), or nil for the whole line.
    public var field: Int?
    /// The field's name in the record's definition, when known.
    public var fieldName: String?
    public var reason: String

    public init(line: Int, kind: String, field: Int? = nil, fieldName: String? = nil, reason: String) {
        self.line = line
        self.kind = kind
        self.field = field
        self.fieldName = fieldName
        self.reason = reason
    }

    /// `line N: kind reason` for the whole line (`reason` reads as a
    /// predicate: "has 15 fields, 13 expected"), `line N: kind, field i
    /// (name): reason` for one field.
    public var description: String {
        guard let field else { return "line \(line): \(kind) \(reason)" }
        return "line \(line): \(kind), field \(field)" + (fieldName.map { " (\($0))" } ?? "") + ": " + reason
    }
}
