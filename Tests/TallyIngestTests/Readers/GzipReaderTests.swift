import Foundation
import Testing
@testable import TallyIngest

@Suite("gzip-compressed tables")
struct GzipReaderTests {
    let fields = ["id", "description", "amount"]
    let csv = "id,description,amount\n1,\"a\nb\",1\n2,c,2\n"

    @Test("a .csv.gz and a .jsonl.gz read like the plain files, at any chunk size")
    func roundTrip() throws {
        let dir = try TemporaryDirectory()
        let plain = try readAll(try dir.file("t.csv", csv), fields: fields).events
        #expect(plain.count == 2)
        let gz = try dir.gzipFile("t.CSV.GZ", bytes: Array(csv.utf8))
        for chunkSize in [1, 3, 1 << 20] {
            let (events, reader) = try readAll(gz, fields: fields, chunkSize: chunkSize)
            #expect(events == plain, "chunk size \(chunkSize)")
            #expect(reader.isCompressed)
            #expect(reader.bytesConsumed == (try FileManager.default.attributesOfItem(atPath: gz.path)[.size] as? NSNumber)?.int64Value)
        }
        let json = "{\"id\":\"1\"}\n{\"id\":\"2\",\"amount\":3}\n"
        let jsonGz = try dir.gzipFile("t.jsonl.gz", bytes: Array(json.utf8))
        let (events, reader) = try readAll(jsonGz, fields: fields)
        #expect(events == [.rec(1, "1", nil, nil), .rec(2, "2", nil, "3")])
        #expect(reader.format == .ndjson)
    }

    @Test("a multi-member gzip file reads as the concatenation of its members")
    func multiMember() throws {
        let dir = try TemporaryDirectory()
        let first = try gzip(Array("id,description,amount\n1,a,1\n2,".utf8))
        let second = try gzip(Array("b,2\n3,c,3\n".utf8))
        let url = try dir.file("t.csv.gz", bytes: first + second)
        for chunkSize in [2, 1 << 20] {
            let (events, _) = try readAll(url, fields: fields, chunkSize: chunkSize)
            #expect(events == [.rec(2, "1", "a", "1"), .rec(3, "2", "b", "2"), .rec(4, "3", "c", "3")])
        }
    }

    @Test("large members, an empty one among them, inflate byte for byte whatever the chunk and buffer sizes")
    func largeMembersAtEveryBoundary() throws {
        let dir = try TemporaryDirectory()
        // Text with little repetition: many deflate blocks per member, and
        // member ends falling anywhere within an input chunk.
        var generator = SystemRandomNumberGenerator()
        func text(_ count: Int) -> [UInt8] {
            (0..<count).map { _ in UInt8.random(in: 97...122, using: &generator) }
        }
        let members = [text(300_000), [], text(1), text(500_000)]
        let url = try dir.file("big.csv.gz", bytes: try members.flatMap { try gzip($0) })
        let expected = members.flatMap { $0 }
        for (chunk, buffer) in [(7, 1 << 16), (4096, 13), (1 << 20, 1 << 20)] {
            let source = try GzipByteSource(url: url, inputChunkSize: chunk)
            var got: [UInt8] = []
            let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer, alignment: 1)
            defer { scratch.deallocate() }
            while true {
                let n = try source.read(into: scratch)
                if n == 0 { break }
                got += scratch.prefix(n)
            }
            #expect(got == expected, "chunk \(chunk), buffer \(buffer)")
        }
    }

    @Test("corrupt or truncated gzip data is a ReaderError naming the file")
    func corrupt() throws {
        let dir = try TemporaryDirectory()
        var rows = "id,description,amount\n"
        for i in 0..<2000 { rows += "\(i),row \(i * 7919 % 1000),\(i)\n" }
        let good = try gzip(Array(rows.utf8))

        var flipped = good
        for k in (good.count / 2)..<(good.count / 2 + 16) { flipped[k] ^= 0x5A }
        let truncated = Array(good.prefix(good.count - 20))
        var badCRC = good
        badCRC[good.count - 6] ^= 0xFF  // inside the CRC-32 trailer
        let notGzip = Array("this is not gzip at all\n".utf8)

        for (name, bytes) in [("flipped.csv.gz", flipped), ("truncated.csv.gz", truncated), ("crc.csv.gz", badCRC), ("plain.csv.gz", notGzip)] {
            let url = try dir.file(name, bytes: bytes)
            let error = #expect(throws: ReaderError.self, "\(name)") {
                _ = try readAll(url, fields: fields)
            }
            #expect(error?.kind == .corruptGzip, "\(name)")
            #expect(error?.description.contains(name) == true)
        }
        let truncatedError = #expect(throws: ReaderError.self) {
            _ = try readAll(try dir.file("cut.csv.gz", bytes: truncated), fields: fields)
        }
        #expect(truncatedError?.reason.contains("truncated") == true)
    }

    @Test("a zero-byte .gz file holds no records")
    func emptyFile() throws {
        let dir = try TemporaryDirectory()
        let (events, reader) = try readAll(try dir.file("t.csv.gz", bytes: []), fields: fields)
        #expect(events.isEmpty)
        #expect(reader.recordsRead == 0)
    }
}
