/// Which row of a subscription event counts, among the rows sharing its id
/// (rows of `subscriptions/events` and of App Store Connect Subscriber
/// reports), by the rules an upsert keyed by the id would apply.
///
/// Contract:
/// - Within one file, the id's first row (lowest line, then lower `row`)
///   is kept and every later row is rejected: a repeat within a file is an
///   error of that file, worded by its ``Source``.
/// - Across files, the kept row of the latest-loaded file (`loadSeq`, then
///   the higher `file`) counts; the kept rows of the other files are
///   superseded.
///
/// ```swift
/// let first = SubscriptionEventVersionRule.Row(file: 1, loadSeq: 1, line: 2, row: 1, source: .eventLog)
/// let again = SubscriptionEventVersionRule.Row(file: 1, loadSeq: 1, line: 8, row: 2, source: .eventLog)
/// let later = SubscriptionEventVersionRule.Row(file: 2, loadSeq: 2, line: 5, row: 3, source: .eventLog)
/// SubscriptionEventVersionRule().verdicts([first, again, later])
/// // [.superseded, .rejected(reason: .repeated(key: "id")), .counts]
/// ```
public struct SubscriptionEventVersionRule: RowRule {
    /// The kind of file a row comes from, which words its repeats' rejects.
    public enum Source: Hashable, Sendable {
        /// `subscriptions/events`: rows carry their own event id.
        case eventLog
        /// An App Store Connect Subscriber report: a row's id is made from
        /// its fields, so a repeated id is a repeated row.
        case subscriberReport

        /// The reject reason of a repeat within one file.
        public var repeatReason: RejectReason {
            switch self {
            case .eventLog: ReferenceRowRule.repeatReason(key: "id")
            case .subscriberReport: RejectReason(code: .idRepeated, text: "duplicate row in this file")
            }
        }

        /// Whether a reject names the row by its user rather than by its
        /// event id (a Subscriber report's ids are made up, its users are not).
        public var rejectNamesUser: Bool { self == .subscriberReport }
    }

    /// One row of the id, by the fields the rule compares.
    public struct Row: Hashable, Sendable {
        /// Its file (rows of one file share it).
        public var file: Int64
        /// The order its file was loaded in (unique per file, growing).
        public var loadSeq: Int64
        /// Its line in its file.
        public var line: Int64
        /// The caller's name for the row, unique in the group (a rowid).
        public var row: Int64
        public var source: Source

        public init(file: Int64, loadSeq: Int64, line: Int64, row: Int64, source: Source) {
            self.file = file
            self.loadSeq = loadSeq
            self.line = line
            self.row = row
            self.source = source
        }
    }

    public init() {}

    /// The verdict of each row of `group` (rows sharing an id, in any order), in
    /// its order: ``ReferenceRowRule``'s, a repeat worded by its file's kind.
    public func verdicts(_ group: [Row]) -> [RowVerdict] {
        ReferenceRowRule.verdicts(group.map { ReferenceRowRule.Row(file: $0.file, loadSeq: $0.loadSeq, line: $0.line, row: $0.row) }) {
            group[$0].source.repeatReason
        }
    }
}
