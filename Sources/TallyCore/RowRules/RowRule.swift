/// A rule that decides which rows of one key group count (the rows that
/// share a key, such as an expense id): one ``RowVerdict`` per row.
///
/// A rule is pure and sees only the group. Exactly one row of a non-empty
/// group counts; the others are superseded or rejected. The verdicts do
/// not depend on the order the group is given in, and the only row of a
/// one-row group counts.
///
/// Rules are applied in one place, ``WhichRowsCount/sort(_:by:describe:)``,
/// which every transport (the warehouse's derivations and upserts, the
/// dataflow's stages) calls with its own rows.
///
/// ```swift
/// ExpenseVersionRule().verdicts([old, new])   // [.superseded, .counts]
/// ```
public protocol RowRule: Sendable {
    /// What the rule needs to know of one row of a group.
    associatedtype Row

    /// The verdict of each row of `group` (rows sharing a key, in any order), in its order.
    func verdicts(_ group: [Row]) -> [RowVerdict]
}
