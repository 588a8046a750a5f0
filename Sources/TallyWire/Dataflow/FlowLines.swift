import Foundation
import TallyCore

/// The line form records travel in between dataflow processes: the routing
/// key escaped as one field, then the record as a wire line (``FlowRecord``'s
/// `flow.v2` encoding); a worker's output line leads with the stage the
/// record goes to. UTF-8, one line per record, no `\r` or `\n` inside.
///
/// ```text
/// rows<TAB>expenses\tE1<TAB>flow.v2<TAB>expense-version<TAB>E1<TAB>…      (worker output)
/// expenses\tE1<TAB>flow.v2<TAB>expense-version<TAB>E1<TAB>…               (a stage's input)
/// ```
///
/// An output line is an input line after its destination's name and a tab
/// (``append(destination:key:_:to:)``).
public enum FlowLines {
    /// Appends `key` and `record` as one input line.
    public static func append(key: [UInt8], _ record: FlowRecord, to writer: inout WireWriter) {
        WireEscaping.escape(key, into: &writer.bytes)
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

    /// The key field of an input line as it is on the line (escaped): what
    /// an engine sorts and groups lines by.
    public static func keyField(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: line[0..<(line.firstIndex(of: WireEscaping.tab) ?? line.count)])
    }

    /// Reads one input line (without its line feed): its key's bytes and its
    /// record. A line without a key field throws a ``FlowLineError``; a record
    /// that does not read, a ``WireError``.
    public static func read(_ line: UnsafeBufferPointer<UInt8>, number: Int) throws -> (key: [UInt8], record: FlowRecord) {
        guard let tab = line.firstIndex(of: WireEscaping.tab) else {
            throw FlowLineError("line \(number) has no TAB after its key")
        }
        let key: [UInt8]
        do {
            key = try WireEscaping.unescaped(line[0..<tab])
        } catch {
            throw FlowLineError("line \(number) has a key that is not escaped right: \(error)")
        }
        let rest = UnsafeBufferPointer(rebasing: line[(tab + 1)...])
        return (key, try WireLine(rest, number: number).decode(FlowRecord.self))
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
