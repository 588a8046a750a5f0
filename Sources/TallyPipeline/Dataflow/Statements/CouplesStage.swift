import TallyCore
import TallyIngest
import TallyReports
import TallyWire

/// The statements' partition stage of a dataflow run: the rows routed to
/// one couple key become its ``CoupleRows``, computed by
/// ``StatementsFamily/compute(key:)`` (which decides what counts, orphans
/// included).
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

    /// Computes the couple key `key` from its rows.
    func run(key: [UInt8], _ records: [FlowRecord], emit: FlowEmit) throws {
        var rows = CoupleRows(key: String(decoding: key, as: UTF8.self))
        for record in records {
            switch record {
            case .coupleRow(let row):
                let source = SourceRef(file: plan.file(row.origin.file).relativePath, line: row.origin.line)
                switch row.value {
                case .couple(let r):
                    rows.couple = Couple(id: r.id, name: r.name, currency: r.currency)
                case .member(let r):
                    rows.members.append(.init(Member(id: r.id, coupleId: r.coupleId, displayName: r.displayName), source: source))
                case .card(let r):
                    rows.cards.append(.init(r.id, source: source))
                case .agreement(var r):
                    r.sourceFile = source.file
                    r.sourceLine = source.line
                    rows.agreements.append(r)
                case .settlement(let r):
                    rows.settlements.append(SettlementFact(id: r.id, coupleId: r.coupleId, fromMember: r.fromMember, toMember: r.toMember,
                                                           amount: r.amount, currency: r.currency, date: r.date, source: source))
                case .fx, .challenge, .membership, .swipeUser, .product, .connection:
                    preconditionFailure("not a couple's row: \(row.table)")
                }
            case .refusedRow(let refused):
                rows.refused.append(refused)
            case .winningExpense(let v, let origin):
                let source = SourceRef(file: plan.file(origin.file).relativePath, line: origin.line)
                let fact = v.body.map { b in
                    ExpenseFact(id: v.id, coupleId: b.coupleId, paidBy: b.paidBy, amount: b.amount, currency: b.currency,
                                date: b.date, description: b.description, tag: b.tag, agreementId: b.agreementId,
                                split: b.split, source: source)
                }
                rows.expenses.append(.init(id: v.id, source: source, fact: fact, deleted: v.deletedAt != nil, error: v.error,
                                           written: v.written))
            default:
                preconditionFailure("not a couple's row: \(record)")
            }
        }
        let computed = try statements().compute(key: rows)
        guard var result = computed.statement else {
            // Rows that belong to no statement join the family's rejects.
            emit(.merge, key, .statementsSummary(computed.unattached))
            return
        }
        result.summary.merge(computed.unattached)
        if let folder = plan.staging("statements") {
            // The couple's own files are written here, where it is computed; the merge moves them into place.
            let statement = result.rows.statement
            let labels = plan.config.categoryLabels(plan.locale)
            try CoupleStatementFiles.text(statement, rendered: StatementText.render(statement, locale: plan.locale, categories: labels),
                                          folder: folder)
                .commit()
            if plan.config.statements.coupleWorkbooks {
                try CoupleStatementFiles.workbook(statement, locale: plan.locale, categories: labels, folder: folder).commit()
            }
            result.rows.statement.itemised = nil
        }
        emit(.merge, key, .statement(result))
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
