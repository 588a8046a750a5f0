/// Which row of a swipe counts, among the rows sharing its id
/// (`swipes/` files can hold an id more than once).
///
/// Contract: the first line of the latest-loaded file holding the id counts
/// (latest `loadSeq`, then lowest line, then lower `row`); every other row
/// is superseded, whatever its action. Nothing is rejected.
///
/// ```swift
/// let a = SwipeVersionRule.Row(loadSeq: 3, line: 7, row: 10)
/// let b = SwipeVersionRule.Row(loadSeq: 3, line: 4, row: 11)
/// SwipeVersionRule.verdicts([a, b])   // [.superseded, .counts]: same file, earlier line
/// ```
public enum SwipeVersionRule {
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

    /// The verdict of each row of `group` (rows sharing an id, in any order), in its order.
    public static func verdicts(_ group: [Row]) -> [RowVerdict] {
        FirstByRanking.verdicts(group) { a, b in
            if a.loadSeq != b.loadSeq { return a.loadSeq > b.loadSeq }
            if a.line != b.line { return a.line < b.line }
            return a.row < b.row
        }
    }
}
