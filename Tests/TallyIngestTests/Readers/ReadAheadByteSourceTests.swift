import Foundation
import Testing
@testable import TallyIngest

/// Bytes read ahead on a thread of their own (ReadAheadByteSource).
@Suite("Reading ahead")
struct ReadAheadByteSourceTests {
    /// A source that hands out `bytes` in pieces of at most `piece`, then
    /// fails when `failsAtEnd`, and counts how far it got.
    final class Scripted: ByteSource {
        let bytes: [UInt8]
        let piece: Int
        let failsAtEnd: Bool
        var position = 0
        var bytesConsumed: Int64 { Int64(position) }

        init(_ bytes: [UInt8], piece: Int, failsAtEnd: Bool = false) {
            self.bytes = bytes
            self.piece = piece
            self.failsAtEnd = failsAtEnd
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws(ReaderError) -> Int {
            let n = min(buffer.count, piece, bytes.count - position)
            if n == 0 && failsAtEnd {
                throw ReaderError(.corruptGzip, file: URL(fileURLWithPath: "/data/x.ndjson.gz"), reason: "scripted failure")
            }
            bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + position, byteCount: n) }
            position += n
            return n
        }
    }

    private func drain(_ source: ReadAheadByteSource, readSize: Int) throws(ReaderError) -> [UInt8] {
        var out: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readSize, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let n = try source.read(into: buffer)
            if n == 0 { return out }
            out.append(contentsOf: buffer.prefix(n))
        }
    }

    @Test func everyByteArrivesInOrderWhateverTheSizes() throws {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9) }
        for (chunk, piece, readSize, depth) in [(1, 1, 1, 1), (7, 3, 5, 2), (4096, 1000, 333, 4), (1 << 20, 65536, 8192, 3)] {
            let source = ReadAheadByteSource(Scripted(bytes, piece: piece), chunkSize: chunk, depth: depth)
            #expect(try drain(source, readSize: readSize) == bytes, "chunk \(chunk) piece \(piece) read \(readSize)")
            #expect(source.bytesConsumed == Int64(bytes.count))
            #expect(try drain(source, readSize: readSize).isEmpty)  // the end stays the end
        }
    }

    @Test func anErrorComesAfterEveryByteBeforeIt() {
        let bytes = Array(repeating: UInt8(ascii: "x"), count: 10_000)
        let source = ReadAheadByteSource(Scripted(bytes, piece: 999, failsAtEnd: true), chunkSize: 512, depth: 2)
        var got = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 300, alignment: 1)
        defer { buffer.deallocate() }
        do {
            while true { got += try source.read(into: buffer) }
        } catch {
            #expect(error.kind == .corruptGzip && error.reason == "scripted failure")
        }
        #expect(got == bytes.count)
    }

    @Test func aReaderThatStopsEarlyStopsTheThread() throws {
        // Far more than the buffers hold: the thread waits for room when the reader goes.
        let bytes = Array(repeating: UInt8(ascii: "y"), count: 1 << 20)
        for _ in 0..<50 {
            var source: ReadAheadByteSource? = ReadAheadByteSource(Scripted(bytes, piece: 4096), chunkSize: 4096, depth: 2)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 100, alignment: 1)
            #expect(try source!.read(into: buffer) == 100)
            buffer.deallocate()
            source = nil  // returns only once the thread has ended (else this test would hang)
            #expect(source == nil)
        }
    }

    @Test func gzipTablesReadTheSameThroughIt() throws {
        let folder = try TemporaryDirectory()
        let lines = (0..<5_000).map { #"{"id":"s\#($0)","n":\#($0)}"# }.joined(separator: "\n") + "\n"
        let url = try folder.gzipFile("t.ndjson.gz", bytes: Array(lines.utf8))
        let reader = try TableReader(url: url, fields: ["id", "n"], maxRecordBytes: 1 << 10, chunkSize: 97)
        var ids: [String] = []
        try reader.read { event in
            if case .record(let view) = event { ids.append(view.string(0) ?? "") }
        }
        #expect(ids == (0..<5_000).map { "s\($0)" })
    }
}
