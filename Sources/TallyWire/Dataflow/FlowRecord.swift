import TallyCore
import TallyIngest

/// Where a row was read: its file (by the plan's sequence number) and the
/// line it starts on.
///
/// ```swift
/// let origin = RowOrigin(file: 3, line: 17)   // on the wire: 3<TAB>17
/// ```
public struct RowOrigin: Hashable, Sendable {
    public var file: Int
    public var line: Int

    public init(file: Int, line: Int) {
        self.file = file
        self.line = line
    }
}

/// A row of a reference table (a table keyed by id that a later export
/// replaces), as decoded, with where it was read.
public struct ReferenceRow: Sendable {
    public enum Value: Sendable {
        case couple(CoupleRecord)
        case member(MemberRecord)
        case card(CardRecord)
        case fx(FxRecord)
        case agreement(Agreement)
        case settlement(SettlementRecord)
        case challenge(Challenge)
        case membership(GroupMembership)
        case swipeUser(SwipeUserRecord)
        case product(ProductRecord)
        case connection(ConnectionRecord)
    }

    public var table: TableID
    public var value: Value
    public var origin: RowOrigin
    /// The row's `id` field as read ("" for a table without one): what its reject names.
    public var rawId: String

    public init(table: TableID, value: Value, origin: RowOrigin, rawId: String) {
        self.table = table
        self.value = value
        self.origin = origin
        self.rawId = rawId
    }
}

/// A record on its way between the stages of a dataflow run. Each stage
/// receives the records of one key at a time and emits records keyed for
/// a later stage; which stages take a case is the pipeline's routing
/// (TallyPipeline's `FlowRecord.stages`), not part of the record.
///
/// ```swift
/// let record = FlowRecord.superseded(file: 2, rows: 5)
/// var writer = WireWriter()
/// FlowLines.append(key: Array("expenses".utf8), record, to: &writer)
/// // expenses<TAB>flow.v2<TAB>superseded<TAB>2<TAB>5
/// ```
public enum FlowRecord: Sendable {
    // MARK: decode's input
    /// Read input file `file` (its sequence number in the plan).
    case task(file: Int)
    /// The columns of a file an engine read itself (a Parquet part), keyed
    /// like its task: the names, in the file's order, that its rows' JSON
    /// objects use.
    case sourceColumns([String])
    /// One row of a file an engine read itself, keyed like its task: its
    /// index in the file (from 0) and its values as one JSON object (a null
    /// value absent), which decode reads as a line of NDJSON.
    case sourceRow(index: Int, json: [UInt8])

    // MARK: rows: one table row, keyed by its table and key
    case reference(ReferenceRow)
    case expenseVersion(ExpenseVersion, RowOrigin)
    case checkin(CheckinRecord, RowOrigin)

    // MARK: couples: the rows that counted, keyed by their couple
    /// A row of a couple's table that counted (its winning version, for an expense).
    case coupleRow(ReferenceRow)
    case winningExpense(ExpenseVersion, RowOrigin)
    /// A couple's expense or settlement that could not be decoded, as written (``RefusedRows``).
    case refusedRow(RefusedRow)

    // MARK: groups, workouts, challenges: the leaderboards' joins, keyed by group, workout, challenge
    /// A challenge that counted, keyed by its group (which brings its memberships).
    case groupChallenge(Challenge)
    /// A membership span that counted, keyed by its group.
    case groupMembership(GroupMembership)
    /// A check-in that counted, keyed by its workout (for ``DuplicateWorkoutRule``) or by its challenge.
    case countedCheckin(CheckinFact)
    /// A challenge with its group's memberships, keyed by the challenge.
    case challengeWithMembers(Challenge, [GroupMembership])

    // MARK: days, users: the activity's user days, keyed by user and day, then by user
    /// A `health/activity` row.
    case activityRow(DailyActivity, RowOrigin)
    /// A day summed from Apple Health export `file`.
    case exportDay(DailyActivity, file: Int)
    /// A user's day that counted, within the period, keyed by the user.
    case userDay(DailyActivity)

    // MARK: records: the records a records family reads, keyed by the family and its partition
    /// A winning expense version for records family `family` (``ReportFamilies/register(_:renderer:)``).
    case familyExpense(family: String, ExpenseVersion, RowOrigin)

    // MARK: merge: the partial results, reports and accounting
    /// What reading one file gave (its rows read, size, fingerprint, unknown
    /// fields), or why it was refused as a whole.
    case fileRead(FileRead)
    /// Rows of a file that lost to another row of their key.
    case superseded(file: Int, rows: Int)
    /// A row refused while reading or by its row rule (counted once per
    /// reject in its file's accounting; a report's rejects travel in its summary).
    case reject(Reject)
    /// One couple's statement: its rows and its part of the family's summary.
    case statement(PartitionResult<StatementsFamily.Rows, StatementsFamily.Summary>)
    /// A part of the statements' summary that belongs to no couple.
    case statementsSummary(StatementsFamily.Summary)
    /// One challenge's board and its part of the leaderboards' summary.
    case board(PartitionResult<LeaderboardsFamily.Rows, LeaderboardsFamily.Summary>)
    /// A part of the leaderboards' summary that belongs to no challenge.
    case leaderboardsSummary(LeaderboardsFamily.Summary)
    /// One user's activity scores and its part of the family's summary.
    case activity(PartitionResult<ActivityFamily.Rows, ActivityFamily.Summary>)
    /// One partition's result of records family `family`, as its run encodes it.
    case familyResult(family: String, [UInt8])

    // MARK: the KPIs family's records, at every stage (see KPIRecord)
    case kpis(KPIRecord)
}

/// What reading one input file gave.
public struct FileRead: Sendable {
    /// The file's sequence number in the plan.
    public var file: Int
    public var rowsRead: Int
    public var bytes: Int64
    /// The file's SHA-256, as `FileFingerprint` gives it.
    public var sha256: String
    /// Its header names or JSON keys that its table does not read (`TableReader.unknownFields`).
    public var unknownFields: [String]
    /// Why the file was refused as a whole; then nothing of it counts.
    public var refusal: String?

    public init(file: Int, rowsRead: Int, bytes: Int64, sha256: String, unknownFields: [String], refusal: String?) {
        self.file = file
        self.rowsRead = rowsRead
        self.bytes = bytes
        self.sha256 = sha256
        self.unknownFields = unknownFields
        self.refusal = refusal
    }
}

