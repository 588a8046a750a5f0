import Foundation
import TallyCore
import TallyWire

/// Runs a dataflow in this process the way a cluster engine would, to show
/// that its result does not depend on the schedule: each stage's records
/// are routed by a hash of their key into `partitions` partitions; the
/// partitions run in a shuffled order, each with stage instances of its
/// own (as a worker process would), its keys in the byte order of their
/// lines (``FlowLines/keyFieldPrecedes(_:_:)``) and the records of each key
/// in a shuffled order; what reaches the merge comes shuffled too.
///
/// ```swift
/// let plan = try FlowPlan(data: data, config: config, period: period)
/// try LocalSchedule(partitions: 7, seed: 42).run(plan, outDirectory: out, reproducible: true)
/// ```
struct LocalSchedule {
    var partitions: Int
    var seed: UInt64
    /// Whether every record crosses between stages as its line (``FlowLines``),
    /// encoded and decoded, as between worker processes, and then in the
    /// binary field form a decode worker holds records in (``InFileStages``).
    var throughLines = false

    @discardableResult
    func run(_ plan: FlowPlan, outDirectory: URL, reproducible: Bool) throws -> RunManifest {
        var plan = plan
        plan.outDirectory = outDirectory
        var random = SplitMix64(seed: seed)
        var pending: [FlowStageName: [([UInt8], FlowRecord)]] = [:]
        pending[.decode] = plan.files.indices.map { (FlowKeys.file($0 + 1), .task(file: $0 + 1)) }
        for stage in FlowStageName.allCases where stage != .merge {
            var parts = [[([UInt8], FlowRecord)]](repeating: [], count: partitions)
            for (key, record) in pending.removeValue(forKey: stage) ?? [] {
                parts[Int(FlowLines.keyHash(key) % UInt64(partitions))].append((key, record))
            }
            for part in parts.shuffled(using: &random) {
                let worker = try FlowWorker(stage: stage, plan: plan)
                var byKey: [[UInt8]: [FlowRecord]] = [:]
                for (key, record) in part { byKey[key, default: []].append(record) }
                var routed: [(FlowStageName, [UInt8], FlowRecord)] = []
                func route(_ dest: FlowStageName, _ key: [UInt8], _ record: FlowRecord) {
                    precondition(dest > stage, "\(stage) routed a record back to \(dest)")
                    routed.append((dest, key, record))
                }
                let inLineOrder = byKey.keys.map { (field: FlowLines.keyField(of: $0), key: $0) }
                    .sorted { FlowLines.keyFieldPrecedes($0.field, $1.field) }.map(\.key)
                for key in inLineOrder {
                    try worker.run(key: key, byKey[key]!.shuffled(using: &random), emit: route)
                }
                try worker.finish(emit: route)
                for (dest, key, record) in routed {
                    pending[dest, default: []].append(throughLines ? try Self.acrossLine(key, record) : (key, record))
                }
            }
        }
        let merge = FlowMerge(plan: plan)
        for (_, record) in (pending[.merge] ?? []).shuffled(using: &random) { try merge.add(record) }
        return try merge.finish(outDirectory: outDirectory, reproducible: reproducible)
    }

    /// `record` written as its line and read back, then written in the binary field form and read back.
    static func acrossLine(_ key: [UInt8], _ record: FlowRecord) throws -> ([UInt8], FlowRecord) {
        var writer = WireWriter()
        FlowLines.append(key: key, record, to: &writer)
        let read = try writer.bytes.dropLast().withUnsafeBufferPointer { line in try FlowLines.read(line, number: 1) }
        var binary = WireWriter(binary: true)
        read.record.appendBinaryFields(to: &binary)
        return (read.key, try binary.bytes.withUnsafeBufferPointer { try FlowRecord(binaryFields: $0, number: 1) })
    }
}

/// One stage's instance in one worker: runs the stage on one key's records
/// at a time, then is told its input ended (``finish(emit:)``: a stage that
/// folds its keys into one partial result, as a combiner does, sends it then).
///
/// Superseded rows are combined here for every stage: the counts a stage
/// emits per row (`.superseded(file:rows: 1)`) are added up per file and
/// sent at the end, one line per file and instance, so what reaches the
/// merge grows with the files and partitions, not with the rows. The merge
/// adds the counts up whatever their grouping.
struct FlowWorker {
    private let body: ([UInt8], [FlowRecord], FlowEmit) throws -> Void
    private var finishing: (FlowEmit) throws -> Void = { _ in }
    private let superseded = SupersededCounts()

    /// Superseded rows per file, held until the instance's input ends.
    private final class SupersededCounts {
        var byFile: [Int: Int] = [:]
    }

    init(stage: FlowStageName, plan: FlowPlan) throws {
        switch stage {
        case .decode:
            let decode = DecodeStage(plan: plan)
            body = { _, records, emit in
                for case .task(let file) in records { try decode.run(file: file, emit: emit) }
            }
        case .rows:
            let rows = RowsStage(plan: plan)
            body = { _, records, emit in rows.run(records, emit: emit) }
        case .couples:
            let couples = CouplesStage(plan: plan)
            body = { key, records, emit in try couples.run(key: key, records, emit: emit) }
        case .groups:
            body = { _, records, emit in GroupsStage().run(records, emit: emit) }
        case .workouts:
            body = { _, records, emit in WorkoutsStage().run(records, emit: emit) }
        case .challenges:
            let challenges = ChallengesStage(plan: plan)
            body = { key, records, emit in try challenges.run(key: key, records, emit: emit) }
        case .days:
            let days = DaysStage(plan: plan)
            body = { _, records, emit in days.run(records, emit: emit) }
        case .users:
            body = { key, records, emit in UsersStage().run(key: key, records, emit: emit) }
        case .swipePairs:
            let pairs = SwipePairsStage(plan: plan)
            body = { _, records, emit in pairs.run(records, emit: emit) }
        case .swipeDays:
            let days = SwipeDaysStage(plan: plan)
            body = { _, records, emit in days.run(records, emit: emit) }
        case .subscribers:
            let subscribers = SubscribersStage(plan: plan)
            body = { _, records, emit in try subscribers.run(records, emit: emit) }
            finishing = { emit in subscribers.finish(emit: emit) }
        case .records:
            body = { key, records, emit in
                var family: String?
                var supplied: [SuppliedRecord] = []
                for record in records {
                    guard case .familyExpense(let name, let v, let origin) = record, family == nil || family == name else {
                        preconditionFailure("not one records family's record: \(record)")
                    }
                    family = name
                    supplied.append(.winningExpense(plan.winningExpense(v, origin)))
                }
                guard let name = family else { return }
                guard let run = plan.families.records(named: name) else {
                    throw DataflowError("no records family '\(name)' is registered in this tally")
                }
                emit(.merge, key, .familyResult(family: name, try run.computeLine(FlowKeys.partition(ofFamilyKey: key), supplied)))
            }
        case .merge:
            preconditionFailure("the merge is not a worker's stage")
        }
    }

    func run(key: [UInt8], _ records: [FlowRecord], emit: FlowEmit) throws {
        let counts = superseded
        try body(key, records) { stage, key, record in
            if case .superseded(let file, let rows) = record {
                counts.byFile[file, default: 0] += rows
            } else {
                emit(stage, key, record)
            }
        }
    }

    /// Tells the instance its input ended: it sends its combined counts.
    func finish(emit: FlowEmit) throws {
        try finishing(emit)
        for (file, rows) in superseded.byFile.sorted(by: { $0.key < $1.key }) {
            emit(.merge, FlowKeys.file(file), .superseded(file: file, rows: rows))
        }
        superseded.byFile.removeAll()
    }
}
