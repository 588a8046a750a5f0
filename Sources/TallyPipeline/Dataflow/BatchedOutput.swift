import Foundation
import TallyWire

/// What a decode worker sends on to the engine, held (``HeldRecords``, as
/// the records' line fields) until its group of files was read whole, then
/// written key by key: the records of one stage and key leave as one batch
/// line (``TallyWire/FlowLines``), or a few when they pass `lineBytes`
/// (64 KiB: an engine reads lines in batches of hundreds, each batch in one
/// buffer), and a key's one record as a plain line. The engine then moves, sorts and
/// stores a line per key where it moved one per record: the expenses of a
/// couple, the check-ins of a challenge, the rejects of a file.
///
/// ```swift
/// let out = BatchedOutput(base: temporaryURL)
/// out.add(.couples, key, record)
/// try out.write(to: handle)   // once the group was read whole
/// ```
final class BatchedOutput {
    /// The most bytes of records a batch line holds (but a line always holds one).
    let lineBytes: Int
    private let held: HeldRecords
    private static let stages = FlowStageName.allCases.filter { $0 != .decode }

    init(base: URL, lineBytes: Int = 1 << 16) {
        self.lineBytes = lineBytes
        held = HeldRecords(base: base, stages: Self.stages, binary: false)
    }

    /// Holds one record of `key` for `stage`.
    func add(_ stage: FlowStageName, _ key: [UInt8], _ record: FlowRecord) {
        held.add(stage, key) { writer in record.encode(into: &writer) }
    }

    func mark() -> HeldRecords.Mark { held.mark() }

    /// Drops every record added since `mark` (a file refused after some of its records were held).
    func takeBack(to mark: HeldRecords.Mark) { held.takeBack(to: mark) }

    /// Writes what is held to `handle`, stage by stage and key by key, and empties it.
    func write(to handle: FileHandle) throws {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 20)
        for stage in Self.stages {
            try held.forEachKey(of: stage) { field, payloads in
                var start = 0
                while start < payloads.count {
                    // As many records as fit in one line, at least one.
                    var end = start + 1
                    var bytes = payloads[start].count
                    while end < payloads.count, bytes + payloads[end].count <= lineBytes {
                        bytes += payloads[end].count
                        end += 1
                    }
                    FlowLines.appendStart(destination: stage.rawValue, keyField: field, records: end - start, to: &out)
                    for payload in payloads[start..<end] { out.append(contentsOf: payload) }
                    out.append(WireEscaping.lineFeed)
                    start = end
                    if out.count >= 1 << 20 {
                        try handle.write(contentsOf: out)
                        out.removeAll(keepingCapacity: true)
                    }
                }
            }
        }
        try handle.write(contentsOf: out)
    }

    /// Removes the files that hold records.
    func discard() { held.discard() }
}
