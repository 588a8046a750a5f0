/// Every row loaded under one couple key, as read: the couple's own row
/// (nil when no `couples` row has the key), its members, cards, agreements
/// and settlements, and the winning version of each of its expenses, live,
/// deleted or failed. Whatever feeds the statements (the warehouse's scans
/// in key order, the dataflow's sorted lines) hands each key's rows here,
/// and ``StatementsFamily/partition(_:)`` decides what counts: one place
/// applies ``WinningExpenseRejectRule`` and ``OrphanRule``, and keeps the
/// couple's rows that could not be read, as written (``RefusedRow``: its
/// winning versions that failed validation, its expenses and settlements
/// that could not be decoded at all), for its statement when the couple
/// exists.
///
/// ```swift
/// var rows = CoupleRows(key: "c9")
/// rows.cards = [.init("card1", source: SourceRef(file: "expenses/cards.csv", line: 4))]
/// StatementsFamily.partition(rows).rejects.map(\.reason)   // ["card of unknown couple 'c9'"]
/// ```
public struct CoupleRows: Sendable {
    /// A row's value (a member, a card's id) and where it was read.
    public struct Sourced<Value: Sendable & Hashable>: Sendable, Hashable {
        public var value: Value
        public var source: SourceRef

        public init(_ value: Value, source: SourceRef) {
            self.value = value
            self.source = source
        }
    }

    /// The winning version of an expense id: its fact when it is live and
    /// valid, else whether it deletes the expense or why it failed.
    public struct WinningExpense: Sendable, Hashable {
        public var id: String
        public var source: SourceRef
        /// The live expense; nil for a deletion or a version that failed validation.
        public var fact: ExpenseFact?
        public var deleted: Bool
        /// Why the version failed validation at ingest, if it did.
        public var error: RejectReason?
        /// What a version that failed validation wrote (for its couple's statement).
        public var written: WrittenRow?

        public init(id: String, source: SourceRef, fact: ExpenseFact?, deleted: Bool, error: RejectReason?,
                    written: WrittenRow? = nil) {
            self.id = id
            self.source = source
            self.fact = fact
            self.deleted = deleted
            self.error = error
            self.written = written
        }
    }

    /// The couple id the rows name.
    public var key: String
    public var couple: Couple?
    public var members: [Sourced<Member>] = []
    /// The cards' ids.
    public var cards: [Sourced<String>] = []
    public var agreements: [Agreement] = []
    public var settlements: [SettlementFact] = []
    public var expenses: [WinningExpense] = []
    /// The couple's expenses and settlements that could not be decoded at all, as written.
    public var refused: [RefusedRow] = []
    /// What the statement of the month before said, when it was published
    /// from the same warehouse (a lookup of the transport, not a row).
    public var published: PublishedClosing?
    /// What the couple's expenses dated before a month add up to, when the
    /// transport kept it and holds it true (a lookup, not a row): `expenses`
    /// then holds only the winning versions dated from its month on
    /// (``LedgerOpening/isOnOrAfter(_:month:)``), every other row as always.
    public var opening: LedgerOpening?

    public init(key: String, couple: Couple? = nil) {
        self.key = key
        self.couple = couple
    }

    /// How many rows the key holds (the couple's own row included), the
    /// measure batches of keys are sized by.
    public var rowCount: Int {
        (couple == nil ? 0 : 1) + members.count + cards.count + agreements.count + settlements.count + expenses.count + refused.count
    }

    /// What a key's rows come to: the couple's partition when the couple
    /// exists, and the rejects of rows that belong to no statement (failed
    /// winning versions; every row of an unknown couple).
    public struct Assembly: Sendable {
        public var partition: CouplePartition?
        public var rejects: [Reject]
        /// Of the couple's expenses that failed validation, those an opening
        /// of the month `partition(_:carryingBefore:)` names holds: their
        /// rejects, and those without a readable month.
        public var carried: (rejects: [Reject], undated: [RefusedRow]) = ([], [])
    }
}

extension StatementsFamily {
    /// Decides what `rows` come to: a deleted winner counts nowhere, a
    /// failed one is rejected with its validation's reason, and without a
    /// couple every other row is an orphan (``WinningExpenseRejectRule``,
    /// ``OrphanRule``); with one, the live rows make its partition, each
    /// kind in id byte order.
    ///
    /// With `month`, the assembly also lists what an opening of that month
    /// holds of the failed versions (``CoupleRows/Assembly/carried``).
    public static func partition(_ rows: CoupleRows, carryingBefore month: YearMonth? = nil) -> CoupleRows.Assembly {
        let exists = rows.couple != nil
        var rejects: [Reject] = []
        func reject(_ source: SourceRef, _ id: String, _ reason: RejectReason?) {
            guard let reason else { return }
            rejects.append(Reject(dataset: "expenses", file: source.file, line: source.line, id: id, reason: reason))
        }
        var expenses: [ExpenseFact] = []
        var refused: [RefusedRow] = []
        var carried: (rejects: [Reject], undated: [RefusedRow]) = ([], [])
        for expense in rows.expenses {
            if let fact = expense.fact, expense.error == nil, !expense.deleted, exists {
                expenses.append(fact)
            } else {
                var row: RefusedRow?
                if exists, !expense.deleted, let error = expense.error, let written = expense.written {
                    row = RefusedRow(kind: .expense, id: expense.id, written: written, reason: error.code)
                    refused.append(row!)
                }
                let count = rejects.count
                reject(expense.source, expense.id, WinningExpenseRejectRule.reject(
                    error: expense.error, deleted: expense.deleted, coupleId: rows.key, coupleExists: exists))
                if exists, let month, !LedgerOpening.isOnOrAfter(expense.written?.date, month: month) {
                    carried.rejects += rejects[count...]
                    if let row, row.month == nil { carried.undated.append(row) }
                }
            }
        }
        guard let couple = rows.couple else {
            for m in rows.members { reject(m.source, m.value.id, OrphanRule.reject(.member, parentId: rows.key, parentExists: false)) }
            for c in rows.cards { reject(c.source, c.value, OrphanRule.reject(.card, parentId: rows.key, parentExists: false)) }
            for a in rows.agreements {
                reject(SourceRef(file: a.sourceFile, line: a.sourceLine), a.id,
                       OrphanRule.reject(.agreement, parentId: rows.key, parentExists: false))
            }
            for s in rows.settlements { reject(s.source, s.id, OrphanRule.reject(.settlement, parentId: rows.key, parentExists: false)) }
            return CoupleRows.Assembly(partition: nil, rejects: rejects)
        }
        // Scans hand rows over by id already: those are kept as they are, without a sorted copy.
        func byId<T>(_ values: [T], _ id: (T) -> String) -> [T] {
            let inOrder = values.indices.dropFirst().allSatisfy { !ByteOrder.precedes(id(values[$0]), id(values[$0 - 1])) }
            return inOrder ? values : values.sorted { ByteOrder.precedes(id($0), id($1)) }
        }
        let partition = CouplePartition(couple: couple, members: byId(rows.members.map(\.value), \.id),
                                        expenses: byId(expenses, \.id), settlements: byId(rows.settlements, \.id),
                                        agreements: byId(rows.agreements, \.id),
                                        refused: (refused + rows.refused).sorted(by: RefusedRow.precedes))
        return CoupleRows.Assembly(partition: partition, rejects: rejects, carried: carried)
    }

    /// One key's outcome: the couple's statement, when it exists, and the
    /// summary of its rows that belong to no statement.
    public struct KeyResult: Sendable {
        public var statement: PartitionResult<Rows, Summary>?
        public var unattached: Summary
        /// The opening of the month after the period (``LedgerOpening``), for
        /// the transport to keep; nil without a couple, or when a row reached
        /// a limit of ``CoupleLimits``.
        public var closing: LedgerOpening?
        /// Whether the rows came with an opening that cannot stand for the
        /// rows before it (other members, a later month, a limit reached
        /// counting from it): nothing was computed, and the key's every row is needed.
        public var needsAllRows = false
    }

    /// The family's computation of one key's rows: ``partition(_:)``, then
    /// ``compute(_:)`` of the couple's partition. Every schedule (the
    /// warehouse's scan, the dataflow's partitions, one couple's statement)
    /// computes keys through here. With ``CoupleRows/opening``, the rows
    /// before its month are those it holds.
    public func compute(key rows: CoupleRows) -> KeyResult {
        let next = settings.period.adding(months: 1)
        let assembly = Self.partition(rows, carryingBefore: next)
        var unattached = Summary()
        unattached.rejects = RejectList(assembly.rejects)
        guard var partition = assembly.partition else { return KeyResult(statement: nil, unattached: unattached) }
        let opening = rows.opening
        if let opening {
            let memberIds = partition.members.map(\.id).sorted(by: ByteOrder.precedes)
            guard opening.month <= settings.period, opening.memberIds == memberIds else {
                return KeyResult(statement: nil, unattached: Summary(), needsAllRows: true)
            }
            partition.refused = (partition.refused + opening.undated).sorted(by: RefusedRow.precedes)
            unattached.rejects.merge(RejectList(opening.rejects))
        }
        let (computed, resolution, carried) = compute(partition, from: opening)
        if opening != nil, resolution.reachedLimit || carried.reachedLimit {
            return KeyResult(statement: nil, unattached: Summary(), needsAllRows: true)
        }
        var statement = computed
        if let published = rows.published {
            statement.rows.statement.restated = RestatedOpening.of(computed.rows.statement, published: published, rows: rows)
        }
        var closing: LedgerOpening?
        if !resolution.reachedLimit, !carried.reachedLimit {
            closing = LedgerOpening(
                month: next, memberIds: statement.rows.statement.balances.map(\.memberId), balances: carried.balances,
                trend: carried.trend.filter { $0.key.adding(months: max(settings.trendMonths, 1) - 1) >= next },
                expenseTotal: carried.expenseTotal, agreementTotal: carried.agreementTotal,
                rejects: RejectList((opening?.rejects ?? []) + assembly.carried.rejects
                                    + resolution.expenseRejects(before: next.firstDay)).sorted,
                undated: ((opening?.undated ?? []) + assembly.carried.undated).sorted(by: RefusedRow.precedes))
        }
        return KeyResult(statement: statement, unattached: unattached, closing: closing)
    }
}
