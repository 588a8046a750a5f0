import Foundation
import TallyWire

/// The stages a decode worker runs itself for one group of files, because
/// every input of theirs, for the keys the group feeds, comes from those
/// files (``FlowPlan/stagesInGroup(of:)``: the rows stage when every file of
/// the group's tables is in the group, then the swipes' pairs and days, the
/// workouts, the subscribers or the records families when they take only
/// such a table's rows). The engine then has no pass to run for those
/// records: what the last of those stages sends leaves the decode worker.
///
/// Each stage's records are held on disk (``HeldRecords``) in the binary
/// field form (``TallyWire/WireWriter/binary``), which the process writes
/// and reads back itself, with no escaping or digits to parse. A file's
/// records are added as it is read; when the file is refused late, what it
/// added is taken back (``mark()``, ``takeBack(to:)``), so a refused file
/// adds nothing. Once the group's files were read whole, the stages run in
/// wave order, each key's records, in the order of their keys' lines, to
/// the stage (a stage does not depend on the order of one key's records);
/// what a stage sends to a later stage of the file is held for it, the rest
/// goes to `emit`. Each stage's instance
/// is the group's own, told its input ended once the group's records for
/// it were run.
///
/// ```swift
/// let held = InFileStages(group: [3], stages: [.rows, .swipePairs, .swipeDays], plan: plan)
/// let mark = held.mark()
/// read(file) { dest, key, record in held.holds(dest) ? held.add(dest, key, record) : send(dest, key, record) }
/// if refused { held.takeBack(to: mark) }
/// try held.run(emit: emit)                 // once the group was read whole
/// ```
final class InFileStages {
    let stages: [FlowStageName]
    private let plan: FlowPlan
    private let held: HeldRecords

    init(group: [Int], stages: [FlowStageName], plan: FlowPlan) {
        self.stages = stages
        self.plan = plan
        let base = FileManager.default.temporaryDirectory
            .appendingPathComponent("tally-group-\(ProcessInfo.processInfo.processIdentifier)-\(group[0])")
        held = HeldRecords(base: base, stages: stages, binary: true)
    }

    /// Whether records for `stage` are held here.
    func holds(_ stage: FlowStageName) -> Bool { held.holds(stage) }

    /// Holds one record for `stage`. A failure to write is thrown by ``run(emit:)``.
    func add(_ stage: FlowStageName, _ key: [UInt8], _ record: FlowRecord) {
        held.add(stage, key) { writer in record.appendBinaryFields(to: &writer) }
    }

    /// How much every stage holds now.
    func mark() -> HeldRecords.Mark { held.mark() }

    /// Drops every record added since `mark` (a file refused after some of
    /// its records were held). A failure is thrown by ``run(emit:)``.
    func takeBack(to mark: HeldRecords.Mark) { held.takeBack(to: mark) }

    /// Runs the stages in wave order on what is held, handing what leaves them to `emit`.
    func run(emit: FlowEmit) throws {
        for stage in stages {
            let worker = try FlowWorker(stage: stage, plan: plan)
            func route(_ dest: FlowStageName, _ key: [UInt8], _ record: FlowRecord) {
                if dest > stage, holds(dest) { add(dest, key, record) } else { emit(dest, key, record) }
            }
            do {
                var records: [FlowRecord] = []
                var number = 0
                try held.forEachKey(of: stage) { field, payloads in
                    records.removeAll(keepingCapacity: true)
                    for payload in payloads {
                        number += 1
                        records.append(try FlowRecord(binaryFields: payload, number: number))
                    }
                    try worker.run(key: try FlowLines.key(ofField: field), records, emit: route)
                }
                try worker.finish(emit: route)
            } catch {
                throw DataflowError("\(stage), in the decode worker: \(error)")
            }
        }
    }

    /// Removes the files that hold records.
    func discard() { held.discard() }
}
