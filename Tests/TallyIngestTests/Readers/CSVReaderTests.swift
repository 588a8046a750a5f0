import Foundation
import Testing
@testable import TallyIngest

@Suite("CSV reader")
struct CSVReaderTests {
    let fields = ["id", "description", "amount"]

    @Test("a BOM and CRLF line ends are handled; lines count from the header")
    func bomAndCRLF() throws {
        let dir = try TemporaryDirectory()
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("id,description,amount\r\n1,lunch,10.50\r\n2,dinner,20\r\n".utf8)
        let url = try dir.file("t.csv", bytes: bytes)
        let (events, reader) = try readAll(url, fields: fields)
        #expect(events == [.rec(2, "1", "lunch", "10.50"), .rec(3, "2", "dinner", "20")])
        #expect(reader.format == .csv)
        #expect(!reader.isCompressed)
        #expect(reader.recordsRead == 2)
        #expect(reader.unknownFields.isEmpty)
        #expect(reader.missingFields.isEmpty)
        #expect(reader.bytesConsumed == Int64(bytes.count))
    }

    @Test("quoted fields hold commas, doubled quotes and newlines; a record's line is where it starts")
    func quotedFields() throws {
        let dir = try TemporaryDirectory()
        let lines = [
            #"id,description,amount"#,
            #"1,"a, b",1"#,
            #"2,"say ""hi""",2"#,
            #"3,"multi"#,
            #"line"#,
            #"text",3"#,
            #"4,plain,4"#,
            #"5,"","""#,
            "6,\"x\r\ny\",\"\"\"\"\r",
            #"7,z,8"#,
        ]
        let url = try dir.file("t.csv", lines.joined(separator: "\n") + "\n")
        let (events, _) = try readAll(url, fields: fields)
        #expect(events == [
            .rec(2, "1", "a, b", "1"),
            .rec(3, "2", "say \"hi\"", "2"),
            .rec(4, "3", "multi\nline\ntext", "3"),
            .rec(7, "4", "plain", "4"),
            .rec(8, "5", nil, nil),
            .rec(9, "6", "x\r\ny", "\""),
            .rec(11, "7", "z", "8"),
        ])
    }

    @Test("blank lines are skipped and not counted")
    func blankLines() throws {
        let dir = try TemporaryDirectory()
        let url = try dir.file("t.csv", "\nid,description,amount\n\n1,a,1\n\r\n\n2,b,2\n\n")
        let (events, reader) = try readAll(url, fields: fields)
        #expect(events == [.rec(4, "1", "a", "1"), .rec(7, "2", "b", "2")])
        #expect(reader.recordsRead == 2)
    }

    @Test("a record with more or fewer fields than the header is malformed")
    func fieldCountMismatch() throws {
        let dir = try TemporaryDirectory()
        let url = try dir.file("t.csv", "id,description,amount\n1,a,1,extra\n2,b\n3,c,3")
        let (events, reader) = try readAll(url, fields: fields)
        #expect(events == [
            .malformed(line: 2, reason: "has 4 fields, the header has 3"),
            .malformed(line: 3, reason: "has 2 fields, the header has 3"),
            .rec(4, "3", "c", "3"),
        ])
        #expect(reader.recordsRead == 3)
    }

    @Test("an unterminated quote at the end of the file is malformed; over lines, it costs its first line only")
    func unterminatedQuote() throws {
        let dir = try TemporaryDirectory()
        let url = try dir.file("t.csv", "id,description,amount\n1,a,1\n2,\"never\nclosed,3\n4,d,4\n")
        let (events, _) = try readAll(url, fields: fields)
        #expect(events == [
            .rec(2, "1", "a", "1"),
            .malformed(line: 3, reason: "unbalanced quote in field 'description'; the line was read alone"),
            .malformed(line: 4, reason: "has 2 fields, the header has 3"),
            .rec(5, "4", "d", "4"),
        ])
        let (lastLine, _) = try readAll(try dir.file("u.csv", "id,description,amount\n1,a,1\n2,\"never closed"), fields: fields)
        #expect(lastLine == [
            .rec(2, "1", "a", "1"),
            .malformed(line: 3, reason: "unterminated quoted field 'description': the quote opened on line 3 is never closed"),
        ])
    }

    @Test("snake_case and camelCase headers match; unknown and missing fields are reported")
    func headerMatching() throws {
        let dir = try TemporaryDirectory()
        let schema = ["id", "coupleId", "userPhotoURL", "walkingDistanceKm", "note"]
        let url = try dir.file("t.csv", " ID ,couple_id,user_photo_url,walkingDistanceKm,extra,Extra2,extra,\n1,c1,http://x,2.5,e,f,g,\n")
        let (events, reader) = try readAll(url, fields: schema)
        #expect(events == [.rec(2, "1", "c1", "http://x", "2.5", nil)])
        #expect(reader.unknownFields == ["extra", "Extra2", "(unnamed column 8)"])
        #expect(reader.missingFields == ["note"])
    }

    @Test("a field named twice in the header is a file error")
    func duplicateHeader() throws {
        let dir = try TemporaryDirectory()
        let url = try dir.file("t.csv", "id,couple_id,coupleId\n1,a,b\n")
        let error = #expect(throws: ReaderError.self) { try TableReader(url: url, fields: ["id", "coupleId"]) }
        #expect(error?.kind == .badHeader)
        #expect(error?.description.contains("t.csv") == true)
        #expect(error?.reason.contains("'coupleId' twice") == true)
    }

    @Test("an empty file, or one with only a header, has no records")
    func emptyFiles() throws {
        let dir = try TemporaryDirectory()
        for (name, text) in [("empty.csv", ""), ("header.csv", "id,description,amount"), ("header-nl.csv", "id,description,amount\r\n\n")] {
            let (events, reader) = try readAll(try dir.file(name, text), fields: fields)
            #expect(events.isEmpty, "\(name)")
            #expect(reader.recordsRead == 0)
            #expect(reader.missingFields.isEmpty)
        }
        let (_, bomOnly) = try readAll(try dir.file("bom.csv", bytes: [0xEF, 0xBB, 0xBF]), fields: fields)
        #expect(bomOnly.recordsRead == 0)
    }

    @Test("empty values are absent; values are not trimmed; the last line may lack its newline")
    func emptyValues() throws {
        let dir = try TemporaryDirectory()
        let url = try dir.file("t.csv", "id,description,amount\n,, 3 \n1,\"\",\r")
        let (events, _) = try readAll(url, fields: fields)
        #expect(events == [.rec(2, nil, nil, " 3 "), .rec(3, "1", nil, nil)])
    }

    @Test("a quote inside an unquoted field is data; text after a closing quote is malformed")
    func strayQuotes() throws {
        let dir = try TemporaryDirectory()
        let url = try dir.file("t.csv", "id,description,amount\n1,5\" screen,1\n2,\"tv\" set,2\n3,c,3\n")
        let (events, _) = try readAll(url, fields: fields)
        #expect(events == [
            .rec(2, "1", "5\" screen", "1"),
            .malformed(line: 3, reason: "field 'description' has text after its closing quote"),
            .rec(4, "3", "c", "3"),
        ])
    }

    @Test("UTF-8 text is kept; invalid UTF-8 or a NUL byte makes the record malformed")
    func encoding() throws {
        let dir = try TemporaryDirectory()
        var bytes = Array("id,description,amount\n1,Café 🍕 ação,1\n2,".utf8)
        bytes += [0x61, 0xC3, 0x28] + Array(",2\n3,ok,3\n4,\"nul".utf8) + [0] + Array("\",4\n5,e,5\n".utf8)
        bytes += Array("6,x,".utf8) + [0xED, 0xA0, 0x80] + Array("\n".utf8)  // an encoded surrogate
        let (events, reader) = try readAll(try dir.file("t.csv", bytes: bytes), fields: fields)
        #expect(events == [
            .rec(2, "1", "Café 🍕 ação", "1"),
            .malformed(line: 3, reason: "invalid UTF-8 in field 'description'"),
            .rec(4, "3", "ok", "3"),
            .malformed(line: 5, reason: "NUL byte in field 'description'"),
            .rec(6, "5", "e", "5"),
            .malformed(line: 7, reason: "invalid UTF-8 in field 'amount'"),
        ])
        #expect(reader.recordsRead == 6)
    }

    @Test("an unusable header is a file error naming the file")
    func badHeaders() throws {
        let dir = try TemporaryDirectory()
        let cases: [(String, [UInt8], String)] = [
            ("q.csv", Array("id,\"desc\n".utf8), "unterminated quote"),
            ("u.csv", Array("id,d".utf8) + [0xFF] + Array("\n1,2\n".utf8), "not valid UTF-8"),
            ("n.csv", Array("id,d".utf8) + [0] + Array("\n".utf8), "NUL byte"),
        ]
        for (name, bytes, expected) in cases {
            let url = try dir.file(name, bytes: bytes)
            let error = #expect(throws: ReaderError.self) { try TableReader(url: url, fields: fields) }
            #expect(error?.kind == .badHeader)
            #expect(error?.reason.contains(expected) == true, "\(name): \(String(describing: error))")
            #expect(error?.description.hasPrefix(url.path) == true)
        }
    }

    @Test("a missing file, a directory or an unsupported name is a file error")
    func fileErrors() throws {
        let dir = try TemporaryDirectory()
        let missing = dir.url.appendingPathComponent("nope.csv")
        let notFound = #expect(throws: ReaderError.self) { try TableReader(url: missing, fields: fields) }
        #expect(notFound?.kind == .cannotOpen)
        #expect(notFound?.description.contains("nope.csv") == true)

        let text = try dir.file("t.txt", "id\n1\n")
        let unsupported = #expect(throws: ReaderError.self) { try TableReader(url: text, fields: fields) }
        #expect(unsupported?.kind == .unsupportedFileName)

        let folder = dir.url.appendingPathComponent("folder.csv")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let unreadable = #expect(throws: ReaderError.self) { try TableReader(url: folder, fields: fields) }
        #expect(unreadable?.kind == .cannotRead)
    }

    @Test("every chunk size gives the same events")
    func chunkSizes() throws {
        let dir = try TemporaryDirectory()
        let text = "\u{FEFF}id,description,amount\r\n1,\"a,\"\"b\"\"\r\nc\",\"\"\"\"\r\n\r\n2,x\"y,\r\n3,\"open\r\n"
        let url = try dir.file("t.csv", text)
        let (expected, _) = try readAll(url, fields: fields)
        #expect(expected == [
            .rec(2, "1", "a,\"b\"\r\nc", "\""),
            .rec(5, "2", "x\"y", nil),
            .malformed(line: 6, reason: "unbalanced quote in field 'description'; the line was read alone"),
        ])
        for chunkSize in tinyChunkSizes {
            let (events, _) = try readAll(url, fields: fields, chunkSize: chunkSize)
            #expect(events == expected, "chunk size \(chunkSize)")
        }
    }

    @Test("an error thrown by the callback stops reading and comes out of read")
    func callbackErrors() throws {
        struct Stop: Error {}
        let dir = try TemporaryDirectory()
        let reader = try TableReader(url: try dir.file("t.csv", "id,description,amount\n1,a,1\n2,b,2\n"), fields: fields)
        var seen = 0
        #expect(throws: Stop.self) {
            try reader.read { _ in
                seen += 1
                throw Stop()
            }
        }
        #expect(seen == 1)
    }
}
