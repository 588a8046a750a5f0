import Foundation
import Testing
import TallyCore
import TallyTestSupport
@testable import TallyPipeline

/// The repository root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

func temporaryFolder(_ name: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("tally-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A copy of `sample-data/` at `work/data`, for a test to alter.
func copyOfSampleData(in work: URL) throws -> URL {
    let data = work.appendingPathComponent("data")
    try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("sample-data"), to: data)
    return data
}

/// Relative paths of the report files under `folder` (the warehouse and its lock excluded).
func reportFiles(_ folder: URL) throws -> [String] {
    let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])!
    var paths: [String] = []
    for case let url as URL in enumerator where (try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile ?? false) {
        let relative = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
        if relative.hasPrefix("tally.sqlite") { continue }
        paths.append(relative)
    }
    return paths.sorted()
}

/// Fails with the first differing line of every file that differs between two report folders.
///
/// `ignoringChanges`: run.json's `changes` (what moved since the last run
/// published from the warehouse, which a from-scratch run has not) is left
/// out of both sides.
func expectSameReports(_ expected: URL, _ actual: URL, ignoringChanges: Bool = false,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
    let expectedFiles = try reportFiles(expected)
    #expect(try reportFiles(actual) == expectedFiles, sourceLocation: sourceLocation)
    for path in expectedFiles {
        var a = try Data(contentsOf: expected.appendingPathComponent(path))
        var b = (try? Data(contentsOf: actual.appendingPathComponent(path))) ?? Data()
        if ignoringChanges, path == "run.json" {
            (a, b) = (try withoutChanges(a), try withoutChanges(b))
        }
        guard a != b else { continue }
        let la = String(decoding: a, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let lb = String(decoding: b, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let first = (0..<min(la.count, lb.count)).first { la[$0] != lb[$0] } ?? min(la.count, lb.count)
        Issue.record("\(path) differs at line \(first + 1):\n  expected: \(first < la.count ? la[first] : "<end>")\n  actual:   \(first < lb.count ? lb[first] : "<end>")",
                     sourceLocation: sourceLocation)
    }
}

/// run.json's bytes without its `changes`, its layout kept.
func withoutChanges(_ runJSON: Data) throws -> Data {
    var manifest = try JSONDecoder().decode(RunManifest.self, from: runJSON)
    manifest.changes = nil
    return try manifest.encoded()
}

@Suite("Golden end-to-end run on sample-data/", .serialized)
struct GoldenTests {
    let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))

    func request(out: URL, db: URL) -> RunRequest {
        RunRequest(dataDirectory: repositoryRoot.appendingPathComponent("sample-data"), outDirectory: out,
                   period: YearMonth("2026-10")!, databasePath: db.path, reproducible: true)
    }

    @Test("a fresh run reproduces the committed reports/ byte for byte; a rerun on unchanged inputs too")
    func freshRunMatchesCommittedReports() throws {
        let work = try temporaryFolder("golden")
        defer { try? FileManager.default.removeItem(at: work) }
        let out = work.appendingPathComponent("reports")
        let db = work.appendingPathComponent("tally.sqlite")

        let first = try runner.run(request(out: out, db: db))
        #expect(first.ingest?.filesLoaded ?? 0 > 0)
        try expectSameReports(repositoryRoot.appendingPathComponent("reports"), out)

        // Incremental: the same inputs again skip every file and give the same bytes.
        let second = try runner.run(request(out: out, db: db))
        #expect(second.ingest?.filesLoaded == 0)
        try expectSameReports(repositoryRoot.appendingPathComponent("reports"), out)
    }

    @Test("the statements workbook reads back with the CSV's values")
    func workbookReadsBack() throws {
        let reports = repositoryRoot.appendingPathComponent("reports")
        let book = try XLSXReader(url: reports.appendingPathComponent("statements/statements.xlsx"))
        #expect(book.sheetNames == ["Resumo", "Saldos", "Transferências", "Categorias"])
        #expect(!book.chartPaths.isEmpty)
        let csv = try String(contentsOf: reports.appendingPathComponent("statements/balances.csv"), encoding: .utf8)
        let rows = csv.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(try book.rowCount("Saldos") == rows.count + 1)
        // Every closing balance in the sheet equals the CSV's.
        let header = try book.strings("Saldos", 1)
        let closingColumn = try #require(header.firstIndex(of: "Saldo final"))
        for (i, row) in rows.enumerated() {
            let cell = try book.row("Saldos", i + 2)[closingColumn]
            let expected = try #require(Double(String(row.last!)))   // closing is the last column; names may hold commas
            #expect(abs((cell?.number ?? .nan) - expected) < 0.005, "row \(i + 2): \(String(describing: cell)) vs \(expected)")
        }
    }
}
