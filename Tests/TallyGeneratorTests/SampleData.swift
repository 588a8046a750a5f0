import CGzip
import Foundation
import TallyCore
@testable import TallyGenerator

/// The small-scale data set, generated once per test run into a temporary folder.
enum SampleData {
    static let seed: UInt64 = 20_261_031

    struct Generated: Sendable {
        let directory: URL
        let summary: GenerationSummary
    }

    static let shared: Generated = {
        let directory = temporaryDirectory("shared")
        let summary = try! DataGenerator(seed: seed, scale: .small).generate(to: directory)
        return Generated(directory: directory, summary: summary)
    }()

    static func temporaryDirectory(_ label: String) -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("tally-generator-tests-\(ProcessInfo.processInfo.processIdentifier)-\(label)-\(UUID().uuidString)")
        try? FileManager.default.removeItem(at: url)
        return url
    }

    /// The raw bytes of a generated file (still compressed for `.gz`).
    static func rawBytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: shared.directory.appendingPathComponent(path)))
    }

    /// The content bytes of a generated file, gunzipped when it ends in `.gz`.
    static func bytes(_ path: String) throws -> [UInt8] {
        let raw = try rawBytes(path)
        return path.hasSuffix(".gz") ? try gunzip(raw) : raw
    }

    static func text(_ path: String) throws -> String { String(decoding: try bytes(path), as: UTF8.self) }

    /// CSV records as field arrays (header first), after a leading BOM is dropped.
    static func csv(_ path: String) throws -> [[String]] {
        var text = try text(path)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return CSVTestParser.parse(text)
    }

    /// CSV records as dictionaries keyed by camelCase field names.
    static func csvRecords(_ path: String) throws -> [[String: String]] {
        let rows = try csv(path)
        let header = rows[0].map(camelCase)
        return rows.dropFirst().filter { $0.count == header.count }.map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// NDJSON objects (blank lines skipped).
    static func ndjson(_ path: String) throws -> [[String: Any]] {
        try text(path).split(separator: "\n", omittingEmptySubsequences: true).map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
    }

    static func camelCase(_ name: String) -> String {
        var result = ""
        var upper = false
        for character in name {
            if character == "_" { upper = true; continue }
            result.append(upper ? Character(character.uppercased()) : character)
            upper = false
        }
        return result
    }

    /// Decompresses a whole gzip file with zlib (window bits 31).
    static func gunzip(_ input: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, 31, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw GzipError.failed("inflateInit2")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var input = input
        var status: Int32 = Z_OK
        try input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            repeat {
                let produced = chunk.withUnsafeMutableBufferPointer { out -> Int in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    return out.count - Int(stream.avail_out)
                }
                output.append(contentsOf: chunk[0..<produced])
                guard status == Z_OK || status == Z_STREAM_END else { throw GzipError.failed("inflate \(status)") }
            } while status != Z_STREAM_END
            guard stream.avail_in == 0 else { throw GzipError.failed("trailing bytes after the gzip stream") }
        }
        return output
    }

    enum GzipError: Error { case failed(String) }
}

/// A small RFC 4180 parser for checking generated CSV (quotes, doubled quotes,
/// newlines inside quotes, CRLF).
enum CSVTestParser {
    static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var inQuotes = false
        var iterator = Array(text.unicodeScalars).makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let p = pending { pending = nil; return p }
            return iterator.next()
        }
        var sawAny = false
        while let c = next() {
            sawAny = true
            if inQuotes {
                if c == "\"" {
                    if let n = next() {
                        if n == "\"" { field.unicodeScalars.append("\"") } else { inQuotes = false; pending = n }
                    } else { inQuotes = false }
                } else {
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case "\"": inQuotes = true
            case ",": row.append(field); field = ""
            case "\r": break
            case "\n":
                row.append(field); field = ""
                rows.append(row); row = []
            default: field.unicodeScalars.append(c)
            }
        }
        if sawAny && (!field.isEmpty || !row.isEmpty) { row.append(field); rows.append(row) }
        return rows
    }
}
