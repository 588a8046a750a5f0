import TallyCore
import TallyIngest
import TallyWire

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
        for rows in groups.values { counted += RowsStage.judged(rows).counted }
        return counted
    }
}
