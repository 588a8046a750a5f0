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
/// Each stage's records are held as lines on disk, in 64 buckets by the
/// first character of their key field (the spread prefix), so memory holds
/// one bucket at a time. Once the group's files were read whole (a file
/// refused whole adds nothing: its lines are taken only once it was read to
/// its end), the stages run in
/// wave order: each bucket's lines are sorted as bytes, as an engine sorts a
/// partition, and each key's records go to the stage in the order they
/// would have come from the engine; what a stage sends to a later stage of
/// the file is held for it, the rest goes to `emit`. Each stage's instance
/// is the group's own, told its input ended once the group's records for
/// it were run.
///
/// ```swift
/// let held = InFileStages(group: [3], stages: [.rows, .swipePairs, .swipeDays], plan: plan)
/// if try !held.take(line) { send(line) }   // each output line of the group's decoding
/// try held.run(emit: emit)                 // once the group was read whole
/// ```
final class InFileStages {
    static let bucketCount = 64

    let stages: [FlowStageName]
    private let plan: FlowPlan
    private var held: [FlowStageName: HeldLines] = [:]
    /// The held stages' names as bytes, for ``take(_:)``.
    private let names: [(name: [UInt8], lines: HeldLines)]
    private var scratch = WireWriter()
    private var failure: Error?

    init(group: [Int], stages: [FlowStageName], plan: FlowPlan) {
        self.stages = stages
        self.plan = plan
        let base = FileManager.default.temporaryDirectory
            .appendingPathComponent("tally-group-\(ProcessInfo.processInfo.processIdentifier)-\(group[0])")
        var named: [(name: [UInt8], lines: HeldLines)] = []
        for stage in stages {
            let lines = HeldLines(base: base.appendingPathExtension(stage.rawValue))
            held[stage] = lines
            named.append((Array(stage.rawValue.utf8), lines))
        }
        names = named
    }

    /// Whether records for `stage` are held here.
    func holds(_ stage: FlowStageName) -> Bool { held[stage] != nil }

    /// Holds `line` (an output line, `DEST<TAB>KEY<TAB>…`) when DEST is a
    /// stage held here, and says whether it did.
    func take(_ line: UnsafeBufferPointer<UInt8>) throws -> Bool {
        guard let tab = line.firstIndex(of: WireEscaping.tab) else { return false }
        let dest = UnsafeBufferPointer(rebasing: line[..<tab])
        guard let lines = names.first(where: { $0.name.elementsEqual(dest) })?.lines else { return false }
        try lines.add(UnsafeBufferPointer(rebasing: line[(tab + 1)...]))
        return true
    }

    /// Holds one record for `stage`. A failure to write is thrown by ``run(emit:)``.
    func add(_ stage: FlowStageName, _ key: [UInt8], _ record: FlowRecord) {
        scratch.bytes.removeAll(keepingCapacity: true)
        FlowLines.append(key: key, record, to: &scratch)
        do {
            try scratch.bytes.withUnsafeBufferPointer { try held[stage]!.add(UnsafeBufferPointer(rebasing: $0.dropLast())) }
        } catch {
            if failure == nil { failure = error }
        }
    }

    /// Runs the stages in wave order on what is held, handing what leaves them to `emit`.
    func run(emit: FlowEmit) throws {
        for stage in stages {
            if let failure { throw failure }
            let worker = try FlowWorker(stage: stage, plan: plan)
            func route(_ dest: FlowStageName, _ key: [UInt8], _ record: FlowRecord) {
                if dest > stage, holds(dest) { add(dest, key, record) } else { emit(dest, key, record) }
            }
            do {
                try held[stage]!.forEachKey { key, records in try worker.run(key: key, records, emit: route) }
                try worker.finish(emit: route)
            } catch {
                throw DataflowError("\(stage), in the decode worker: \(error)")
            }
        }
        if let failure { throw failure }
    }

    /// Removes the files that hold lines.
    func discard() {
        for lines in held.values { lines.discard() }
    }

    /// One stage's lines, in buckets (``SpoolFile``s) by their first character.
    private final class HeldLines {
        private let buckets: [SpoolFile]

        init(base: URL) {
            buckets = (0..<InFileStages.bucketCount).map {
                SpoolFile(url: base.appendingPathExtension(String($0)), flushBytes: 1 << 16, holding: "a stage's records")
            }
        }

        /// Adds one line (without its line feed), to the bucket of its first character.
        func add(_ line: UnsafeBufferPointer<UInt8>) throws {
            let bucket = buckets[Int(line.first ?? 0) % InFileStages.bucketCount]
            try bucket.append(line)
            try bucket.append(CollectionOfOne(WireEscaping.lineFeed))
        }

        /// Each key's records, bucket by bucket, each bucket's lines sorted as bytes.
        func forEachKey(_ body: ([UInt8], [FlowRecord]) throws -> Void) throws {
            for bucket in buckets { try bucket.consume { try Self.forEachKey(in: $0, body) } }
        }

        func discard() {
            for bucket in buckets { bucket.discard() }
        }

        /// Sorts `bytes`' lines as bytes and hands each key's records to `body`.
        private static func forEachKey(in buffer: UnsafeBufferPointer<UInt8>, _ body: ([UInt8], [FlowRecord]) throws -> Void) throws {
            guard !buffer.isEmpty else { return }
            do {
                var lines: [Range<Int>] = []
                var start = 0
                while start < buffer.count, let end = buffer[start...].firstIndex(of: WireEscaping.lineFeed) {
                    lines.append(start..<end)
                    start = end + 1
                }
                // Lines start with the spread prefix: their first eight bytes, read as
                // a big-endian number, order most pairs without comparing the rest.
                let base = buffer.baseAddress!
                func lead(_ line: Range<Int>) -> UInt64 {
                    var value: UInt64 = 0
                    for i in 0..<8 { value = value << 8 | UInt64(i < line.count ? base[line.lowerBound + i] : 0) }
                    return value
                }
                var keyed = lines.map { (lead: lead($0), line: $0) }
                keyed.sort { a, b in
                    if a.lead != b.lead { return a.lead < b.lead }
                    let order = memcmp(base + a.line.lowerBound, base + b.line.lowerBound, min(a.line.count, b.line.count))
                    return order != 0 ? order < 0 : a.line.count < b.line.count
                }
                lines = keyed.map(\.line)
                var current: (field: UnsafeBufferPointer<UInt8>, key: [UInt8], records: [FlowRecord])?
                for (index, range) in lines.enumerated() {
                    let line = UnsafeBufferPointer(rebasing: buffer[range])
                    let (key, record) = try FlowLines.read(line, number: index + 1, checkingPrefix: false)
                    let field = FlowLines.keyField(line)
                    if let c = current, c.field.elementsEqual(field) {
                        current!.records.append(record)
                        continue
                    }
                    if let c = current { try body(c.key, c.records) }
                    current = (field, key, [record])
                }
                if let c = current { try body(c.key, c.records) }
            }
        }
    }
}
