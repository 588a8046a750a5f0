import TallyCore
import TallyIngest
import TallyWire

/// The second stage of a dataflow run: the rows of one key (a table and
/// its key) are judged by the table's row rule (``WhichRowsCount``), and
/// the outcomes routed: a row that counts goes on to its partition, a
/// superseded row is counted against its file, a rejected one becomes a
/// reject of its file.
struct RowsStage {
    let plan: FlowPlan
    /// The records families that read winning expenses.
    private let expenseReaders: [AnyRecordsFamily]
    /// The KPI tables' part, made once: the stage runs once per key.
    private let kpiRows: KPIRowsStage

    init(plan: FlowPlan) {
        self.plan = plan
        expenseReaders = plan.families.records.filter { $0.kind == .winningExpense }
        kpiRows = KPIRowsStage(plan: plan)
    }

    /// Judges the rows of one key (all of one table).
    func run(_ records: [FlowRecord], emit: FlowEmit) {
        guard let first = records.first else { return }
        switch first {
        case .reference:
            let rows = records.map { record -> ReferenceRow in
                guard case .reference(let row) = record else { preconditionFailure("a key of mixed kinds") }
                return row
            }
            reference(rows, emit: emit)
        case .checkin:
            checkins(records.map { record -> (CheckinRecord, RowOrigin) in
                guard case .checkin(let r, let origin) = record else { preconditionFailure("a key of mixed kinds") }
                return (r, origin)
            }, emit: emit)
        case .expenseVersion:
            let versions = records.map { record -> (ExpenseVersion, RowOrigin) in
                guard case .expenseVersion(let v, let origin) = record else { preconditionFailure("a key of mixed kinds") }
                return (v, origin)
            }
            expenses(versions, emit: emit)
        case .kpis:
            kpiRows.run(records, emit: emit)
        default:
            preconditionFailure("not a row: \(first)")
        }
    }

    /// A reference table's key: ``ReferenceRowRule``.
    private func reference(_ rows: [ReferenceRow], emit: FlowEmit) {
        let outcomes = Self.judged(rows)
        for row in outcomes.counted {
            if let (stage, key, record) = Self.route(row) { emit(stage, key, record) }
        }
        for row in outcomes.superseded { plan.emitSuperseded(row.origin, emit) }
        for (row, reason) in outcomes.rejected { plan.emitReject(row.origin, id: row.rawId, reason: reason, emit) }
    }

    /// The rows of one key of a reference table (one table) sorted by
    /// ``ReferenceRowRule``: how the stage and the small tables every
    /// partition reads whole (``FlowBroadcast``) judge them.
    /// Rows are identical when the values their table stores are (``TallyIngest/ReferenceColumns``),
    /// as the warehouse compares them.
    static func judged(_ rows: [ReferenceRow]) -> RowOutcomes<ReferenceRow> {
        let rule = ReferenceRowRule(key: rows.first.map { FlowTables.keyDescription($0.table) } ?? "")
        let contents = rows.count > 1 ? rows.map(\.value.storedValues) : []
        return WhichRowsCount.sort(rows, by: rule) { i, r in
            var row = r.origin.ruleRow(i)
            row.content = contents.firstIndex(of: contents[i]).map(Int64.init)
            return row
        }
    }

    /// Where a counted reference row goes: a couple's row to its couple, a
    /// challenge and a membership to their group, a partner connection to
    /// the merge; nil for a table every partition reads whole (fx and
    /// products, read by ``FlowBroadcast``) and for swipe users, which count
    /// for their file's accounting only.
    static func route(_ row: ReferenceRow) -> (FlowStageName, [UInt8], FlowRecord)? {
        func couple(_ id: String) -> (FlowStageName, [UInt8], FlowRecord) { (.couples, FlowKeys.entity(id), .coupleRow(row)) }
        switch row.value {
        case .couple(let r): return couple(r.id)
        case .member(let r): return couple(r.coupleId)
        case .card(let r): return couple(r.coupleId)
        case .agreement(let r): return couple(r.coupleId)
        case .settlement(let r): return couple(r.coupleId)
        case .fx: return nil
        case .challenge(let c): return (.groups, FlowKeys.entity(c.groupId), .groupChallenge(c))
        case .membership(let m): return (.groups, FlowKeys.entity(m.groupId), .groupMembership(m))
        case .connection(let c): return (.merge, KPIKeys.merge, .kpis(.connection(c.connection)))
        case .swipeUser, .product: return nil
        }
    }

    /// The rows of one check-in id: the first row of each file counts there
    /// and a repeat within a file is rejected; across files the latest load
    /// counts (``ReferenceRowRule``). A counted check-in goes to its workout,
    /// whose repeats ``DuplicateWorkoutRule`` marks, or straight to its challenge.
    private func checkins(_ rows: [(CheckinRecord, RowOrigin)], emit: FlowEmit) {
        let outcomes = WhichRowsCount.sort(rows, by: CheckinVersionRule(key: FlowTables.keyDescription(.checkins))) { i, r in
            r.1.ruleRow(i)
        }
        for (r, origin) in outcomes.counted {
            let fact = CheckinFact(id: r.id, groupId: r.groupId, challengeId: r.challengeId, userId: r.userId,
                                   displayName: r.displayName, photoURL: r.checkInPhotoURL, workoutEntryId: r.workoutEntryId,
                                   minutes: r.minutes, createdAt: r.createdAt, duplicateOf: nil,
                                   source: SourceRef(file: plan.file(origin.file).relativePath, line: origin.line))
            if let workout = r.workoutEntryId {
                emit(.workouts, FlowKeys.entity(workout), .countedCheckin(fact))
            } else {
                emit(.challenges, FlowKeys.entity(r.challengeId), .countedCheckin(fact))
            }
        }
        for (_, origin) in outcomes.superseded { plan.emitSuperseded(origin, emit) }
        for ((r, origin), reason) in outcomes.rejected { plan.emitReject(origin, id: r.id, reason: reason, emit) }
    }

    /// The versions of one expense id: ``ExpenseVersionRule``. The winner
    /// goes to its couple's key, live, deleted or failed (a failed version
    /// goes to the couple it wrote, if any; a deletion and a failed version
    /// naming no couple go to the key `""`, as the warehouse lists them), where
    /// ``StatementsFamily/partition(_:)`` decides what it comes to.
    private func expenses(_ versions: [(ExpenseVersion, RowOrigin)], emit: FlowEmit) {
        let outcomes = WhichRowsCount.sort(versions, by: ExpenseVersionRule()) { i, v in
            ExpenseVersionRule.Version(updatedAt: v.0.updatedAt, loadSeq: Int64(v.1.file), line: Int64(v.1.line), row: Int64(i))
        }
        precondition(outcomes.rejected.isEmpty, "ExpenseVersionRule rejects nothing")
        for (version, origin) in outcomes.counted {
            emit(.couples, FlowKeys.entity(version.body?.coupleId ?? version.written?.coupleId ?? ""),
                 .winningExpense(version, origin))
            // And to each records family reading expenses, under the partition it names.
            let supplied = expenseReaders.isEmpty ? nil : SuppliedRecord.winningExpense(plan.winningExpense(version, origin))
            for family in expenseReaders {
                if let supplied, let key = family.key(supplied) {
                    emit(.records, FlowKeys.family(family.name, key), .familyExpense(family: family.name, version, origin))
                }
            }
        }
        for (_, origin) in outcomes.superseded { plan.emitSuperseded(origin, emit) }
    }
}

extension ReferenceRow.Value {
    /// The values the row's keyed table stores, in its column order.
    var storedValues: [StoredValue] {
        switch self {
        case .couple(let r): ReferenceColumns.values(r)
        case .member(let r): ReferenceColumns.values(r)
        case .card(let r): ReferenceColumns.values(r)
        case .fx(let r): ReferenceColumns.values(r)
        case .agreement(let r): ReferenceColumns.values(r)
        case .settlement(let r): ReferenceColumns.values(r)
        case .challenge(let r): ReferenceColumns.values(r)
        case .membership(let r): ReferenceColumns.values(r)
        case .swipeUser(let r): ReferenceColumns.values(r)
        case .product(let r): ReferenceColumns.values(r)
        case .connection(let r): ReferenceColumns.values(r)
        }
    }
}
