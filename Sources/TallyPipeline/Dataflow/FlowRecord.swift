import TallyCore
import TallyIngest

/// Where a row was read: its file (by the plan's sequence number) and the
/// line it starts on.
struct RowOrigin: Hashable, Sendable {
    var file: Int
    var line: Int

    /// The row as ``ReferenceRowRule`` compares it: its file is its load order
    /// (the plan's sequence number), `row` its place in its key group.
    func ruleRow(_ row: Int) -> ReferenceRowRule.Row {
        ReferenceRowRule.Row(file: Int64(file), loadSeq: Int64(file), line: Int64(line), row: Int64(row))
    }
}

/// A row of a reference table (a table keyed by id that a later export
/// replaces), as decoded, with where it was read.
struct ReferenceRow: Sendable {
    enum Value: Sendable {
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

    var table: TableID
    var value: Value
    var origin: RowOrigin
    /// The row's `id` field as read ("" for a table without one): what its reject names.
    var rawId: String
}

/// A record on its way between the stages of a dataflow run. Each stage
/// receives the records of one key at a time and emits records keyed for
/// a later stage (``FlowEmit``).
enum FlowRecord: Sendable {
    // MARK: decode's input
    /// Read input file `file` (its sequence number in the plan).
    case task(file: Int)

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

extension FlowRecord {
    /// The stages that take this kind of record as input (a counted check-in
    /// goes to its workout, or straight to its challenge).
    var stages: Set<FlowStageName> {
        switch self {
        case .task: [.decode]
        case .reference, .expenseVersion, .checkin: [.rows]
        case .coupleRow, .winningExpense, .refusedRow: [.couples]
        case .groupChallenge, .groupMembership: [.groups]
        case .countedCheckin: [.workouts, .challenges]
        case .challengeWithMembers: [.challenges]
        case .activityRow, .exportDay: [.days]
        case .userDay: [.users]
        case .familyExpense: [.records]
        case .fileRead, .superseded, .reject, .statement, .statementsSummary, .board, .leaderboardsSummary, .activity, .familyResult: [.merge]
        case .kpis(let record): record.stages
        }
    }
}

/// What reading one input file gave.
struct FileRead: Sendable {
    var file: Int
    var rowsRead: Int
    var bytes: Int64
    var sha256: String
    var unknownFields: [String]
    /// Why the file was refused as a whole; then nothing of it counts.
    var refusal: String?
}

/// The stages of a dataflow run, in order. A stage's input is every record
/// an earlier stage emitted to it; `merge` folds what is left into the reports.
enum FlowStageName: String, CaseIterable, Sendable, Comparable {
    case decode, rows, couples, groups, workouts, days, swipePairs, subscribers, records, challenges, users, swipeDays, merge

    static func < (a: FlowStageName, b: FlowStageName) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// The stage's wave: every stage that sends it records is in an earlier
    /// wave, so the stages of one wave can run together, in one pass of an
    /// engine (`tally worker couples,groups,…`): four passes instead of eleven.
    var wave: Int {
        switch self {
        case .decode: 0
        case .rows: 1
        case .couples, .groups, .workouts, .days, .swipePairs, .subscribers, .records: 2
        case .challenges, .users, .swipeDays: 3
        case .merge: 4
        }
    }

    /// The stages a worker runs, by wave.
    static var waves: [[FlowStageName]] {
        let stages = allCases.filter { $0 != .merge }
        return Dictionary(grouping: stages, by: \.wave).sorted { $0.key < $1.key }.map(\.value)
    }
}

/// Where a stage sends a record: a later stage, and the key that routes it there.
typealias FlowEmit = (_ stage: FlowStageName, _ key: [UInt8], _ record: FlowRecord) -> Void
