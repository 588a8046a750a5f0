/// Where each member id first appears in a list of a couple's (or a
/// group's) members: what the split rules, the statement's balances and the
/// membership rule look ids up in, once per expense.
///
/// A couple's few members are compared directly, which is faster than
/// hashing an id and allocates nothing; a group of more than 16 members is
/// looked up in a dictionary.
///
/// ```swift
/// let positions = MemberPositions(["m1", "m2", "m1"])
/// positions["m2"]   // 1
/// positions["m1"]   // 0 (the first)
/// positions["m9"]   // nil
/// ```
public struct MemberPositions: Sendable {
    /// The ids, in the order given.
    public let ids: [String]
    /// The first position of each id, for groups above ``directLimit``.
    private let index: [String: Int]?

    /// Groups up to this size are scanned instead of hashed.
    static let directLimit = 16

    public init(_ ids: [String]) {
        self.ids = ids
        guard ids.count > Self.directLimit else {
            index = nil
            return
        }
        var index: [String: Int] = [:]
        for (i, id) in ids.enumerated() where index[id] == nil { index[id] = i }
        self.index = index
    }

    /// The first position of `id`, or nil when it is not among the ids.
    public subscript(_ id: String) -> Int? {
        if let index { return index[id] }
        return ids.firstIndex(of: id)
    }

    /// Whether `id` is among the ids.
    public func contains(_ id: String) -> Bool { self[id] != nil }
}
