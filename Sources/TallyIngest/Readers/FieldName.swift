/// Spelling rules for field names.
///
/// The data contract names fields in camelCase (`coupleId`, `userPhotoURL`) and
/// accepts the snake_case spelling of the same field (`couple_id`,
/// `user_photo_url`). Names are matched by ``matchKey(_:)``: lowercased, with
/// underscores removed, so `user_photo_url`, `userPhotoUrl` and `userPhotoURL`
/// are all the same field.
public enum FieldName {
    /// Converts a snake_case name to camelCase (`couple_id` → `coupleId`,
    /// `user_photo_url` → `userPhotoUrl`); a name without underscores is returned
    /// unchanged. Leading and trailing underscores are dropped.
    public static func camelCase(_ name: String) -> String {
        guard name.contains("_") else { return name }
        var result = ""
        var upperNext = false
        for character in name {
            if character == "_" {
                upperNext = !result.isEmpty
            } else if upperNext {
                result += character.uppercased()
                upperNext = false
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The key under which names are compared: lowercased, underscores removed,
    /// surrounding whitespace trimmed.
    public static func matchKey(_ name: String) -> String {
        String(FieldName.trimmed(name).lowercased().filter { $0 != "_" })
    }
}

/// Finds the index of a name among a table's fields, by ``FieldName/matchKey(_:)``.
struct FieldMatcher: Sendable {
    /// The table's field names, in schema order.
    let fields: [String]
    private let indexByKey: [String: Int]

    init(fields: [String]) {
        self.fields = fields
        var index: [String: Int] = [:]
        for (i, field) in fields.enumerated() where index[FieldName.matchKey(field)] == nil {
            index[FieldName.matchKey(field)] = i
        }
        indexByKey = index
    }

    /// The index of the field `name` spells, or nil when it is none of them.
    func index(of name: String) -> Int? {
        indexByKey[FieldName.matchKey(name)]
    }
}

extension FieldName {
    /// `name` without leading and trailing whitespace.
    static func trimmed(_ name: String) -> String {
        guard let first = name.firstIndex(where: { !$0.isWhitespace }),
              let last = name.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(name[first...last])
    }
}
