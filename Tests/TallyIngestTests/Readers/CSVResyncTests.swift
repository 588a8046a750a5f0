import Foundation
import Testing
@testable import TallyIngest

@Suite("a broken quoted record costs its first line only")
struct CSVResyncTests {
    let fields = ["id", "description", "amount"]
    let unbalanced = "unbalanced quote in field 'description'; the line was read alone"

    @Test("a stray opening quote closed by text later: the first line is rejected, the swallowed lines are records")
    func textAfterClosingQuote() throws {
        let dir = try TemporaryDirectory()
        let text = "id,description,amount\n1,\"Padaria,10\n2,Mercado,5\n3,\"Rodízio \"\"X\"\"\",7\n4,d,4\n"
        let (events, reader) = try readAll(try dir.file("t.csv", text), fields: fields)
        #expect(events == [
            .malformed(line: 2, reason: unbalanced),
            .rec(3, "2", "Mercado", "5"),
            .rec(4, "3", "Rodízio \"X\"", "7"),
            .rec(5, "4", "d", "4"),
        ])
        #expect(reader.recordsRead == 4)
    }

    @Test("a quote closed at a line end, giving the wrong field count: the first line is rejected alone")
    func wrongFieldCount() throws {
        let dir = try TemporaryDirectory()
        // Read whole, lines 2–3 would be 4 fields: 1 | Padaria⏎2,b | 2 | extra.
        let text = "id,description,amount\n1,\"Padaria\n2,b\",2,extra\n3,c,3\n"
        let (events, reader) = try readAll(try dir.file("t.csv", text), fields: fields)
        #expect(events == [
            .malformed(line: 2, reason: unbalanced),
            .malformed(line: 3, reason: "has 4 fields, the header has 3"),
            .rec(4, "3", "c", "3"),
        ])
        #expect(reader.recordsRead == 3)

        let (few, _) = try readAll(try dir.file("f.csv", "id,description,amount\n1,\"a\nb\"\n2,b,2\n"), fields: fields)
        #expect(few == [
            .malformed(line: 2, reason: unbalanced),
            .malformed(line: 3, reason: "has 1 fields, the header has 3"),
            .rec(4, "2", "b", "2"),
        ])
    }

    @Test("the end of the file inside a quote: the first line is rejected, the lines after it are read")
    func endOfFileInsideQuote() throws {
        let dir = try TemporaryDirectory()
        let text = "id,description,amount\n1,a,1\n2,\"never closed,2\n3,c,3\n4,d,4"
        let (events, reader) = try readAll(try dir.file("t.csv", text), fields: fields)
        #expect(events == [
            .rec(2, "1", "a", "1"),
            .malformed(line: 3, reason: unbalanced),
            .rec(4, "3", "c", "3"),
            .rec(5, "4", "d", "4"),
        ])
        #expect(reader.recordsRead == 4)
    }

    @Test("a well-formed quoted field with line breaks stays one record")
    func wellFormedMultilineField() throws {
        let dir = try TemporaryDirectory()
        let text = "id,description,amount\n1,\"first\nsecond, \"\"third\"\"\n\",1\n2,b,2\n"
        let (events, reader) = try readAll(try dir.file("t.csv", text), fields: fields)
        #expect(events == [.rec(2, "1", "first\nsecond, \"third\"\n", "1"), .rec(5, "2", "b", "2")])
        #expect(reader.recordsRead == 2)
    }

    @Test("CRLF lines: the rejected line keeps its CR, the next line starts clean")
    func crlf() throws {
        let dir = try TemporaryDirectory()
        let text = "id,description,amount\r\n1,\"Padaria,10\r\n2,Mercado,5\r\n3,\"ok\r\nline\",3\r\n"
        let (events, _) = try readAll(try dir.file("t.csv", text), fields: fields)
        #expect(events == [
            .malformed(line: 2, reason: unbalanced),
            .rec(3, "2", "Mercado", "5"),
            .rec(4, "3", "ok\r\nline", "3"),
        ])
    }

    @Test("the field named is the one whose quote spans the line end")
    func namesTheField() throws {
        let dir = try TemporaryDirectory()
        let text = "id,description,amount\n\"1\",\"ok\",\"10\n2,b,2\n"
        let (events, _) = try readAll(try dir.file("t.csv", text), fields: fields)
        #expect(events == [
            .malformed(line: 2, reason: "unbalanced quote in field 'amount'; the line was read alone"),
            .rec(3, "2", "b", "2"),
        ])
    }

    @Test("several stray quotes in a row each cost one line")
    func repeatedStrayQuotes() throws {
        let dir = try TemporaryDirectory()
        var text = "id,description,amount\n"
        var expected: [Event] = []
        for i in 0..<20 {
            if i % 3 == 0 {
                text += "\(i),\"stray \(i),\(i)\n"
                expected.append(.malformed(line: i + 2, reason: unbalanced))
            } else {
                text += "\(i),d\(i),\(i)\n"
                expected.append(.rec(i + 2, "\(i)", "d\(i)", "\(i)"))
            }
        }
        let (events, reader) = try readAll(try dir.file("t.csv", text), fields: fields)
        #expect(events == expected)
        #expect(reader.recordsRead == 20)
    }

    @Test("the resync gives the same events at every chunk size, and from gzip")
    func acrossChunkBoundaries() throws {
        let dir = try TemporaryDirectory()
        let text = "\u{FEFF}id,description,amount\r\n1,\"Padaria,10\r\n2,Mercado,5\r\n3,\"a\r\nb\",3\r\n4,\"x\"y\nz\",4\n5,e,5\n6,\"open\n7,g,7"
        let url = try dir.file("t.csv", text)
        let (expected, _) = try readAll(url, fields: fields)
        #expect(expected == [
            .malformed(line: 2, reason: unbalanced),
            .rec(3, "2", "Mercado", "5"),
            .rec(4, "3", "a\r\nb", "3"),
            .malformed(line: 6, reason: "has 2 fields, the header has 3"),   // `4,"x"y` ends at its line break
            .malformed(line: 7, reason: "has 2 fields, the header has 3"),
            .rec(8, "5", "e", "5"),
            .malformed(line: 9, reason: unbalanced),
            .rec(10, "7", "g", "7"),
        ])
        let gz = try dir.gzipFile("t.csv.gz", bytes: Array(text.utf8))
        for chunkSize in tinyChunkSizes {
            let (events, _) = try readAll(url, fields: fields, chunkSize: chunkSize)
            #expect(events == expected, "chunk size \(chunkSize)")
            let (gzipped, reader) = try readAll(gz, fields: fields, chunkSize: chunkSize)
            #expect(gzipped == expected, "gzip, chunk size \(chunkSize)")
            #expect(reader.recordsRead == 8)
        }
    }

    @Test("a stray quote in a file with no other quote stops at the size limit and resumes at the next line")
    func runawayQuoteOverTheLimit() throws {
        let dir = try TemporaryDirectory()
        var text = "id,description,amount\n0,\"stray,0\n"
        var expected: [Event] = [.malformed(line: 2, reason: "unbalanced quote in field 'description': the quoted text runs past 1000 bytes; the line was read alone")]
        for i in 1...200 {
            text += "\(i),d\(i),\(i)\n"
            expected.append(.rec(i + 2, "\(i)", "d\(i)", "\(i)"))
        }
        let url = try dir.file("t.csv", text)
        for chunkSize in [7, 256, 4096] {
            let (events, reader) = try readAll(url, fields: fields, maxRecordBytes: 1000, chunkSize: chunkSize)
            #expect(events == expected, "chunk size \(chunkSize)")
            #expect(reader.recordsRead == 201)
            #expect(reader.buffer.capacity <= 4 * (1000 + chunkSize))
        }
    }

    @Test("a first line over the limit whose quote then spans lines is rejected alone")
    func longFirstLine() throws {
        let dir = try TemporaryDirectory()
        let long = String(repeating: "x", count: 3000)
        let text = "id,description,amount\n1,\(long),\"open\n2,b,2\n"
        let (events, _) = try readAll(try dir.file("t.csv", text), fields: fields, maxRecordBytes: 1000, chunkSize: 64)
        #expect(events == [
            .malformed(line: 2, reason: "record longer than 1000 bytes; the line was read alone"),
            .rec(3, "2", "b", "2"),
        ])
    }
}

extension CSVResyncTests {
    @Test("an empty first field before a quote that outgrows the limit is not taken for a blank line")
    func emptyFirstFieldBeforeRunawayQuote() throws {
        let dir = try TemporaryDirectory()
        let text = "id,description,amount\n,\"open\n1,a,1\n2,b,2\n3,c,3\n"
        let (events, _) = try readAll(try dir.file("t.csv", text), fields: fields, maxRecordBytes: 21, chunkSize: 1)
        #expect(events == [
            .malformed(line: 2, reason: "unbalanced quote in field 'description': the quoted text runs past 21 bytes; the line was read alone"),
            .rec(3, "1", "a", "1"),
            .rec(4, "2", "b", "2"),
            .rec(5, "3", "c", "3"),
        ])
    }
}

extension CSVResyncTests {
    @Test("a header whose quote runs over lines past the limit is a file error, read with bounded memory")
    func headerWithRunawayQuote() throws {
        let dir = try TemporaryDirectory()
        let text = "id,\"description\n" + String(repeating: "1,a,1\n", count: 2_000)
        let url = try dir.file("t.csv", text)
        let error = #expect(throws: ReaderError.self) {
            _ = try TableReader(url: url, fields: fields, maxRecordBytes: 1000, chunkSize: 64)
        }
        #expect(error?.kind == .badHeader)
        #expect(error?.reason == "the header row (line 1) has an unterminated quote")
    }
}
