/// Which row of a reference table counts, among the rows sharing its key
/// (couples, members, cards, fx rates, agreements, settlements, challenges,
/// memberships, swipe users, products, connections): the contract of a
/// table keyed by id that a later export replaces.
///
/// Contract:
/// - Within one file, the key's first row (lowest line, then lower `row`)
///   is kept and every later row is rejected, worded with the table's key
///   (``repeatReason(key:)``).
/// - Across files, the kept row of the latest-loaded file (`loadSeq`, then
///   the higher `file`) counts; the kept rows of the other files are
///   superseded.
/// - Except for identical rows: when the latest-loaded file's kept row has
///   the same ``Row/content`` as the kept rows of the files loaded just
///   before it, the earliest-loaded row of that unbroken run counts (a
///   month's copy of a table that repeats a row changes nothing, so the
///   row that counts stays where it is). Rows without content (check-ins,
///   subscription events) are never identical.
///
/// ```swift
/// let first = ReferenceRowRule.Row(file: 1, loadSeq: 1, line: 2, row: 1)
/// let again = ReferenceRowRule.Row(file: 1, loadSeq: 1, line: 8, row: 2)
/// ReferenceRowRule(key: "id").verdicts([first, again])
/// // [.counts, .rejected(reason: .repeated(key: "id"))]
///
/// let january = ReferenceRowRule.Row(file: 1, loadSeq: 1, line: 2, row: 1, content: 7)
/// let february = ReferenceRowRule.Row(file: 2, loadSeq: 2, line: 5, row: 2, content: 7)
/// ReferenceRowRule(key: "id").verdicts([january, february])   // [.counts, .superseded]
/// ```
public struct ReferenceRowRule: RowRule {
    /// One row of the key, by the fields the rule compares.
    public struct Row: Hashable, Sendable {
        /// Its file (rows of one file share it).
        public var file: Int64
        /// The order its file was loaded in (unique per file, growing).
        public var loadSeq: Int64
        /// Its line in its file.
        public var line: Int64
        /// The caller's name for the row, unique in the group.
        public var row: Int64
        /// Equal for rows whose stored values are equal (the caller's
        /// numbering of the group's distinct contents); nil: never
        /// identical to another row.
        public var content: Int64?

        public init(file: Int64, loadSeq: Int64, line: Int64, row: Int64, content: Int64? = nil) {
            self.file = file
            self.loadSeq = loadSeq
            self.line = line
            self.row = row
            self.content = content
        }
    }

    /// The reject reason of a repeat within one file.
    public let repeated: RejectReason

    /// The rule of a table whose key is described as `key` ("id",
    /// "productId", "rate (same date, currency and base)"), which words
    /// its repeats' rejects.
    public init(key: String) {
        repeated = Self.repeatReason(key: key)
    }

    /// The reject reason of a repeat within one file, for a table whose key
    /// is described as `key`.
    public static func repeatReason(key: String) -> RejectReason { .repeated(key: key) }

    /// The verdict of each row of `group` (rows sharing a key, in any order), in its order.
    public func verdicts(_ group: [Row]) -> [RowVerdict] {
        let reason = repeated
        return Self.verdicts(group) { _ in reason }
    }

    /// The verdicts, each repeat rejected with `repeatReason(i)` for row `i`
    /// of the group (``SubscriptionEventVersionRule`` words it by the row's file kind).
    /// Costs a pass over the group per file of the key (a key is in a few files).
    static func verdicts(_ group: [Row], repeatReason: (Int) -> RejectReason) -> [RowVerdict] {
        // Each file's first row of the key: the only one of that file not rejected.
        var kept: [Int] = []
        for i in group.indices {
            let r = group[i]
            if let k = kept.firstIndex(where: { group[$0].file == r.file }) {
                if (r.line, r.row) < (group[kept[k]].line, group[kept[k]].row) { kept[k] = i }
            } else {
                kept.append(i)
            }
        }
        kept.sort { a, b in (group[a].loadSeq, group[a].file) < (group[b].loadSeq, group[b].file) }
        // The latest-loaded file's row, or the earliest of the identical rows loaded just before it.
        var counted = kept.last
        if let latest = counted, let content = group[latest].content {
            for i in kept.reversed().dropFirst() {
                guard group[i].content == content else { break }
                counted = i
            }
        }
        return group.indices.map { i in
            if i == counted { return .counts }
            if kept.contains(i) { return .superseded }
            return .rejected(reason: repeatReason(i))
        }
    }
}
