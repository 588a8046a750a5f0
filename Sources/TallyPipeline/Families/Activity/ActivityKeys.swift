import TallyCore

/// The activity family's work on one user key, whichever transport brought
/// the user's counted days of the period (a warehouse scan for `tally run`,
/// routed records for a dataflow worker): the family's computation
/// (``ActivityFamily/compute(_:)``, called here and nowhere else). A user
/// has no files of their own; the rows are written by ``ActivityOutput``.
///
/// ```swift
/// let result = ActivityKeys().compute(userId: "u1", days: days)
/// ```
struct ActivityKeys: Sendable {
    let family = ActivityFamily()

    /// Computes the user `userId` from their counted days of the period (any order).
    func compute(userId: String, days: [DailyActivity]) -> PartitionResult<ActivityFamily.Rows, ActivityFamily.Summary> {
        family.compute(.init(userId: userId, days: days))
    }
}
