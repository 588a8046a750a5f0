/// Which row is a user's activity of a day, when several rows claim the
/// same user and day: the day an Apple Health export gives outranks every
/// `health/activity` CSV row, then the row of the later load
/// (`load_seq`), then the later line of its file.
///
/// The rule sees one group: rows whose user id and date are the same bytes
/// (the caller groups; two ids that are equal as Swift `String`s but differ
/// in their bytes are two users). The verdict does not depend on the order
/// of the rows in the group.
///
/// ```swift
/// let csv = ActivityDayRule.Row(fromExport: false, loadSeq: 2, line: 7)
/// let export = ActivityDayRule.Row(fromExport: true, loadSeq: 1, line: 0)
/// ActivityDayRule().verdicts([csv, export])   // [.superseded, .counts]
/// ```
public struct ActivityDayRule: RowRule {
    /// What the rule needs to know of one row of a (user, day) group.
    public struct Row: Hashable, Sendable, Comparable {
        /// Whether the row is a day summed from an Apple Health export.
        public var fromExport: Bool
        /// The load order of the row's file (later loads are larger).
        public var loadSeq: Int64
        /// The row's line in its file (an export day has 0).
        public var line: Int64

        public init(fromExport: Bool, loadSeq: Int64, line: Int64) {
            self.fromExport = fromExport
            self.loadSeq = loadSeq
            self.line = line
        }

        /// Rank order: a lesser row loses to a greater one.
        public static func < (a: Row, b: Row) -> Bool {
            (a.fromExport ? 1 : 0, a.loadSeq, a.line) < (b.fromExport ? 1 : 0, b.loadSeq, b.line)
        }
    }

    public init() {}

    /// The verdict of each row of `group` (rows of the same user and day, in
    /// any order), in its order: the highest rank counts and the others are
    /// superseded. Rows of equal rank are the same row for the rule: the
    /// first of them in the group counts.
    public func verdicts(_ group: [Row]) -> [RowVerdict] {
        let counted = group.indices.min { i, j in (group[j], i) < (group[i], j) }
        return group.indices.map { $0 == counted ? .counts : .superseded }
    }
}
