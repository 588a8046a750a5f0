/// The version policy of the swipe log, whose rows carry no version of
/// their own: among the rows sharing an id, the row of the latest-loaded
/// file (`loadSeq`) counts; within that file the first line, then the lower
/// `row`. Every other row is superseded, a repeat within one file too;
/// nothing is rejected.
/// ``SwipeVersionRule`` names it for its table.
///
/// ```swift
/// let old = LatestLoadFirstLine.Row(loadSeq: 1, line: 2, row: 1)
/// let new = LatestLoadFirstLine.Row(loadSeq: 2, line: 9, row: 2)
/// LatestLoadFirstLine().verdicts([old, new])   // [.superseded, .counts]
/// ```
public struct LatestLoadFirstLine: RowRule {
    /// One row of the id, by the fields the rule compares.
    public struct Row: Hashable, Sendable {
        /// The order its file was loaded in (unique per file, growing).
        public var loadSeq: Int64
        /// Its line in its file.
        public var line: Int64
        /// The caller's name for the row, unique in the group (a rowid).
        public var row: Int64

        public init(loadSeq: Int64, line: Int64, row: Int64) {
            self.loadSeq = loadSeq
            self.line = line
            self.row = row
        }
    }

    public init() {}

    /// The verdict of each row of `group` (rows sharing an id, in any order), in its order.
    public func verdicts(_ group: [Row]) -> [RowVerdict] {
        FirstByRanking.verdicts(group) { a, b in
            if a.loadSeq != b.loadSeq { return a.loadSeq > b.loadSeq }
            if a.line != b.line { return a.line < b.line }
            return a.row < b.row
        }
    }
}
