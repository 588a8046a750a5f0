import TallyCore
import TallyIngest
import TallyWire

// The dataflow's routing: which stage takes which record (the records and
// their line form are TallyWire's), the stages' order and waves.

extension FlowRecord {
    /// The stages that take this kind of record as input (a counted check-in
    /// goes to its workout, or straight to its challenge).
    var stages: Set<FlowStageName> {
        switch self {
        case .task, .sourceColumns, .sourceRow: [.decode]
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

/// The stages of a dataflow run, in order. A stage's input is every record
/// an earlier stage emitted to it; `merge` folds what is left into the reports.
enum FlowStageName: String, CaseIterable, Sendable, Comparable {
    case decode, rows, couples, groups, workouts, days, swipePairs, subscribers, records, challenges, users, swipeDays, merge

    static func < (a: FlowStageName, b: FlowStageName) -> Bool { a.ordinal < b.ordinal }

    /// The stage's position in the order of the cases (a record may go only to a later one).
    var ordinal: Int {
        switch self {
        case .decode: 0
        case .rows: 1
        case .couples: 2
        case .groups: 3
        case .workouts: 4
        case .days: 5
        case .swipePairs: 6
        case .subscribers: 7
        case .records: 8
        case .challenges: 9
        case .users: 10
        case .swipeDays: 11
        case .merge: 12
        }
    }

    /// The stage's wave: every stage that sends it records is in an earlier
    /// wave, so the stages of one wave can run together, in one pass of an
    /// engine (`tally worker couples,groups,…`): four passes instead of twelve.
    var wave: Int {
        switch self {
        case .decode: 0
        case .rows: 1
        case .couples, .groups, .workouts, .days, .swipePairs, .subscribers, .records: 2
        case .challenges, .users, .swipeDays: 3
        case .merge: 4
        }
    }

    /// The one table whose keys are this stage's every input, through the
    /// rows stage and the stages after it (the swipes' pairs and days, the
    /// workouts' check-ins, the subscribers' events with the App Store
    /// reports', the records families' expenses, the activity's user days
    /// with the Apple Health exports'); nil for a stage that takes several
    /// tables' rows. When that table is one file, the decode worker of its
    /// group runs the stage itself (``FlowPlan/stagesInGroup(of:)``).
    var onlyTable: TableID? {
        switch self {
        case .swipePairs, .swipeDays: .swipes
        case .workouts: .checkins
        case .subscribers: .events
        case .records: .expenses
        case .days, .users: .activity
        case .decode, .rows, .couples, .groups, .challenges, .merge: nil
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

extension KPIRecord {
    /// The stages that take this kind of record as input.
    var stages: Set<FlowStageName> {
        switch self {
        case .swipe, .event: [.rows]
        case .pairSwipe: [.swipePairs]
        case .daySwipe, .match: [.swipeDays]
        case .subscriberEvent: [.subscribers]
        case .appStoreCount, .connection, .partial: [.merge]
        }
    }
}

extension RowOrigin {
    /// The row as ``ReferenceRowRule`` compares it: its file is its load order
    /// (the plan's sequence number), `row` its place in its key group.
    func ruleRow(_ row: Int) -> ReferenceRowRule.Row {
        ReferenceRowRule.Row(file: Int64(file), loadSeq: Int64(file), line: Int64(line), row: Int64(row))
    }
}

extension FlowLines {
    /// Appends one output line: the stage the record goes to, then its input line.
    static func append(stage: FlowStageName, key: [UInt8], _ record: FlowRecord, to writer: inout WireWriter) {
        append(destination: stage.rawValue, key: key, record, to: &writer)
    }
}
