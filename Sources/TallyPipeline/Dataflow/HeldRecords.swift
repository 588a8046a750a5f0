import Foundation
import TallyWire

/// Records a dataflow worker holds on its disk until it can hand them on
/// key by key, per stage: each record as a 4-byte length, its key field
/// (spread prefix, then the key escaped, as on a line), a TAB, then a
/// payload its writer chose (the binary field form for records the worker
/// runs itself, a line's fields for records it sends on). They are held in
/// 64 buckets (``SpoolFile``s) by the key field's first character, so
/// memory holds one bucket at a time; each bucket is sorted by the records'
/// bytes when it is read, which puts each key's records together and the
/// keys in the order an engine's sort of their lines gives.
///
/// What was added after a ``mark()`` can be taken back (a file refused
/// after some of its records were held).
///
/// ```swift
/// let held = HeldRecords(base: temporaryURL, stages: [.rows, .swipePairs])
/// held.add(.rows, key) { writer in record.appendBinaryFields(to: &writer) }
/// try held.forEachKey(of: .rows) { field, payloads in … }
/// held.discard()
/// ```
final class HeldRecords {
    /// Each stage's buckets by ``FlowStageName/ordinal``.
    private var byOrdinal: [[SpoolFile]?]
    /// Whether payloads are in the binary field form.
    private let binary: Bool
    private var failure: Error?

    init(base: URL, stages: [FlowStageName], binary: Bool) {
        self.binary = binary
        byOrdinal = [[SpoolFile]?](repeating: nil, count: FlowStageName.allCases.count)
        for stage in stages {
            byOrdinal[stage.ordinal] = (0..<FlowLines.spreadBucketCount).map {
                SpoolFile(url: base.appendingPathExtension("\(stage.rawValue).\($0)"), flushBytes: 1 << 16, holding: "a stage's records")
            }
        }
    }

    /// Whether records for `stage` are held here.
    func holds(_ stage: FlowStageName) -> Bool { byOrdinal[stage.ordinal] != nil }

    /// Holds one record of `key` for `stage`, its payload written by
    /// `payload`. A failure to write is thrown by the next ``forEachKey(of:_:)``.
    func add(_ stage: FlowStageName, _ key: [UInt8], payload: (inout WireWriter) -> Void) {
        let hash = FlowLines.keyHash(key)
        do {
            try byOrdinal[stage.ordinal]![FlowLines.spreadBucket(ofHash: hash)].append { bytes in
                var writer = WireWriter(binary: binary)
                swap(&writer.bytes, &bytes)
                defer { swap(&writer.bytes, &bytes) }
                let start = writer.bytes.count
                for _ in 0..<4 { writer.bytes.append(0) }
                FlowLines.appendKeyField(of: key, hash: hash, to: &writer.bytes)
                writer.bytes.append(WireEscaping.tab)
                payload(&writer)
                let length = UInt32(writer.bytes.count - start - 4)
                for i in 0..<4 { writer.bytes[start + i] = UInt8(truncatingIfNeeded: length >> (8 * i)) }
            }
        } catch {
            if failure == nil { failure = error }
        }
    }

    /// How much every stage holds now, for ``takeBack(to:)``.
    struct Mark {
        fileprivate var lengths: [[Int]?]
    }

    func mark() -> Mark { Mark(lengths: byOrdinal.map { $0?.map(\.length) }) }

    /// Drops every record added since `mark`. A failure is thrown by the next ``forEachKey(of:_:)``.
    func takeBack(to mark: Mark) {
        do {
            for (buckets, lengths) in zip(byOrdinal, mark.lengths) {
                guard let buckets, let lengths else { continue }
                for (bucket, length) in zip(buckets, lengths) { try bucket.truncate(to: length) }
            }
        } catch {
            if failure == nil { failure = error }
        }
    }

    /// Hands each key of `stage`'s records, bucket by bucket, to `body`:
    /// its key field and its records' payloads (views valid during the
    /// call), then empties the stage's buckets.
    func forEachKey(of stage: FlowStageName,
                    _ body: (_ field: UnsafeBufferPointer<UInt8>, _ payloads: [UnsafeBufferPointer<UInt8>]) throws -> Void) throws {
        if let failure { throw failure }
        for bucket in byOrdinal[stage.ordinal]! { try bucket.consume { try Self.forEachKey(in: $0, body) } }
    }

    /// Removes the files that hold records.
    func discard() {
        for buckets in byOrdinal { for bucket in buckets ?? [] { bucket.discard() } }
    }

    /// Sorts the records of `buffer` by their bytes and hands each key's payloads to `body`.
    private static func forEachKey(in buffer: UnsafeBufferPointer<UInt8>,
                                   _ body: (UnsafeBufferPointer<UInt8>, [UnsafeBufferPointer<UInt8>]) throws -> Void) throws {
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
        var payloads: [UnsafeBufferPointer<UInt8>] = []
        for entry in records {
            let bytes = UnsafeBufferPointer(rebasing: buffer[entry.record])
            guard let tab = bytes.firstIndex(of: WireEscaping.tab), tab >= FlowLines.spreadWidth else {
                throw DataflowError("a held record has no key field")
            }
            let sameKey = !payloads.isEmpty && field.count == tab && memcmp(field.baseAddress!, bytes.baseAddress!, tab) == 0
            if !sameKey {
                if !payloads.isEmpty { try body(field, payloads) }
                payloads.removeAll(keepingCapacity: true)
                field = UnsafeBufferPointer(rebasing: bytes[..<tab])
            }
            payloads.append(UnsafeBufferPointer(rebasing: bytes[(tab + 1)...]))
        }
        if !payloads.isEmpty { try body(field, payloads) }
    }
}
