/// Short forms of long user ids, for reports whose data carries no names
/// (health activity has user ids only): each id's first ``length``
/// characters and `…`, lengthened for ids that would otherwise read alike,
/// so the shown ids stay as distinct as the ids. An id no longer than its
/// short form is shown whole.
///
/// ```swift
/// ShortIds.shown(["PjUYncKyKP6Wbn6bhBZd", "PjUYncKyQ0", "abc"])
/// // ["PjUYncKyK…", "PjUYncKyQ…", "abc"]
/// ```
public enum ShortIds {
    /// Characters kept of an id before it is lengthened.
    public static let length = 8

    /// The shown form of each of `ids`, in the same order (a repeated id gets the same form).
    public static func shown(_ ids: [String], length: Int = ShortIds.length) -> [String] {
        let distinct = Array(Set(ids))
        var kept = [String: Int](uniqueKeysWithValues: distinct.map { ($0, length) })
        func form(_ id: String) -> String {
            let n = kept[id]!
            return id.count > n ? String(id.prefix(n)) + "…" : id
        }
        // Ids whose forms collide keep one more character, until no two forms are alike.
        while true {
            var byForm: [String: [String]] = [:]
            for id in distinct { byForm[form(id), default: []].append(id) }
            var grew = false
            for (_, group) in byForm where group.count > 1 {
                for id in group where kept[id]! < id.count {
                    kept[id]! += 1
                    grew = true
                }
            }
            if !grew { break }
        }
        return ids.map(form)
    }
}
