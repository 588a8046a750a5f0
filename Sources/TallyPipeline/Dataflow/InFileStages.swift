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
/// Each stage's records are held on disk in the binary field form
/// (``TallyWire/WireWriter/binary``), which the process writes and reads
/// back itself, with no escaping or digits to parse: each record as a
/// 4-byte length, its key field (spread prefix, then the key escaped, as on
/// a line), a TAB, then the record's fields. They are held in 64 buckets by
/// the first character of the key field, so memory holds one bucket at a
/// time. A file's records are added as it is read; when the file is
/// refused late, what it added is taken back (``mark()``,
/// ``takeBack(to:)``), so a refused file adds nothing. Once the group's
/// files were read whole, the stages run in wave order: each bucket's
/// records are sorted by their bytes, which puts each key's records
/// together and the keys in the order an engine's sort of their lines
/// gives; each key's records go to the stage (a stage does not depend on the
/// order of one key's records); what a stage sends to a later stage of
/// the file is held for it, the rest goes to `emit`. Each stage's instance
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
    static let bucketCount = 64

    let stages: [FlowStageName]
    private let plan: FlowPlan
    private var held: [FlowStageName: HeldRecords] = [:]
    /// Each stage's held records by ``FlowStageName/ordinal``.
    private var byOrdinal = [HeldRecords?](repeating: nil, count: FlowStageName.allCases.count)
    private var failure: Error?

    init(group: [Int], stages: [FlowStageName], plan: FlowPlan) {
        self.stages = stages
        self.plan = plan
        let base = FileManager.default.temporaryDirectory
            .appendingPathComponent("tally-group-\(ProcessInfo.processInfo.processIdentifier)-\(group[0])")
        for stage in stages {
            let records = HeldRecords(base: base.appendingPathExtension(stage.rawValue))
            held[stage] = records
            byOrdinal[stage.ordinal] = records
        }
    }

    /// Whether records for `stage` are held here.
    func holds(_ stage: FlowStageName) -> Bool { byOrdinal[stage.ordinal] != nil }

    /// Holds one record for `stage`. A failure to write is thrown by ``run(emit:)``.
    func add(_ stage: FlowStageName, _ key: [UInt8], _ record: FlowRecord) {
        do {
            try byOrdinal[stage.ordinal]!.add(key, record)
        } catch {
            if failure == nil { failure = error }
        }
    }

    /// How much every stage holds now, for ``takeBack(to:)``.
    struct Mark {
        fileprivate var lengths: [FlowStageName: [Int]]
    }

    /// How much every stage holds now.
    func mark() -> Mark { Mark(lengths: held.mapValues { $0.lengths }) }

    /// Drops every record added since `mark` (a file refused after some of
    /// its records were held). A failure is thrown by ``run(emit:)``.
    func takeBack(to mark: Mark) {
        do {
            for (stage, lengths) in mark.lengths { try held[stage]!.truncate(to: lengths) }
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

    /// Removes the files that hold records.
    func discard() {
        for lines in held.values { lines.discard() }
    }

    /// One stage's records, in buckets (``SpoolFile``s) by the first character of their key field.
    private final class HeldRecords {
        private let buckets: [SpoolFile]

        init(base: URL) {
            buckets = (0..<InFileStages.bucketCount).map {
                SpoolFile(url: base.appendingPathExtension(String($0)), flushBytes: 1 << 16, holding: "a stage's records")
            }
        }

        /// Adds one record to the bucket of its key field's first character:
        /// its 4-byte length, its key field, a TAB, its binary fields.
        func add(_ key: [UInt8], _ record: FlowRecord) throws {
            let hash = FlowLines.keyHash(key)
            try buckets[FlowLines.spreadBucket(ofHash: hash)].append { bytes in
                var writer = WireWriter(binary: true)
                swap(&writer.bytes, &bytes)
                defer { swap(&writer.bytes, &bytes) }
                let start = writer.bytes.count
                for _ in 0..<4 { writer.bytes.append(0) }
                FlowLines.appendKeyField(of: key, hash: hash, to: &writer.bytes)
                writer.bytes.append(WireEscaping.tab)
                record.appendBinaryFields(to: &writer)
                let length = UInt32(writer.bytes.count - start - 4)
                for i in 0..<4 { writer.bytes[start + i] = UInt8(truncatingIfNeeded: length >> (8 * i)) }
            }
        }

        /// Every bucket's length.
        var lengths: [Int] { buckets.map(\.length) }

        /// Drops what was added to each bucket past `lengths`.
        func truncate(to lengths: [Int]) throws {
            for (bucket, length) in zip(buckets, lengths) { try bucket.truncate(to: length) }
        }

        /// Each key's records, bucket by bucket, each bucket's records sorted by their bytes.
        func forEachKey(_ body: ([UInt8], [FlowRecord]) throws -> Void) throws {
            for bucket in buckets { try bucket.consume { try Self.forEachKey(in: $0, body) } }
        }

        func discard() {
            for bucket in buckets { bucket.discard() }
        }

        /// Sorts the records of `buffer` by their bytes and hands each key's records to `body`.
        private static func forEachKey(in buffer: UnsafeBufferPointer<UInt8>, _ body: ([UInt8], [FlowRecord]) throws -> Void) throws {
            guard !buffer.isEmpty else { return }
            let base = buffer.baseAddress!
            var records: [(lead: UInt64, record: Range<Int>)] = []
            var start = 0
            while start < buffer.count {
                guard buffer.count - start >= 4 else { throw DataflowError("a held bucket ends inside a record's length") }
                var length = 0
                for i in 0..<4 { length |= Int(base[start + i]) << (8 * i) }
                let record = (start + 4)..<(start + 4 + length)
                guard record.upperBound <= buffer.count else { throw DataflowError("a held bucket ends inside a record") }
                // A key field starts with its eight-byte spread prefix: read as a
                // big-endian number, it orders most pairs without comparing the rest.
                var lead: UInt64 = 0
                for i in 0..<8 { lead = lead << 8 | UInt64(i < length ? base[record.lowerBound + i] : 0) }
                records.append((lead, record))
                start = record.upperBound
            }
            records.sort { a, b in
                if a.lead != b.lead { return a.lead < b.lead }
                let order = memcmp(base + a.record.lowerBound, base + b.record.lowerBound, min(a.record.count, b.record.count))
                return order != 0 ? order < 0 : a.record.count < b.record.count
            }
            var field = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
            var key: [UInt8] = []
            var group: [FlowRecord] = []
            for (index, entry) in records.enumerated() {
                let bytes = UnsafeBufferPointer(rebasing: buffer[entry.record])
                guard let tab = bytes.firstIndex(of: WireEscaping.tab), tab >= FlowLines.spreadWidth else {
                    throw DataflowError("a held record has no key field")
                }
                let record = try FlowRecord(binaryFields: UnsafeBufferPointer(rebasing: bytes[(tab + 1)...]), number: index + 1)
                let sameKey = !group.isEmpty && field.count == tab && memcmp(field.baseAddress!, bytes.baseAddress!, tab) == 0
                if !sameKey {
                    if !group.isEmpty { try body(key, group) }
                    group.removeAll(keepingCapacity: true)
                    field = UnsafeBufferPointer(rebasing: bytes[..<tab])
                    key = try FlowLines.key(ofField: field)
                }
                group.append(record)
            }
            if !group.isEmpty { try body(key, group) }
        }
    }
}
