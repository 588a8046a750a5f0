/// Names people can tell apart on one board: a display name shared by
/// several users gets a short suffix of each one's user id.
///
/// The suffix is the shortest tail of the ids (at least four characters)
/// that differs between every user of that name, so two "João Silva" read
/// `João Silva (…a1f3)` and `João Silva (…9c20)`. Names are compared as
/// written, after trimming spaces; a unique name is left as it is.
///
/// ```swift
/// DistinctNames.shown([("u-1001", "Ana"), ("u-2002", "Ana"), ("u-3", "Bia")])
/// // ["Ana (…1001)", "Ana (…2002)", "Bia"]
/// ```
public enum DistinctNames {
    /// The shortest id tail a suffix uses.
    public static let minimumSuffix = 4

    /// The shown name of each `(userId, displayName)`, in the same order.
    public static func shown(_ users: [(userId: String, displayName: String)]) -> [String] {
        var idsByName: [String: [String]] = [:]
        for user in users { idsByName[key(user.displayName), default: []].append(user.userId) }
        var suffixLength: [String: Int] = [:]
        for (name, ids) in idsByName where Set(ids).count > 1 {
            let longest = ids.map(\.count).max() ?? 0
            var length = minimumSuffix
            while length < longest && Set(ids.map { String($0.suffix(length)) }).count < Set(ids).count { length += 1 }
            suffixLength[name] = length
        }
        return users.map { user in
            guard let length = suffixLength[key(user.displayName)] else { return user.displayName }
            let tail = user.userId.count > length ? "…" + user.userId.suffix(length) : user.userId
            return "\(user.displayName) (\(tail))"
        }
    }

    /// `name` without its leading and trailing spaces (whole characters: a
    /// space that a combining mark follows is part of another character).
    /// A name that neither starts nor ends with a space byte is its own key,
    /// found without walking its characters (a board of 10,000 members asks
    /// twice per member).
    static func key(_ name: String) -> String {
        let space = UInt8(ascii: " ")
        if name.utf8.first != space && name.utf8.last != space { return name }
        return String(name.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
