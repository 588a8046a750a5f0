import Foundation
import Testing
@testable import TallyIngest

@Suite("records across chunk boundaries and over the size limit")
struct ChunkBoundaryTests {
    let fields = ["id", "description", "amount"]

    /// A description of varying length, sometimes with quotes, commas and newlines.
    private func description(_ i: Int) -> String {
        let word = String(repeating: "w", count: (i * 37) % 300)
        switch i % 4 {
        case 0: return word
        case 1: return "\(word), \"q\""
        case 2: return "\(word)\nsecond line"
        default: return "é\(word)🍕"
        }
    }

    private func csvField(_ s: String) -> String {
        s.contains(",") || s.contains("\"") || s.contains("\n") ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
    }

    @Test("a 3 MiB CSV file read in 1 MiB chunks gives every record, with its start line")
    func csvAcrossMegabyteChunks() throws {
        let dir = try TemporaryDirectory()
        var text = "id,description,amount\r\n"
        var expected: [Event] = []
        var line = 2
        var i = 0
        while text.utf8.count < 3 << 20 {
            let d = description(i)
            text += "\(i),\(csvField(d)),\(i).5\r\n"
            expected.append(.rec(line, "\(i)", d.isEmpty ? nil : d, "\(i).5"))
            line += 1 + d.filter { $0 == "\n" }.count
            i += 1
        }
        let (events, reader) = try readAll(try dir.file("big.csv", text), fields: fields)
        #expect(events.count == expected.count)
        #expect(events == expected)
        #expect(reader.recordsRead == expected.count)
        #expect(reader.bytesConsumed == Int64(text.utf8.count))
    }

    @Test("a 3 MiB NDJSON file read in 1 MiB chunks gives every line")
    func ndjsonAcrossMegabyteChunks() throws {
        let dir = try TemporaryDirectory()
        var text = ""
        var expected: [Event] = []
        var i = 0
        while text.utf8.count < 3 << 20 {
            let d = description(i)
            let escaped = d.replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
            text += "{\"id\":\"\(i)\",\"description\":\"\(escaped)\",\"amount\":\(i).5}\n"
            expected.append(.rec(i + 1, "\(i)", d.isEmpty ? nil : d, "\(i).5"))
            i += 1
        }
        let (events, _) = try readAll(try dir.file("big.ndjson", text), fields: fields)
        #expect(events == expected)
    }

    @Test("a CSV record over the limit is malformed and skipped with bounded memory; over lines, it costs each line")
    func oversizedCSVRecord() throws {
        let dir = try TemporaryDirectory()
        let long = String(repeating: "x", count: 200_000)
        // Lines 5…305: `4,"y`, then `"",y` 299 times, then `"",",4` (whose quote runs to the end).
        let longQuoted = "\"" + String(repeating: "y\n\"\",", count: 300) + "\""
        let text = "id,description,amount\n1,a,1\n2,\(long),2\n3,b,3\n4,\(longQuoted),4\n5,c,5\n6,\(String(repeating: "z", count: 1001)),6\n"
        let (events, reader) = try readAll(try dir.file("t.csv", text), fields: fields, maxRecordBytes: 1000, chunkSize: 256)
        #expect(events == [
            .rec(2, "1", "a", "1"),
            .malformed(line: 3, reason: "record longer than 1000 bytes"),
            .rec(4, "3", "b", "3"),
            .malformed(line: 5, reason: "unbalanced quote in field 'description': the quoted text runs past 1000 bytes; the line was read alone"),
        ] + (6..<305).map { .malformed(line: $0, reason: "has 2 fields, the header has 3") } + [
            .malformed(line: 305, reason: "unbalanced quote in field 'description': the quoted text runs past 1000 bytes; the line was read alone"),
            .rec(306, "5", "c", "5"),
            .malformed(line: 307, reason: "record longer than 1000 bytes"),
        ])
        #expect(reader.buffer.capacity <= 4 * (1000 + 256))
    }

    @Test("a 20 MB single-line CSV record or NDJSON line does not get buffered whole")
    func hugeLines() throws {
        let dir = try TemporaryDirectory()
        let huge = String(repeating: "0123456789", count: 2_000_000)
        let csv = try dir.file("t.csv", "id,description,amount\n1,\(huge),1\n2,b,2\n")
        let (csvEvents, csvReader) = try readAll(csv, fields: fields, maxRecordBytes: 1 << 20)
        #expect(csvEvents == [.malformed(line: 2, reason: "record longer than 1048576 bytes"), .rec(3, "2", "b", "2")])
        #expect(csvReader.buffer.capacity <= 4 << 20)

        let json = try dir.file("t.ndjson", "{\"id\":\"1\",\"description\":\"\(huge)\"}\n{\"id\":\"2\"}\n{\"id\":\"\(huge)")
        let (jsonEvents, jsonReader) = try readAll(json, fields: fields, maxRecordBytes: 1 << 20)
        #expect(jsonEvents == [
            .malformed(line: 1, reason: "record longer than 1048576 bytes"),
            .rec(2, "2", nil, nil),
            .malformed(line: 3, reason: "record longer than 1048576 bytes"),
        ])
        #expect(jsonReader.buffer.capacity <= 4 << 20)
        #expect(jsonReader.recordsRead == 3)
    }
}
