import CGzip
import Foundation
import Testing
@testable import TallyIngest

/// A fresh directory under the system temporary directory, removed on release.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tally-readers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `bytes` to `name` in the directory.
    func file(_ name: String, bytes: [UInt8]) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file
    }

    /// Writes `text` (UTF-8) to `name` in the directory.
    func file(_ name: String, _ text: String) throws -> URL {
        try file(name, bytes: Array(text.utf8))
    }

    /// Writes `bytes` gzip-compressed (one member) to `name`.
    func gzipFile(_ name: String, bytes: [UInt8]) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(gzip(bytes)).write(to: file)
        return file
    }
}

/// `bytes` compressed as one gzip member, with zlib's gz file API.
func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tally-gz-\(UUID().uuidString).gz")
    defer { try? FileManager.default.removeItem(at: scratch) }
    guard let handle = gzopen(scratch.path, "wb") else { throw GzipTestError.cannotOpen }
    let written = bytes.withUnsafeBytes { raw in
        raw.count == 0 ? 0 : gzwrite(handle, raw.baseAddress, UInt32(raw.count))
    }
    guard gzclose(handle) == Z_OK, Int(written) == bytes.count else { throw GzipTestError.cannotWrite }
    return Array(try Data(contentsOf: scratch))
}

enum GzipTestError: Error { case cannotOpen, cannotWrite }

/// A ReadEvent with its values copied, so it can be compared after the callback.
enum Event: Equatable, CustomStringConvertible {
    case record(line: Int, values: [String?])
    case malformed(line: Int, reason: String)

    var description: String {
        switch self {
        case .record(let line, let values): "record(\(line), \(values.map { $0.map { "\"\($0)\"" } ?? "nil" }.joined(separator: ", ")))"
        case .malformed(let line, let reason): "malformed(\(line), \(reason))"
        }
    }

    /// Shorthand for a record of present values.
    static func rec(_ line: Int, _ values: String?...) -> Event {
        .record(line: line, values: values)
    }
}

/// Every event of `url`, plus the reader (for its counters).
func readAll(_ url: URL, fields: [String], maxRecordBytes: Int = 64 << 20, chunkSize: Int = FileByteSource.defaultChunkSize) throws -> (events: [Event], reader: TableReader) {
    let reader = try TableReader(url: url, fields: fields, maxRecordBytes: maxRecordBytes, chunkSize: chunkSize)
    var events: [Event] = []
    try reader.read { event in
        switch event {
        case .record(let record):
            #expect(record.fieldCount == fields.count)
            var values: [String?] = []
            for index in 0..<record.fieldCount {
                let string = record.string(index)
                #expect(record.isPresent(index) == (string != nil))
                #expect(record.bytes(index).map { Array($0) } == string.map { Array($0.utf8) })
                values.append(string)
            }
            events.append(.record(line: record.line, values: values))
        case .malformed(let line, let reason):
            events.append(.malformed(line: line, reason: reason.text))
        }
    }
    return (events, reader)
}

/// The chunk sizes that exercise every boundary case of a small file.
let tinyChunkSizes = [1, 2, 3, 4, 5, 7, 11, 64]
