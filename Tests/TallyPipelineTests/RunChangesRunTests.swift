import Foundation
import Testing
import TallyCore
@testable import TallyPipeline
import TallyWarehouse

/// A month's run says what moved since the last run published from the same
/// warehouse, which published figures now read differently, and what looks
/// wrong: in run.json (`figures`, `changes`) and on the terminal.
@Suite("What changed since the last run", .serialized)
struct RunChangesRunTests {
    let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))
    let fm = FileManager.default

    func request(_ data: URL, out: URL, period: String) -> RunRequest {
        RunRequest(dataDirectory: data, outDirectory: out, period: YearMonth(period)!, reproducible: true)
    }

    func manifest(_ out: URL) throws -> RunManifest {
        try JSONDecoder().decode(RunManifest.self, from: Data(contentsOf: out.appendingPathComponent("run.json")))
    }

    @Test("September, then October into month folders: October's run compares with September's")
    func monthAfterMonth() throws {
        let work = try temporaryFolder("changes")
        defer { try? fm.removeItem(at: work) }
        let data = repositoryRoot.appendingPathComponent("sample-data")
        let september = try runner.run(request(data, out: work.appendingPathComponent("reports/2026-09"), period: "2026-09"))
        #expect(september.manifest.changes == nil, "a new warehouse has no run to compare with, and sample-data flags nothing")
        let october = try runner.run(request(data, out: work.appendingPathComponent("reports/2026-10"), period: "2026-10"))
        let changes = try #require(october.manifest.changes)
        #expect(changes.against == "2026-09")
        #expect(changes.flags.isEmpty)
        let expenses = try #require(changes.moved.first { $0.family == "statements" && $0.name == "expenses" })
        let septemberExpenses = september.manifest.figures?.first { $0.family == "statements" && $0.name == "expenses" }
        #expect(expenses.previous == septemberExpenses?.value)
        #expect(expenses.current == october.manifest.figures?.first { $0.family == "statements" && $0.name == "expenses" }?.value)
        // The same data: September's figures as October's run gives them equal September's own.
        #expect(changes.restated.isEmpty)
        let summary = RunSummary.render(october)
        #expect(summary.contains("changes since the run of 2026-09 (run.json → changes):"))
        #expect(summary.contains("  statements: ") && summary.contains("expenses \(expenses.current) (\(expenses.change)"))
        // What run.json says is what the file holds.
        #expect(try manifest(work.appendingPathComponent("reports/2026-10")).changes == changes)
    }

    @Test("a late swipe of September: October's rerun says September's swipes were restated, and by how much")
    func restatedMonth() throws {
        let work = try temporaryFolder("restated")
        defer { try? fm.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try fm.copyItem(at: repositoryRoot.appendingPathComponent("sample-data"), to: data)
        let out = work.appendingPathComponent("reports/2026-10")
        let first = try runner.run(request(data, out: out, period: "2026-10"))
        let published = try #require(first.manifest.figures?.first { $0.name == "Swipes FypMatch" && $0.month == "2026-09" })

        // The swipes export delivered again with one more swipe, dated in September.
        let gz = data.appendingPathComponent("swipes/swipes.ndjson.gz")
        let plain = try gunzip(gz) + Data(#"{"id":"lateSwipe0000000001","fromUserId":"late-a","toUserId":"late-b","action":"like","timestamp":"2026-09-15T12:00:00Z"}"#.utf8) + Data("\n".utf8)
        try fm.removeItem(at: gz)
        try plain.write(to: data.appendingPathComponent("swipes/swipes.ndjson"))
        let second = try runner.run(request(data, out: out, period: "2026-10"))
        let changes = try #require(second.manifest.changes)
        #expect(changes.against == "2026-10")
        #expect(changes.moved.isEmpty, "the same period: nothing moved, what differs was restated")
        let late = try #require(changes.restated.first { $0.name == "Swipes FypMatch" })
        #expect(late.month == "2026-09" && late.published == published.value && late.change == "+1")
        #expect(RunSummary.render(second).contains(
            "  restated: kpis Swipes FypMatch for 2026-09: published \(published.value), now \(late.now) (+1)"))
    }

    @Test("thresholds from tally.yml: a tight volume threshold flags October's swipes against September's in one run")
    func configuredThreshold() throws {
        let work = try temporaryFolder("threshold")
        defer { try? fm.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try fm.copyItem(at: repositoryRoot.appendingPathComponent("sample-data"), to: data)
        let config = data.appendingPathComponent("tally.yml")
        try (String(contentsOf: config, encoding: .utf8) + "\nchanges:\n  volumeChange: 0.01\n  minimumRows: 10\n")
            .write(to: config, atomically: true, encoding: .utf8)
        let run = try runner.run(request(data, out: work.appendingPathComponent("out"), period: "2026-10"))
        let changes = try #require(run.manifest.changes)
        #expect(changes.against == nil)
        #expect(changes.flags.map(\.dataset) == ["swipes"])
        #expect(changes.flags.first?.message == "swipes: 1888 rows dated in 2026-10 against 1791 in 2026-09 (+5.4%, beyond ±1.0%)")
        #expect(RunSummary.render(run).contains("  check: swipes: 1888 rows dated in 2026-10"))
    }

    /// The bytes of a gzip file.
    func gunzip(_ url: URL) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc", url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }
}
