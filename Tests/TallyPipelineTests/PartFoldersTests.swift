import Foundation
import Testing
import TallyCore
import TallyIngest
@testable import TallyPipeline

/// A table exported as a folder of parts (`swipes/swipes/part-00000.ndjson.gz`,
/// …, as Firestore and Spark write them) loads as the parts of one table:
/// the same reports as the single file, each part accounted for on its own
/// in run.json, with lines numbered per part.
@Suite("Tables exported as folders of parts", .serialized)
struct PartFoldersTests {
    /// The bytes of `url`, decompressed when it is gzip.
    static func contents(_ url: URL) throws -> Data {
        guard url.pathExtension == "gz" else { return try Data(contentsOf: url) }
        return try gzip(["-dc", url.path], input: nil)
    }

    static func gzip(_ arguments: [String], input: Data?) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        let stdin = Pipe()
        if input != nil { process.standardInput = stdin }
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(input)
            try stdin.fileHandleForWriting.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    /// The records of a table file: for CSV the header apart, records cut
    /// only where a line ends outside quotes; for NDJSON every line.
    static func records(_ data: Data, csv: Bool) -> (header: Data?, records: [Data]) {
        var lines: [Data] = []
        var start = data.startIndex, quotes = 0
        for i in data.indices {
            if data[i] == UInt8(ascii: "\"") { quotes += 1 }
            if data[i] == UInt8(ascii: "\n") && (!csv || quotes % 2 == 0) {
                lines.append(data[start...i])
                start = i + 1
            }
        }
        if start < data.endIndex { lines.append(data[start...] + Data("\n".utf8)) }
        guard csv, let first = lines.first else { return (nil, lines) }
        return (first, Array(lines.dropFirst()))
    }

    /// Replaces `dataset/file` in `data` with the folder `dataset/stem/` of
    /// `parts` parts (each CSV part with the header), the last one gzip-compressed when `gzipLast`.
    static func split(_ data: URL, _ relative: String, stem: String, into parts: Int, gzipLast: Bool = false) throws {
        let file = data.appendingPathComponent(relative)
        let csv = relative.contains(".csv")
        let ext = csv ? "csv" : "ndjson"
        let (header, records) = Self.records(try contents(file), csv: csv)
        try FileManager.default.removeItem(at: file)
        let folder = file.deletingLastPathComponent().appendingPathComponent(stem)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let size = (records.count + parts - 1) / parts
        for part in 0..<parts {
            var bytes = header ?? Data()
            for record in records.dropFirst(part * size).prefix(size) { bytes += record }
            var name = String(format: "part-%05d.%@", part, ext)
            if gzipLast && part == parts - 1 {
                bytes = try gzip(["-c"], input: bytes)
                name += ".gz"
            }
            try bytes.write(to: folder.appendingPathComponent(name))
        }
        // What Spark leaves beside its parts: ignored, not loaded.
        try Data().write(to: folder.appendingPathComponent("_SUCCESS"))
    }

    @Test("sample-data with four tables in parts gives the same reports; run.json lists each part")
    func partsGiveTheSameReports() throws {
        let work = try temporaryFolder("parts")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = try copyOfSampleData(in: work)
        try Self.split(data, "expenses/expenses.csv", stem: "expenses", into: 3)
        try Self.split(data, "checkins/checkins.ndjson", stem: "checkins", into: 2)
        try Self.split(data, "swipes/swipes.ndjson.gz", stem: "swipes", into: 3, gzipLast: true)
        try Self.split(data, "subscriptions/events.csv.gz", stem: "events", into: 2)

        let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))
        let out = work.appendingPathComponent("out")
        let outcome = try runner.run(RunRequest(dataDirectory: data, outDirectory: out, period: YearMonth("2026-10")!,
                                                databasePath: work.appendingPathComponent("tally.sqlite").path, reproducible: true))
        let golden = repositoryRoot.appendingPathComponent("reports")
        for path in try reportFiles(golden) where !["run.json", "rejects.csv"].contains(path) {
            let expected = try Data(contentsOf: golden.appendingPathComponent(path))
            #expect(try Data(contentsOf: out.appendingPathComponent(path)) == expected, "\(path)")
        }

        let inputs = outcome.manifest.inputs
        let swipeParts = inputs.filter { $0.table == "swipes" }.map(\.path)
        #expect(swipeParts == ["swipes/swipes/part-00000.ndjson", "swipes/swipes/part-00001.ndjson", "swipes/swipes/part-00002.ndjson.gz"])
        #expect(outcome.manifest.ignored.map(\.path).contains("swipes/swipes/_SUCCESS"))
        let goldenManifest = try JSONDecoder().decode(RunManifest.self, from: Data(contentsOf: golden.appendingPathComponent("run.json")))
        for table in ["expenses", "checkins", "swipes", "events"] {
            let whole = goldenManifest.inputs.filter { $0.table == table }
            let parts = inputs.filter { $0.table == table }
            #expect(parts.count > 1 && whole.count == 1, "\(table)")
            #expect(parts.map(\.rowsRead).reduce(0, +) == whole.map(\.rowsRead).reduce(0, +), "\(table): rows read")
            let unusedInParts = parts.reduce(0) { $0 + $1.rowsRejected + $1.rowsSuperseded }
            let unusedInWhole = whole.reduce(0) { $0 + $1.rowsRejected + $1.rowsSuperseded }
            #expect(unusedInParts == unusedInWhole, "\(table): rows not used")
        }
        // Lines are numbered per part: a reject in a later part names it, with its line there.
        let rejects = try String(contentsOf: out.appendingPathComponent("rejects.csv"), encoding: .utf8)
        #expect(rejects.contains("expenses/expenses/part-0000"))
        #expect(outcome.manifest.checks.allSatisfy { $0.passed })
    }

    @Test("a table as a file and as a folder of parts is refused as ambiguous, naming both")
    func aFileBesideItsFolderOfPartsIsAmbiguous() throws {
        let work = try temporaryFolder("parts-twice")
        defer { try? FileManager.default.removeItem(at: work) }
        let folder = work.appendingPathComponent("swipes/swipes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("{}\n".utf8).write(to: folder.appendingPathComponent("part-00000.ndjson"))
        try Data("{}\n".utf8).write(to: work.appendingPathComponent("swipes/swipes.ndjson"))
        #expect {
            try InputCatalog.scan(work)
        } throws: { error in
            "\(error)".contains("swipes/swipes.ndjson") && "\(error)".contains("folder of parts swipes/swipes/")
        }
    }

    @Test("a folder of parts with no part, or named after no table, is ignored with why")
    func foldersThatAreNoTableAreIgnored() throws {
        let work = try temporaryFolder("parts-empty")
        defer { try? FileManager.default.removeItem(at: work) }
        try FileManager.default.createDirectory(at: work.appendingPathComponent("swipes/swipes"), withIntermediateDirectories: true)
        try Data().write(to: work.appendingPathComponent("swipes/swipes/_SUCCESS"))
        try FileManager.default.createDirectory(at: work.appendingPathComponent("swipes/old"), withIntermediateDirectories: true)
        try Data("{}\n".utf8).write(to: work.appendingPathComponent("swipes/users.jsonl"))
        let catalog = try InputCatalog.scan(work)
        #expect(catalog.files.map(\.relativePath) == ["swipes/users.jsonl"])
        let why = Dictionary(catalog.ignored.map { ($0.path, $0.why) }, uniquingKeysWith: { a, _ in a })
        #expect(why["swipes/swipes/"]?.contains("no .csv, .ndjson, .jsonl or .parquet part") == true)
        #expect(why["swipes/old/"]?.contains("not named after one of its tables") == true)
    }
}
