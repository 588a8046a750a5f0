import TallyCore
import TallyIngest

/// Where a row was read: its file (by the plan's sequence number) and the
/// line it starts on.
struct RowOrigin: Hashable, Sendable {
    var file: Int
    var line: Int
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

    // MARK: couples: the rows that counted, keyed by their couple
    /// A row of a couple's table that counted (its winning version, for an expense).
    case coupleRow(ReferenceRow)
    case winningExpense(ExpenseVersion, RowOrigin)

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

    // MARK: the KPIs family's records, at every stage (see KPIRecord)
    case kpis(KPIRecord)
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
    case decode, rows, couples, swipePairs, swipeDays, subscribers, merge

    static func < (a: FlowStageName, b: FlowStageName) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Where a stage sends a record: a later stage, and the key that routes it there.
typealias FlowEmit = (_ stage: FlowStageName, _ key: [UInt8], _ record: FlowRecord) -> Void
