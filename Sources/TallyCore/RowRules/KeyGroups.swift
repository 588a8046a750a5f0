/// Splits rows into key groups, the input of the row rules: rows whose keys
/// are equal byte for byte (UTF-8) share a group. Keys are never compared
/// as `String`s, whose equality is canonical equivalence: "ä" (U+00E4) and
/// "a\u{308}" are two ids.
///
/// Groups come in the order of their first row; rows keep their order.
///
/// ```swift
/// KeyGroups.split(["ä", "a\u{308}", "ä"]) { Array($0.utf8) }   // [["ä", "ä"], ["a\u{308}"]]
/// ```
public enum KeyGroups {
    public static func split<Row>(_ rows: [Row], key: (Row) -> [UInt8]) -> [[Row]] {
        let keys = rows.map(key)
        // Most calls get one key's rows: no table to build.
        guard let first = keys.first else { return [] }
        if keys.allSatisfy({ $0 == first }) { return [rows] }
        var index: [[UInt8]: Int] = [:]
        var groups: [[Row]] = []
        for (row, k) in zip(rows, keys) {
            if let i = index[k] {
                groups[i].append(row)
            } else {
                index[k] = groups.count
                groups.append([row])
            }
        }
        return groups
    }
}
