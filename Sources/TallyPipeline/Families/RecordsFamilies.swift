import Foundation
import TallyCore
import TallyReports
import TallyWarehouse

/// A ``TallyCore/RecordsFamily`` and its renderer, run by the engine with
/// no code of the family's own: which partition a record goes to
/// (``key(of:)``), a partition's computation (``compute(key:records:)``,
/// the one call of the family's `compute`) and the family's files from its
/// partitions' results in any order (``write(_:outDirectory:outputs:started:)``,
/// the one call of its `finalise`), whichever transport brought the records.
struct RecordsFamilyRun<Renderer: RecordsFamilyCSV>: Sendable {
    typealias Family = Renderer.Family
    typealias Result = PartitionResult<Family.Rows, Family.Summary>
    let family: Family
    let renderer: Renderer

    /// The partition `record` goes to; nil when it is of another kind or counts in none.
    func key(of record: SuppliedRecord) -> PartitionKey? {
        Family.Record(record).flatMap(family.partitionKey)
    }

    /// One partition's result: the records of key `key` (any order).
    func compute(key: PartitionKey, records: [SuppliedRecord]) -> Result {
        family.compute(RecordGroup(key: key, records: records.compactMap(Family.Record.init)))
    }

    /// Writes the family's CSV from `results` (any order: written in key
    /// order, summaries merged), hands it to `outputs` and returns the
    /// family's outcome.
    func write(_ results: [Result], outDirectory: URL, outputs: OutputSet, started: Date) throws -> ReportOutcome {
        let csv = try renderer.layout.writer(in: outDirectory.appendingPathComponent(renderer.folder, isDirectory: true))
        var summary = family.emptySummary()
        for result in results.sorted(by: { $0.key < $1.key }) {
            for row in renderer.rows(result.rows) { try csv.writeRow(row) }
            summary.merge(result.summary)
        }
        try outputs.add(csv)
        let report = family.finalise(summary)
        return ReportOutcome(name: family.name, outputs: [.init(path: renderer.folder + "/" + renderer.layout.name, rows: csv.rowCount)],
                             summary: renderer.summary(report), rows: results.count, seconds: Date().timeIntervalSince(started))
    }

    /// A result as the dataflow sends it to the merge: one JSON document.
    func encode(_ result: Result) throws -> [UInt8] {
        Array(try JSONEncoder().encode(Line(key: result.key.bytes, rows: result.rows, summary: result.summary)))
    }

    /// A result sent by ``encode(_:)``.
    func decode(_ bytes: [UInt8]) throws -> Result {
        let line = try JSONDecoder().decode(Line.self, from: Data(bytes))
        return Result(key: PartitionKey(bytes: line.key), rows: line.rows, summary: line.summary)
    }

    private struct Line: Codable {
        var key: [UInt8]
        var rows: Family.Rows
        var summary: Family.Summary
    }
}

/// The warehouse transport of a records family for `tally run`: the records
/// of its kind in one scan, grouped by the family's key, each group computed
/// on every core, the results written by the family's run. The groups are
/// held in memory until the scan ends (the records that count, not the
/// rest), since the scan's order is not the family's key order.
struct RecordsFamilyStage<Renderer: RecordsFamilyCSV>: ReportStage {
    let run: RecordsFamilyRun<Renderer>
    var name: String { run.family.name }
    var datasets: Set<String> { [Renderer.Family.Record.kind.dataset] }
    var derivedTables: Set<DerivedTable> { [WarehouseReader.derivedTable(for: Renderer.Family.Record.kind)] }

    func run(_ context: ReportContext) throws -> ReportOutcome {
        let started = Date()
        let run = self.run
        var groups: [PartitionKey: [SuppliedRecord]] = [:]
        try context.reads.read { reader in
            try reader.forEachRecord(Renderer.Family.Record.kind) { record in
                if let key = run.key(of: record) { groups[key, default: []].append(record) }
            }
        }
        var results: [RecordsFamilyRun<Renderer>.Result] = []
        let batches = PartitionBatches<(PartitionKey, [SuppliedRecord]), RecordsFamilyRun<Renderer>.Result>(
            rows: { $0.1.count }, compute: { run.compute(key: $0.0, records: $0.1) }, consume: { results.append($0) })
        for key in groups.keys.sorted() { try batches.add((key, groups.removeValue(forKey: key)!)) }
        try batches.flush()
        return try run.write(results, outDirectory: context.outDirectory, outputs: context.outputs, started: started)
    }
}

/// A records family as the registry and the dataflow hold it, whatever its types.
struct AnyRecordsFamily: Sendable {
    let name: String
    let kind: RecordKind
    /// Its `tally run` stage.
    let stage: any ReportStage
    let key: @Sendable (SuppliedRecord) -> PartitionKey?
    /// Computes one partition and encodes its result for the merge.
    let computeLine: @Sendable (PartitionKey, [SuppliedRecord]) throws -> [UInt8]
    /// Writes the family from the encoded results of its partitions.
    let writeLines: @Sendable ([[UInt8]], URL, OutputSet) throws -> ReportOutcome

    init<Renderer: RecordsFamilyCSV>(_ run: RecordsFamilyRun<Renderer>) {
        name = run.family.name
        kind = Renderer.Family.Record.kind
        stage = RecordsFamilyStage(run: run)
        key = { run.key(of: $0) }
        computeLine = { try run.encode(run.compute(key: $0, records: $1)) }
        writeLines = { lines, out, outputs in
            let started = Date()
            return try run.write(try lines.map(run.decode), outDirectory: out, outputs: outputs, started: started)
        }
    }
}

extension RecordKind {
    /// The dataset records of this kind come from.
    var dataset: String {
        switch self {
        case .winningExpense: "expenses"
        }
    }
}
