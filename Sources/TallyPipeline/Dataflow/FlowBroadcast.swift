import TallyCore
import TallyIngest
import TallyWire

/// Small tables every partition of a stage reads whole, read by each stage
/// instance from the plan's files with the same decoding and row rule as
/// the rows stage applies.
enum FlowBroadcast {
    /// The tables read whole: an engine that reads one of them as Parquet
    /// puts its lines in the plan it ships (``DataflowProcesses/Plan/sourceLines``).
    static let tables: Set<TableID> = [.fx, .products]

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
            let keep: FlowEmit = { _, key, record in
                if case .reference(let row) = record { rows.append((key, row)) }
            }
            let file = plan.file(seq)
            let read: FileRead
            if file.isParquet {
                guard let lines = plan.sourceLines[file.relativePath] else {
                    throw DataflowError("\(file.relativePath) is Parquet, and stages read \(table.qualifiedName) whole: the engine puts its lines in the plan's sourceLines, and this plan has none for it")
                }
                read = try DecodeStage(plan: plan).read(file: seq, sourceLines: lines, emit: keep)
            } else {
                read = try DecodeStage.read(file, seq: seq, table: table, emit: keep)
            }
            guard read.refusal == nil else { continue }
            for (key, row) in rows { groups[key, default: []].append(row) }
        }
        var counted: [ReferenceRow] = []
        for rows in groups.values { counted += RowsStage.judged(rows).counted }
        return counted
    }
}
