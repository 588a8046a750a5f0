import Foundation
import Testing
import TallyCore
@testable import TallyIngest

@Suite("random inputs")
struct RandomInputTests {
    let fields = ["a", "b", "c"]

    /// Random documents built from the tokens that matter to a parser.
    private func document(_ tokens: [[UInt8]], length: Int, using rng: inout SplitMix64) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<length { bytes += tokens.randomElement(using: &rng)! }
        return bytes
    }

    /// Events, or the error's description, so runs can be compared.
    private func outcome(_ url: URL, maxRecordBytes: Int, chunkSize: Int) -> String {
        do {
            let (events, reader) = try readAll(url, fields: fields, maxRecordBytes: maxRecordBytes, chunkSize: chunkSize)
            return "\(events) read=\(reader.recordsRead) unknown=\(reader.unknownFields) missing=\(reader.missingFields)"
        } catch {
            return "error: \(error)"
        }
    }

    @Test("random CSV and NDJSON bytes never crash and read the same at every chunk size")
    func chunkSizeIndependence() throws {
        let dir = try TemporaryDirectory()
        var rng = SplitMix64(seed: 20_261_003)
        let csvTokens: [[UInt8]] = ["a", "b", "c", "xyz", ",", ",", "\"", "\"\"", "\n", "\r\n", "\r", " ", "é", "\u{1F355}"].map { Array($0.utf8) }
            + [[0xC3], [0xFF], [0x00], [0xEF, 0xBB, 0xBF]]
        let jsonTokens: [[UInt8]] = ["{", "}", "[", "]", "\"a\"", "\"b\"", "\"zz\"", ":", ",", "\"", "\\", "\\u00e9", "\\ud83c", "\\udf55", "\\n", "1", "-2.5e3", "0", "true", "null", "\n", " ", "é"].map { Array($0.utf8) }
            + [[0xC3], [0x00]]
        var outcomes: [String] = []
        for round in 0..<150 {
            let csvHeader = round % 3 == 0 ? [] : Array("a,b,c\n".utf8)
            let csv = try dir.file("r\(round).csv", bytes: csvHeader + document(csvTokens, length: Int.random(in: 0..<120, using: &rng), using: &rng))
            let json = try dir.file("r\(round).ndjson", bytes: document(jsonTokens, length: Int.random(in: 0..<120, using: &rng), using: &rng))
            for url in [csv, json] {
                for limit in [1 << 20, 12] {
                    let reference = outcome(url, maxRecordBytes: limit, chunkSize: 1 << 20)
                    outcomes.append(reference)
                    for chunkSize in [1, 2, 5] {
                        #expect(outcome(url, maxRecordBytes: limit, chunkSize: chunkSize) == reference, "\(url.lastPathComponent) limit \(limit) chunk \(chunkSize)")
                    }
                }
            }
        }
        // The inputs reach every outcome, not only errors.
        #expect(outcomes.contains { $0.contains("record(") })
        #expect(outcomes.contains { $0.contains("malformed(") && $0.contains("longer than") })
        #expect(outcomes.contains { $0.contains("line is not valid JSON") })
        #expect(outcomes.contains { $0.contains("the header has 3") })
        #expect(outcomes.contains { $0.hasPrefix("error:") })
    }

    @Test("well-formed random CSV round-trips its values")
    func csvRoundTrip() throws {
        let dir = try TemporaryDirectory()
        var rng = SplitMix64(seed: 42)
        let pieces = ["x", "y,z", "\"", "\n", "\r\n", " ", "é", "", "🍕"]
        var text = "a,b,c\n"
        var expected: [Event] = []
        var line = 2
        for _ in 0..<500 {
            let values = (0..<3).map { _ in (0..<Int.random(in: 0..<4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined() }
            if values == ["", "", ""] && Bool.random(using: &rng) { continue }
            text += values.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",") + "\n"
            expected.append(.record(line: line, values: values.map { $0.isEmpty ? nil : $0 }))
            line += 1 + values.joined().utf8.filter { $0 == 0x0A }.count
        }
        let url = try dir.file("round.csv", text)
        for chunkSize in [3, 1 << 20] {
            #expect(try readAll(url, fields: fields, chunkSize: chunkSize).events == expected)
        }
    }
}
