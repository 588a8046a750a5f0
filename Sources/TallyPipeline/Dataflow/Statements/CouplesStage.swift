import TallyCore
import TallyIngest
import TallyReports

/// The statements' partition stage of a dataflow run: the rows that counted
/// for one couple id become the couple's partition (``CouplePartition``),
/// computed by ``StatementsFamily``; rows whose couple does not exist are
/// rejected by ``OrphanRule`` and ``WinningExpenseRejectRule``.
///
/// With an out folder in the plan, the couple's text file (and workbook,
/// when on) is written here into the staging folder (``FlowPlan/staging(_:)``).
///
/// The fx rates are read by every partition: each stage instance reads the
/// plan's fx files itself (``FlowBroadcast``), as a map-side join reads a
/// small table from shared storage.
final class CouplesStage {
    let plan: FlowPlan
    private var family: StatementsFamily?

    init(plan: FlowPlan) { self.plan = plan }

    /// Computes the couple `key`'s partition, or rejects its rows when the couple does not exist.
    func run(key: [UInt8], _ records: [FlowRecord], emit: FlowEmit) throws {
        let coupleId = String(decoding: key, as: UTF8.self)
        var couple: CoupleRecord?
        var members: [Member] = []
        var expenses: [ExpenseFact] = []
        var settlements: [SettlementFact] = []
        var agreements: [Agreement] = []
        var orphans: [(OrphanRule.Child, RowOrigin, String)] = []
        var orphanExpenses: [(ExpenseVersion, RowOrigin)] = []
        for record in records {
            switch record {
            case .coupleRow(let row):
                let path = plan.file(row.origin.file).relativePath
                switch row.value {
                case .couple(let r):
                    couple = r
                case .member(let r):
                    members.append(Member(id: r.id, coupleId: r.coupleId, displayName: r.displayName))
                    orphans.append((.member, row.origin, r.id))
                case .card(let r):
                    orphans.append((.card, row.origin, r.id))
                case .agreement(var r):
                    r.sourceFile = path
                    r.sourceLine = row.origin.line
                    agreements.append(r)
                    orphans.append((.agreement, row.origin, r.id))
                case .settlement(let r):
                    settlements.append(SettlementFact(id: r.id, coupleId: r.coupleId, fromMember: r.fromMember, toMember: r.toMember,
                                                      amount: r.amount, currency: r.currency, date: r.date,
                                                      source: SourceRef(file: path, line: row.origin.line)))
                    orphans.append((.settlement, row.origin, r.id))
                case .fx, .challenge, .membership, .swipeUser, .product, .connection:
                    preconditionFailure("not a couple's row: \(row.table)")
                }
            case .winningExpense(let v, let origin):
                guard let b = v.body else { preconditionFailure("a winning expense without a body") }
                expenses.append(ExpenseFact(id: v.id, coupleId: b.coupleId, paidBy: b.paidBy, amount: b.amount, currency: b.currency,
                                            date: b.date, description: b.description, tag: b.tag, agreementId: b.agreementId,
                                            split: b.split, source: SourceRef(file: plan.file(origin.file).relativePath, line: origin.line)))
                orphanExpenses.append((v, origin))
            default:
                preconditionFailure("not a couple's row: \(record)")
            }
        }
        guard let couple else {
            // Rows whose couple does not exist belong to no partition: they join the family's rejects.
            var summary = StatementsFamily.Summary()
            for (child, origin, id) in orphans {
                if let reason = OrphanRule.reject(child, parentId: coupleId, parentExists: false) {
                    summary.rejects.append(reject(origin, id: id, reason: reason))
                }
            }
            for (v, origin) in orphanExpenses {
                if let reason = WinningExpenseRejectRule.reject(error: v.error, deleted: v.deletedAt != nil,
                                                                coupleId: coupleId, coupleExists: false) {
                    summary.rejects.append(reject(origin, id: v.id, reason: reason))
                }
            }
            emit(.merge, key, .statementsSummary(summary))
            return
        }
        func byId<T>(_ rows: inout [T], _ id: (T) -> String) { rows.sort { ByteOrder.precedes(id($0), id($1)) } }
        byId(&members, \.id)
        byId(&expenses, \.id)
        byId(&settlements, \.id)
        byId(&agreements, \.id)
        let partition = CouplePartition(couple: Couple(id: couple.id, name: couple.name, currency: couple.currency),
                                        members: members, expenses: expenses, settlements: settlements, agreements: agreements)
        var result = try statements().compute(partition)
        if let folder = plan.staging("statements") {
            // The couple's own files are written here, where it is computed; the merge moves them into place.
            let statement = result.rows.statement
            try CoupleStatementFiles.text(statement, rendered: StatementText.render(statement, locale: plan.locale), folder: folder)
                .commit()
            if plan.config.statements.coupleWorkbooks {
                try CoupleStatementFiles.workbook(statement, locale: plan.locale, folder: folder).commit()
            }
            result.rows.statement.itemised = nil
        }
        emit(.merge, key, .statement(result))
    }

    private func reject(_ origin: RowOrigin, id: String, reason: String) -> Reject {
        let file = plan.file(origin.file)
        return Reject(dataset: file.dataset, file: file.relativePath, line: origin.line, id: id, reason: reason)
    }

    /// The statements family of the plan, with the fx rates read once per stage instance.
    func statements() throws -> StatementsFamily {
        if let family { return family }
        let made = StatementsFamily(settings: .init(
            period: plan.period, fx: FxTable(try FlowBroadcast.fxRates(plan)), trendMonths: plan.config.statements.trendMonths,
            exactTransferLimit: plan.config.statements.exactTransferLimit, itemised: true))
        family = made
        return made
    }
}

/// Small tables every partition of a stage reads whole, read by each stage
/// instance from the plan's files with the same decoding and row rule as
/// the rows stage applies.
enum FlowBroadcast {
    /// The fx rates that count (``ReferenceRowRule`` per currency, base and date).
    static func fxRates(_ plan: FlowPlan) throws -> [FxRate] {
        try countedRows(plan, of: .fx).compactMap { row in
            guard case .fx(let r) = row.value else { return nil }
            return r.rate
        }
    }

    /// The rows of reference table `table` that count: its files (those not
    /// refused) decoded and each key's rows judged by ``ReferenceRowRule``,
    /// as the `rows` stage does.
    static func countedRows(_ plan: FlowPlan, of table: TableID) throws -> [ReferenceRow] {
        var groups: [[UInt8]: [ReferenceRow]] = [:]
        for seq in plan.files(of: table) {
            var rows: [([UInt8], ReferenceRow)] = []
            let read = try DecodeStage.read(plan.file(seq), seq: seq, table: table) { _, key, record in
                if case .reference(let row) = record { rows.append((key, row)) }
            }
            guard read.refusal == nil else { continue }
            for (key, row) in rows { groups[key, default: []].append(row) }
        }
        var counted: [ReferenceRow] = []
        for rows in groups.values {
            let verdicts = ReferenceRowRule.verdicts(rows.enumerated().map { i, r in r.origin.ruleRow(i) },
                                                     key: FlowTables.keyDescription(table))
            for (row, verdict) in zip(rows, verdicts) where verdict == .counts { counted.append(row) }
        }
        return counted
    }
}
