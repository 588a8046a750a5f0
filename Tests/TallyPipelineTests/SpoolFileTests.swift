import Foundation
import Testing
@testable import TallyPipeline

/// A worker's temporary file: bytes in memory until a threshold, then on
/// disk; a file refused late takes back what it added (``SpoolFile/truncate(to:)``).
@Suite("Dataflow: spool files")
struct SpoolFileTests {
    static func filled(_ spool: SpoolFile, _ count: Int, from start: Int = 0) throws {
        for i in start..<(start + count) { try spool.append([UInt8(truncatingIfNeeded: i)]) }
    }

    static func bytes(_ count: Int, from start: Int = 0) -> [UInt8] { (start..<(start + count)).map { UInt8(truncatingIfNeeded: $0) } }

    @Test("what is appended comes back whole, from memory or from the file", arguments: [10, 64, 65, 1000])
    func appendedBytesComeBack(count: Int) throws {
        let work = try temporaryFolder("spool-back")
        defer { try? FileManager.default.removeItem(at: work) }
        let spool = SpoolFile(url: work.appendingPathComponent("s"), flushBytes: 64, holding: "test bytes")
        try Self.filled(spool, count)
        #expect(spool.length == count)
        #expect(FileManager.default.fileExists(atPath: spool.url.path) == (count >= 64), "a file only past the threshold")
        #expect(try spool.consume { Array($0) } == Self.bytes(count))
        #expect(spool.length == 0)
        #expect(!FileManager.default.fileExists(atPath: spool.url.path), "consumed: the file is removed")
    }

    @Test("truncation drops what came after the mark, in memory or on disk, and appending goes on after it",
          arguments: [(mark: 10, more: 20), (mark: 10, more: 500), (mark: 200, more: 30), (mark: 200, more: 500), (mark: 0, more: 100)])
    func truncationTakesBack(mark: Int, more: Int) throws {
        let work = try temporaryFolder("spool-truncate")
        defer { try? FileManager.default.removeItem(at: work) }
        let spool = SpoolFile(url: work.appendingPathComponent("s"), flushBytes: 64, holding: "test bytes")
        try Self.filled(spool, mark)
        let length = spool.length
        try Self.filled(spool, more, from: 1000)
        try spool.truncate(to: length)
        #expect(spool.length == mark)
        try Self.filled(spool, 5, from: 77)
        #expect(try spool.consume { Array($0) } == Self.bytes(mark) + Self.bytes(5, from: 77))
    }
}
