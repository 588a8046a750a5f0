/// Which version of an expense counts, among the versions sharing its id
/// (`expenses/expenses.csv` is a log of versions; the statements read the
/// version that counts).
///
/// Contract: the version with the latest `updatedAt` counts; a tie goes to
/// the later load (`loadSeq`), then the later line, then the lower `row`.
/// Every other version is superseded. Nothing is rejected.
///
/// ```swift
/// let a = ExpenseVersionRule.Version(updatedAt: Timestamp(seconds: 10), loadSeq: 1, line: 2, row: 1)
/// let b = ExpenseVersionRule.Version(updatedAt: Timestamp(seconds: 10), loadSeq: 2, line: 5, row: 2)
/// ExpenseVersionRule().verdicts([a, b])   // [.superseded, .counts]: same instant, later load
/// ```
public struct ExpenseVersionRule: RowRule {
    /// One version of the id, by the fields the rule compares.
    public struct Version: Hashable, Sendable {
        public var updatedAt: Timestamp
        /// The order its file was loaded in (unique per file, growing).
        public var loadSeq: Int64
        /// Its line in its file.
        public var line: Int64
        /// The caller's name for the row, unique in the group (a rowid).
        public var row: Int64

        public init(updatedAt: Timestamp, loadSeq: Int64, line: Int64, row: Int64) {
            self.updatedAt = updatedAt
            self.loadSeq = loadSeq
            self.line = line
            self.row = row
        }
    }

    public typealias Row = Version

    public init() {}

    /// The verdict of each version of `group` (versions sharing an id, in any order), in its order.
    public func verdicts(_ group: [Version]) -> [RowVerdict] {
        FirstByRanking.verdicts(group) { a, b in
            if a.updatedAt != b.updatedAt { return a.updatedAt > b.updatedAt }
            if a.loadSeq != b.loadSeq { return a.loadSeq > b.loadSeq }
            if a.line != b.line { return a.line > b.line }
            return a.row < b.row
        }
    }
}
