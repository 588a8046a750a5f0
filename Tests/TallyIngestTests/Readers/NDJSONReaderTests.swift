import Foundation
import Testing
@testable import TallyIngest

@Suite("NDJSON reader")
struct NDJSONReaderTests {
    let fields = ["id", "coupleId", "amount", "split"]

    private func events(_ lines: [String], fields: [String]? = nil, name: String = "t.ndjson") throws -> [Event] {
        let dir = try TemporaryDirectory()
        return try readAll(try dir.file(name, lines.joined(separator: "\n") + "\n"), fields: fields ?? self.fields).events
    }

    @Test("string escapes are decoded")
    func escapes() throws {
        let got = try events([#"{"id":"a\"b\\c\/d\b\f\n\r\te"}"#])
        #expect(got == [.rec(1, "a\"b\\c/d\u{8}\u{C}\n\r\te", nil, nil, nil)])
    }

    @Test("\\u escapes, surrogate pairs and raw UTF-8 become UTF-8")
    func unicode() throws {
        let got = try events([
            #"{"id":"caf\u00e9 \u20AC \ud83c\udf55","coupleId":"Café 🍕","amount":"\u0041"}"#,
        ])
        #expect(got == [.rec(1, "café € 🍕", "Café 🍕", "A", nil)])
    }

    @Test("numbers are their text, booleans their word; null and empty strings are absent")
    func scalars() throws {
        let got = try events([
            #"{"id":12.5,"coupleId":-3,"amount":1e400,"split":true}"#,
            #"{"id":0,"coupleId":-0.5E+3,"amount":false,"split":null}"#,
            #"{"id":"","coupleId":null}"#,
        ])
        #expect(got == [
            .rec(1, "12.5", "-3", "1e400", "true"),
            .rec(2, "0", "-0.5E+3", "false", nil),
            .rec(3, nil, nil, nil, nil),
        ])
    }

    @Test("a nested value of a known field is its raw JSON text; of an unknown key it is skipped")
    func nestedValues() throws {
        let dir = try TemporaryDirectory()
        let url = try dir.file("t.jsonl", #"{"id":"1","meta":{"a":[1,{"b":"\u00e9"}],"c":null},"split":{"m1": 2, "m2":[1, "x"]},"tags":[]}"# + "\n")
        let (got, reader) = try readAll(url, fields: fields)
        #expect(got == [.rec(1, "1", nil, nil, #"{"m1": 2, "m2":[1, "x"]}"#)])
        #expect(reader.unknownFields == ["meta", "tags"])
        #expect(reader.format == .ndjson)
    }

    @Test("nesting 100,000 deep does not crash")
    func deepNesting() throws {
        let depth = 100_000
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        let unbalanced = String(repeating: "[", count: depth) + String(repeating: "]", count: depth - 1)
        let got = try events([
            #"{"id":"1","deep":"# + arrays + "}",
            #"{"id":"2","split":"# + objects + "}",
            #"{"id":"3","deep":"# + unbalanced + "}",
        ])
        #expect(got.count == 3)
        #expect(got[0] == .rec(1, "1", nil, nil, nil))
        #expect(got[1] == .rec(2, "2", nil, nil, objects))
        #expect(got[2] == .malformed(line: 3, reason: "line is not valid JSON: expected ',' or ']', found '}' at byte \(17 + 2 * depth) (in field 'deep')"))
    }

    @Test("invalid lines are malformed with a reason; the next line is read")
    func invalidLines() throws {
        let lines = [
            #"[1,2]"#,
            #""text""#,
            #"{"id":1,}"#,
            #"{"id":1} x"#,
            #"{"id":"abc}"#,
            #"{"id":"a\qb"}"#,
            #"{"id":"\ud800x"}"#,
            #"{"id":01}"#,
            #"{"id":+1}"#,
            #"{"id":.5}"#,
            #"{"id":1.}"#,
            #"{"id":tru}"#,
            #"{"id" 1}"#,
            #"{"id":1 "amount":2}"#,
            #"{"id":"a"#,
            "{\"id\":\"a\tb\"}",
            #"{"id":"\u0000"}"#,
            #"{"id":[1,2}"#,
            #"{"id":"ok"}"#,
        ]
        let got = try events(lines)
        #expect(got == [
            .malformed(line: 1, reason: "line is not a JSON object: it starts with '['"),
            .malformed(line: 2, reason: "line is not a JSON object: it starts with '\"'"),
            .malformed(line: 3, reason: "line is not valid JSON: expected a key in double quotes, found '}' at byte 9"),
            .malformed(line: 4, reason: "line is not valid JSON: unexpected 'x' after the end of the object at byte 10"),
            .malformed(line: 5, reason: "line is not valid JSON: unterminated string at byte 7 (in field 'id')"),
            .malformed(line: 6, reason: "line is not valid JSON: invalid escape \\q at byte 9 (in field 'id')"),
            .malformed(line: 7, reason: "line is not valid JSON: unpaired surrogate \\uD800 at byte 8 (in field 'id')"),
            .malformed(line: 8, reason: "line is not valid JSON: expected ',' or '}' after a value, found '1' at byte 8"),
            .malformed(line: 9, reason: "line is not valid JSON: expected a value, found '+' at byte 7 (in field 'id')"),
            .malformed(line: 10, reason: "line is not valid JSON: expected a value, found '.' at byte 7 (in field 'id')"),
            .malformed(line: 11, reason: "line is not valid JSON: invalid number at byte 7 (in field 'id')"),
            .malformed(line: 12, reason: "line is not valid JSON: unexpected 't' at byte 7 (in field 'id')"),
            .malformed(line: 13, reason: "line is not valid JSON: expected ':' after a key, found '1' at byte 7 (in field 'id')"),
            .malformed(line: 14, reason: "line is not valid JSON: expected ',' or '}' after a value, found '\"' at byte 9"),
            .malformed(line: 15, reason: "line is not valid JSON: unterminated string at byte 7 (in field 'id')"),
            .malformed(line: 16, reason: "line is not valid JSON: unescaped control character 0x09 in a string at byte 9 (in field 'id')"),
            .malformed(line: 17, reason: "NUL character in field 'id' at byte 8"),
            .malformed(line: 18, reason: "line is not valid JSON: expected ',' or ']', found '}' at byte 11 (in field 'id')"),
            .rec(19, "ok", nil, nil, nil),
        ])
    }

    @Test("invalid UTF-8 in a value or a key is malformed")
    func invalidUTF8() throws {
        let dir = try TemporaryDirectory()
        var bytes = Array(#"{"id":"a"#.utf8) + [0xC3, 0x28] + Array("\"}\n".utf8)
        bytes += Array(#"{"k"#.utf8) + [0xFF] + Array("\":1}\n".utf8)
        bytes += Array(#"{"split":{"x":""#.utf8) + [0xF5, 0x80, 0x80, 0x80] + Array("\"}}\n".utf8)
        let (got, _) = try readAll(try dir.file("t.ndjson", bytes: bytes), fields: fields)
        #expect(got == [
            .malformed(line: 1, reason: "invalid UTF-8 in field 'id' at byte 9"),
            .malformed(line: 2, reason: "invalid UTF-8 in a key at byte 4"),
            .malformed(line: 3, reason: "invalid UTF-8 in field 'split' at byte 16"),
        ])
    }

    @Test("a repeated key: the last value wins, null included")
    func duplicateKeys() throws {
        let got = try events([
            #"{"id":"1","id":"2","amount":"5","amount":null}"#,
        ])
        #expect(got == [.rec(1, "2", nil, nil, nil)])
    }

    @Test("blank and whitespace-only lines are skipped; CRLF lines and surrounding spaces are fine")
    func blankLines() throws {
        let dir = try TemporaryDirectory()
        let url = try dir.file("t.ndjson", "\n{\"id\":\"1\"}\r\n   \n\t\r\n  { \"id\" : \"2\" , \"amount\" : 3 }  \r\n{\"id\":\"3\"}")
        let (got, reader) = try readAll(url, fields: fields)
        #expect(got == [.rec(2, "1", nil, nil, nil), .rec(5, "2", nil, "3", nil), .rec(6, "3", nil, nil, nil)])
        #expect(reader.recordsRead == 3)
    }

    @Test("keys match fields in snake_case, camelCase, any case and with escapes; keys may change order")
    func keyMatching() throws {
        let schema = ["id", "coupleId", "userPhotoURL", "walkingDistanceKm"]
        let dir = try TemporaryDirectory()
        let lines = [
            #"{"id":"1","couple_id":"c","user_photo_url":"u","walking_distance_km":2}"#,
            #"{"walkingDistanceKm":3,"userPhotoURL":"v","coupleId":"d","id":"2","x":1}"#,
            #"{"ID":"3","co\u0075pleId":"e","y":{},"x":2}"#,
            #"{}"#,
        ]
        let (got, reader) = try readAll(try dir.file("t.jsonl", lines.joined(separator: "\n")), fields: schema)
        #expect(got == [
            .rec(1, "1", "c", "u", "2"),
            .rec(2, "2", "d", "v", "3"),
            .rec(3, "3", "e", nil, nil),
            .rec(4, nil, nil, nil, nil),
        ])
        #expect(reader.unknownFields == ["x", "y"])
        #expect(reader.missingFields.isEmpty)
    }

    @Test("every chunk size gives the same events")
    func chunkSizes() throws {
        let dir = try TemporaryDirectory()
        let text = "\u{FEFF}{\"id\":\"é\\n\",\"split\":[1,{\"a\":\"\\ud83c\\udf55\"}]}\r\n\n{\"id\":2,\"amount\":\"x\"}\n{bad\n{\"id\":\"last\"}"
        let url = try dir.file("t.ndjson", text)
        let (expected, _) = try readAll(url, fields: fields)
        #expect(expected == [
            .rec(1, "é\n", nil, nil, #"[1,{"a":"\ud83c\udf55"}]"#),
            .rec(3, "2", nil, "x", nil),
            .malformed(line: 4, reason: "line is not valid JSON: expected a key in double quotes, found 'b' at byte 2"),
            .rec(5, "last", nil, nil, nil),
        ])
        for chunkSize in tinyChunkSizes {
            let (events, _) = try readAll(url, fields: fields, chunkSize: chunkSize)
            #expect(events == expected, "chunk size \(chunkSize)")
        }
    }
}
