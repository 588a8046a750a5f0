import Foundation
import Testing
import TallyIngest

/// Broken and hostile bytes reach the readers: each bad record is reported
/// with its line and a reason, the good records around it are read, and
/// nothing crashes, hangs or grows without bound.
@Suite("Hostile input: readers")
struct HostileReaderTests {
    typealias F = HostileFixtures

    @Test func invalidUTF8InACSVFieldIsRejectedWithItsField() throws {
        let events = try F.events(F.reader("invalid-utf8.csv"))
        #expect(events.count == 7)
        #expect(events.first == .record(line: 2, id: "e1"))
        #expect(events.last == .record(line: 8, id: "e7"))
        // Latin-1 é, a bad continuation, an overlong '/', a UTF-16 surrogate, beyond U+10FFFF.
        for line in 3...7 {
            #expect(events[line - 2] == .malformed(line: line, reason: "invalid UTF-8 in field 'description'"), "line \(line)")
        }
    }

    @Test func nulBytesInACSVAreRejectedWithTheirField() throws {
        let events = try F.events(F.reader("nul-bytes.csv"))
        #expect(events == [
            .record(line: 2, id: "e1"),
            .malformed(line: 3, reason: "NUL byte in field 'description'"),
            .malformed(line: 4, reason: "NUL byte in field 'id'"),
            .malformed(line: 5, reason: "NUL byte in field 'description'"),
            .record(line: 6, id: "e5"),
        ])
    }

    @Test func csvRowsWithTooManyOrTooFewFieldsAreRejected() throws {
        let events = try F.events(F.reader("field-counts.csv"))
        #expect(events == [
            .record(line: 2, id: "e1"),
            .malformed(line: 3, reason: "has 16 fields, the header has 14"),
            .malformed(line: 4, reason: "has 4 fields, the header has 14"),
            // line 5 is blank: skipped, not counted
            .malformed(line: 6, reason: "has 1 fields, the header has 14"),
            .record(line: 7, id: "e5"),
        ])
    }

    @Test func anUnbalancedQuoteAtTheEndOfTheFileRejectsOnlyItsLines() throws {
        let events = try F.events(F.reader("unbalanced-quote.csv"))
        #expect(events == [
            .record(line: 2, id: "e1"),
            .record(line: 3, id: "e2"),
            .malformed(line: 4, reason: "unbalanced quote in field 'description'; the line was read alone"),
            .malformed(line: 5, reason: "has 1 fields, the header has 14"),
        ])
    }

    @Test func invalidUTF8AndLoneSurrogatesInNDJSONAreRejected() throws {
        let events = try F.events(F.reader("invalid-utf8.ndjson"))
        #expect(events.count == 5)
        #expect(events[0] == .record(line: 1, id: "e1"))
        #expect(events[4] == .record(line: 5, id: "e5"))
        for event in events[1...3] {
            #expect(event.reason != nil, "\(event)")
        }
    }

    @Test func nulBytesInNDJSONRawOrEscapedAreRejected() throws {
        let events = try F.events(F.reader("nul.ndjson"))
        #expect(events.count == 5)
        #expect(events[0] == .record(line: 1, id: "e1"))
        #expect(events[4] == .record(line: 5, id: "e5"))
        for event in events[1...2] {
            #expect(event.reason?.contains("NUL character") == true, "\(event)")
        }
        #expect(events[3] == .malformed(line: 4, reason: "line is not a JSON object: it starts with byte 0x00"))
    }

    @Test func jsonNested100000DeepIsReadWithoutRecursion() throws {
        let folder = try TemporaryDirectory()
        let depth = 100_000
        let deepValue = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let deepObject = String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
        let unclosed = String(repeating: "[", count: depth)
        let text = """
            {"id":"e1","split":\(deepValue)}
            {"id":"e2","split":\(deepObject)}
            \(deepObject)
            {"id":"e4","split":\(unclosed)}
            {"id":"e5"}

            """
        let events = try F.events(try folder.file("deep.ndjson", text))
        #expect(events.count == 5)
        #expect(events[0] == .record(line: 1, id: "e1"))   // a nested value is kept as raw JSON text
        #expect(events[1] == .record(line: 2, id: "e2"))
        #expect(events[2] == .record(line: 3, id: ""))      // an object without the fields: all absent
        #expect(events[3].reason != nil, "\(events[3])")
        #expect(events[4] == .record(line: 5, id: "e5"))
    }

    @Test(arguments: ["csv", "ndjson"])
    func a100MBLineIsRejectedWithoutBufferingIt(format: String) throws {
        let folder = try TemporaryDirectory()
        let url = folder.url.appendingPathComponent("long.\(format)")
        let header = format == "csv" ? "id,description\n" : ""
        let first = format == "csv" ? "e1,short\n" : "{\"id\":\"e1\"}\n"
        let last = format == "csv" ? "e3,after\n" : "{\"id\":\"e3\"}\n"
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        try handle.write(contentsOf: Data((header + first + (format == "csv" ? "e2," : "{\"id\":\"e2\",\"description\":\"")).utf8))
        for _ in 0..<100 { try handle.write(contentsOf: chunk) }
        try handle.write(contentsOf: Data(((format == "csv" ? "\n" : "\"}\n") + last).utf8))
        try handle.close()

        let limit = 4 << 20
        let events = try F.events(url, fields: ["id", "description"], maxRecordBytes: limit)
        let line = format == "csv" ? 2 : 1
        #expect(events == [
            .record(line: line, id: "e1"),
            .malformed(line: line + 1, reason: "record longer than \(limit) bytes"),
            .record(line: line + 2, id: "e3"),
        ])
    }
}
