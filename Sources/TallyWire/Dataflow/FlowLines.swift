import Foundation
import TallyCore

/// The line form records travel in between dataflow processes: the key
/// field (the routing key's spread prefix, then the key escaped), then the
/// record as a wire line (``FlowRecord``'s `flow.v2` encoding); a worker's
/// output line leads with the stage the record goes to. UTF-8, one line per
/// record, no `\r` or `\n` inside.
///
/// ```text
/// rows<TAB>1a2dBZF-expenses\tE1<TAB>flow.v2<TAB>expense-version<TAB>E1<TAB>…      (worker output)
/// 1a2dBZF-expenses\tE1<TAB>flow.v2<TAB>expense-version<TAB>E1<TAB>…               (a stage's input)
/// ```
///
/// The **spread prefix** is eight characters of a hash of the key's bytes,
/// from an alphabet in ascending byte order (48 bits). Engines sort each
/// partition's lines as bytes; with the prefix first, the first eight bytes
/// (what an engine's sort compares before anything else, as Spark's does)
/// tell two keys apart, where keys of one table share their first bytes
/// (`swipes\t…`), and an engine may partition by those eight bytes alone
/// (lines of one key share them). Lines of one key still sort together, and
/// the order of keys is one the hash gives: no stage depends on which key
/// comes first.
///
/// An output line is an input line after its destination's name and a tab
/// (``append(destination:key:_:to:)``).
///
/// A **batch line** carries several records of one key: after the key
/// field, `flow.v2<TAB>batch<TAB>N`, then the N records' cases and fields
/// one after the other (each record's fields say where it ends). A worker
/// sends a key's records as batches to spare the engine a line per record;
/// ``readRecords(_:number:checkingPrefix:)`` reads either kind of line.
///
/// ```text
/// couples<TAB>1a2dBZF-c1<TAB>flow.v2<TAB>batch<TAB>2<TAB>winning-expense<TAB>…<TAB>couple-row<TAB>…
/// ```
public enum FlowLines {
    /// Appends `key` and `record` as one input line.
    public static func append(key: [UInt8], _ record: FlowRecord, to writer: inout WireWriter) {
        appendKeyField(of: key, to: &writer.bytes)
        writer.bytes.append(WireEscaping.tab)
        writer.append(record)
    }

    /// Appends one output line: `destination` (the name of the stage the
    /// record goes to, which holds no tab), then its input line.
    public static func append(destination: String, key: [UInt8], _ record: FlowRecord, to writer: inout WireWriter) {
        writer.bytes.append(contentsOf: destination.utf8)
        writer.bytes.append(WireEscaping.tab)
        append(key: key, record, to: &writer)
    }

    /// The start of a line of `key` whose record is of case `name`, up to its
    /// first field: the key field, the record's tag (`flow.v2`) and the case,
    /// each followed by a TAB. An engine that writes a record's fields itself
    /// (the rows of a Parquet part it read) appends them to it.
    ///
    /// ```swift
    /// FlowLines.linePrefix(key: FlowKeys.file(3), case: "source-row")
    /// // "<8 characters>file\\t3\tflow.v2\tsource-row\t"
    /// ```
    public static func linePrefix(key: [UInt8], case name: String) -> String {
        var bytes = keyField(of: key)
        bytes.append(WireEscaping.tab)
        bytes.append(contentsOf: flowTag)
        bytes.append(WireEscaping.tab)
        WireEscaping.escape(name.utf8, into: &bytes)
        bytes.append(WireEscaping.tab)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `key`'s field as it is on a line: its spread prefix, then the key
    /// escaped. Lines sort by it.
    public static func keyField(of key: [UInt8]) -> [UInt8] {
        var field: [UInt8] = []
        appendKeyField(of: key, to: &field)
        return field
    }

    /// Appends `key`'s field (``keyField(of:)``) to `bytes`.
    public static func appendKeyField(of key: [UInt8], to bytes: inout [UInt8]) {
        appendKeyField(of: key, hash: keyHash(key), to: &bytes)
    }

    /// Appends `key`'s field to `bytes`, `hash` being its ``keyHash(_:)``.
    public static func appendKeyField(of key: [UInt8], hash: UInt64, to bytes: inout [UInt8]) {
        for i in 0..<spreadWidth { bytes.append(spreadCharacter(hash, i)) }
        WireEscaping.escape(key, into: &bytes)
    }

    /// How many ranges ``spreadBucket(ofHash:)`` tells apart: the prefix alphabet's size.
    public static let spreadBucketCount = 64

    /// Which of ``spreadBucketCount`` ranges, in byte order, a key field
    /// whose key's ``keyHash(_:)`` is `hash` falls in: its first character's
    /// place in the prefix's alphabet.
    public static func spreadBucket(ofHash hash: UInt64) -> Int { Int(hash >> 58) }

    /// Whether lines with key field `a` come before lines with key field `b`
    /// when lines are sorted as bytes: the fields compared with the TAB that
    /// ends each (`a` + TAB against `b` + TAB). Lines sorted as whole lines,
    /// or by this order of their key fields, keep each key's lines together.
    public static func keyFieldPrecedes<A: RandomAccessCollection<UInt8>, B: RandomAccessCollection<UInt8>>(_ a: A, _ b: B) -> Bool
    where A.Index == Int, B.Index == Int {
        let common = min(a.count, b.count)
        for k in 0..<common where a[a.startIndex + k] != b[b.startIndex + k] {
            return a[a.startIndex + k] < b[b.startIndex + k]
        }
        if a.count < b.count { return WireEscaping.tab < b[b.startIndex + common] }
        if b.count < a.count { return a[a.startIndex + common] < WireEscaping.tab }
        return false
    }

    /// The key field of an input line as it is on the line (spread prefix,
    /// then the key escaped): what an engine sorts and groups lines by.
    public static func keyField(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: line[0..<(line.firstIndex(of: WireEscaping.tab) ?? line.count)])
    }

    /// The key of a key field (``keyField(of:)``, at least ``spreadWidth`` bytes): its bytes after the prefix, unescaped.
    public static func key(ofField field: UnsafeBufferPointer<UInt8>) throws(WireEscaping.UnescapeError) -> [UInt8] {
        let escaped = UnsafeBufferPointer(rebasing: field[spreadWidth...])
        guard escaped.contains(WireEscaping.backslash) else { return Array(escaped) }
        var key: [UInt8] = []
        key.reserveCapacity(escaped.count)
        try WireEscaping.unescape(escaped, into: &key)
        return key
    }

    /// Reads one input line (without its line feed): its key's bytes and its
    /// record. A line without a key field throws a ``FlowLineError``; a record
    /// that does not read, a ``WireError``.
    /// `checkingPrefix: false` skips the spread prefix's check, for lines the
    /// process itself wrote (and sorted) rather than lines an engine brought.
    public static func read(_ line: UnsafeBufferPointer<UInt8>, number: Int,
                            checkingPrefix: Bool = true) throws -> (key: [UInt8], record: FlowRecord) {
        guard let tab = line.firstIndex(of: WireEscaping.tab) else {
            throw FlowLineError("line \(number) has no TAB after its key")
        }
        let key = try checkedKey(line, tab: tab, number: number, checkingPrefix: checkingPrefix)
        let rest = UnsafeBufferPointer(rebasing: line[(tab + 1)...])
        return (key, try WireLine(rest, number: number).decode(FlowRecord.self))
    }

    /// The key of a line whose key field ends at `tab`, its prefix checked unless `checkingPrefix` is false.
    private static func checkedKey(_ line: UnsafeBufferPointer<UInt8>, tab: Int, number: Int, checkingPrefix: Bool) throws -> [UInt8] {
        guard tab >= spreadWidth else {
            throw FlowLineError("line \(number) has a key field shorter than its \(spreadWidth)-character prefix")
        }
        let key: [UInt8]
        do {
            key = try self.key(ofField: UnsafeBufferPointer(rebasing: line[..<tab]))
        } catch {
            throw FlowLineError("line \(number) has a key that is not escaped right: \(error)")
        }
        let hash = checkingPrefix ? keyHash(key) : 0
        for i in 0..<spreadWidth where checkingPrefix && line[i] != spreadCharacter(hash, i) {
            throw FlowLineError("line \(number) has a key field whose prefix is not its key's (a line tally did not write, or one cut short)")
        }
        return key
    }

    /// The case that marks a batch line.
    public static let batchCase = "batch"

    /// Appends the start of an output line for `destination` with key field
    /// `field` (as on a line), up to its records: `flow.v2` and, for more
    /// than one record, `batch` and their count. Each record's fields
    /// (``FlowRecord``'s line encoding, each field led by its TAB) follow,
    /// then a line feed.
    public static func appendStart(destination: String, keyField field: UnsafeBufferPointer<UInt8>, records: Int,
                                   to bytes: inout [UInt8]) {
        precondition(records >= 1, "a line carries at least one record")
        bytes.append(contentsOf: destination.utf8)
        bytes.append(WireEscaping.tab)
        bytes.append(contentsOf: field)
        bytes.append(WireEscaping.tab)
        bytes.append(contentsOf: flowTag)
        guard records > 1 else { return }
        var writer = WireWriter()
        writer.string(batchCase)
        writer.count(records)
        bytes.append(contentsOf: writer.bytes)
    }

    /// `flow.v2`, and the start of a batch line's record after its key field.
    private static let flowTag = Array(FlowRecord.wireTag.utf8)
    private static let batchStart = flowTag + Array("\t\(batchCase)\t".utf8)

    /// Reads one input line, a record's or a batch's (without its line
    /// feed): its key's bytes and its records. Errors as ``read(_:number:checkingPrefix:)``'s
    /// (a batch inside a batch is a record of no known case).
    public static func readRecords(_ line: UnsafeBufferPointer<UInt8>, number: Int,
                                   checkingPrefix: Bool = true) throws -> (key: [UInt8], records: [FlowRecord]) {
        guard let tab = line.firstIndex(of: WireEscaping.tab) else {
            throw FlowLineError("line \(number) has no TAB after its key")
        }
        let rest = UnsafeBufferPointer(rebasing: line[(tab + 1)...])
        guard rest.count > batchStart.count, memcmp(rest.baseAddress!, batchStart, batchStart.count) == 0 else {
            let (key, record) = try read(line, number: number, checkingPrefix: checkingPrefix)
            return (key, [record])
        }
        let key = try checkedKey(line, tab: tab, number: number, checkingPrefix: checkingPrefix)
        let wire = try WireLine(rest, number: number)
        var fields = WireFields(wire)
        _ = try fields.string("case")
        var records: [FlowRecord] = []
        let count = try fields.count("records")
        records.reserveCapacity(count)
        for _ in 0..<count { records.append(try FlowRecord(fields: &fields)) }
        try fields.finish()
        return (key, records)
    }

    /// The spread prefix's width in bytes.
    public static let spreadWidth = 8

    /// 64 characters in ascending byte order: prefixes sort as their hashes do.
    private static let spreadAlphabet = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)

    /// A 64-bit hash of a key's bytes, the same on every machine: FNV-1a,
    /// then MurmurHash3's finaliser, so that every bit depends on every byte.
    public static func keyHash(_ key: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01B3
        }
        h ^= h >> 33
        h = h &* 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h = h &* 0xc4ce_b9fe_1a85_ec53
        return h ^ (h >> 33)
    }

    /// Appends `key`'s spread prefix: the top 48 bits of ``keyHash(_:)``, six
    /// bits per character.
    static func appendSpreadPrefix(of key: [UInt8], to bytes: inout [UInt8]) {
        let hash = keyHash(key)
        for i in 0..<spreadWidth { bytes.append(spreadCharacter(hash, i)) }
    }

    /// Character `i` of the spread prefix of a key whose ``keyHash(_:)`` is `hash`.
    private static func spreadCharacter(_ hash: UInt64, _ i: Int) -> UInt8 {
        spreadAlphabet[Int((hash >> UInt64(58 - 6 * i)) & 63)]
    }

    /// Calls `body` with each line of `handle` (without its line feed) and its
    /// 1-based number, reading 1 MiB at a time; a last line without a line feed counts.
    public static func forEachLine(of handle: FileHandle, _ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws {
        var pending: [UInt8] = []
        var number = 0
        while true {
            let chunk = try handle.read(upToCount: 1 << 20) ?? Data()
            if chunk.isEmpty { break }
            pending.append(contentsOf: chunk)
            var start = 0
            try pending.withUnsafeBufferPointer { buffer in
                while let end = buffer[start...].firstIndex(of: WireEscaping.lineFeed) {
                    number += 1
                    try body(UnsafeBufferPointer(rebasing: buffer[start..<end]), number)
                    start = end + 1
                }
            }
            pending.removeFirst(start)
        }
        if !pending.isEmpty {
            number += 1
            try pending.withUnsafeBufferPointer { try body($0, number) }
        }
    }
}

/// Why a dataflow line has no key to read: `line 3 has no TAB after its key`.
public struct FlowLineError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
