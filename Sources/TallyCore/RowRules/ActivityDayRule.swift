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
/// ActivityDayRule.judge([csv, export])   // counted: export, superseded: [csv]
/// ```
public enum ActivityDayRule {
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

    /// The rule's decision for one group.
    public struct Verdict<Item> {
        /// The row that counts.
        public var counted: Item
        /// The rows that lose to it, from the highest rank down.
        public var superseded: [Item]
    }

    /// Judges one non-empty group of rows of the same user and day.
    public static func judge(_ group: [Row]) -> Verdict<Row> {
        judge(group, rank: { $0 })
    }

    /// Judges one non-empty group of items (rows with whatever the caller
    /// keeps with them: a rowid, a file), each ranked by `rank`. Items of
    /// equal rank are the same row for the rule: the first of them in the
    /// group counts and the others are superseded.
    public static func judge<Item>(_ group: [Item], rank: (Item) -> Row) -> Verdict<Item> {
        precondition(!group.isEmpty, "a group has at least one row")
        let ranked = group.indices.sorted { (rank(group[$1]), $0) < (rank(group[$0]), $1) }
        return Verdict(counted: group[ranked[0]], superseded: ranked.dropFirst().map { group[$0] })
    }
}
