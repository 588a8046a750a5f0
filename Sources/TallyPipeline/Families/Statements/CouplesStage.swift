import TallyCore
import TallyIngest
import TallyWire
import TallyReports

/// The statements' partition stage of a dataflow run: the records routed to
/// one couple key become its ``CoupleRows`` (the rows as read, as the
/// warehouse's scan gives them), computed by ``StatementsKeys`` like every
/// couple of every transport. The couple's text file (and workbook, when
/// on) is written here, into the staging folder (``FlowPlan/staging(_:)``).
///
/// The fx rates are read by every partition: each stage instance reads the
/// plan's fx files itself (``FlowBroadcast``), as a map-side join reads a
/// small table from shared storage.
final class CouplesStage {
    let plan: FlowPlan
    private var keys: StatementsKeys?

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
                rows.expenses.append(plan.winningExpense(v, origin))
            default:
                preconditionFailure("not a couple's row: \(record)")
            }
        }
        let keys = try statementsKeys()
        // The couple's own files are written here, where it is computed, into the staging folder the merge moves them from.
        let outcome = try keys.compute(rows, folder: try plan.staging("statements").path)
        guard let result = outcome.result else {
            emit(.merge, key, .statementsSummary(outcome.unattached))
            return
        }
        try outcome.text?.value.commit()
        try outcome.workbook?.value.commit()
        emit(.merge, key, .statement(result))
    }

    /// The statements of the plan, with the fx rates read once per stage instance.
    func statementsKeys() throws -> StatementsKeys {
        if let keys { return keys }
        let made = StatementsKeys(config: plan.config, locale: plan.locale, period: plan.period, fx: try FlowBroadcast.fxRates(plan))
        keys = made
        return made
    }
}
