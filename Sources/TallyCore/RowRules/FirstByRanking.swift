/// The helper the version rules share: of a group, the one row that comes
/// first in a rule's order counts and the rest are superseded.
///
/// `precedes` must be a strict total order over the group (a rule breaks
/// every tie, last by a field unique in the group), so the verdicts do not
/// depend on the order the group is given in. Verdicts are returned in the
/// group's order.
///
/// ```swift
/// FirstByRanking.verdicts([3, 1, 2], precedes: <)   // [.superseded, .counts, .superseded]
/// ```
enum FirstByRanking {
    static func verdicts<Row>(_ group: [Row], precedes: (Row, Row) -> Bool) -> [RowVerdict] {
        guard let first = group.indices.min(by: { precedes(group[$0], group[$1]) }) else { return [] }
        return group.indices.map { $0 == first ? .counts : .superseded }
    }
}
