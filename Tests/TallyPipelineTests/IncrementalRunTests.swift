import Foundation
import Testing
import TallyCore
@testable import TallyPipeline
import TallyWarehouse

/// Runs on a warehouse that already holds earlier inputs: only new files are
/// loaded, the reports equal a from-scratch run's, and a rerun on unchanged
/// inputs keeps the reports it finds.
@Suite("Incremental runs", .serialized)
struct IncrementalRunTests {
    let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))
    let fm = FileManager.default
    /// The files held back from the first run, as if exported a month later.
    let later = ["health/XolxjU3oylCqtQNwNwBZfRhqJQZT", "subscriptions/Subscription_Event_Report.txt"]

    func request(_ data: URL, out: URL, reuse: Bool = true) -> RunRequest {
        var request = RunRequest(dataDirectory: data, outDirectory: out, period: YearMonth("2026-10")!, reproducible: true)
        request.reuseReports = reuse
        return request
    }

    func modified(_ folder: URL) throws -> [String: Date] {
        var dates: [String: Date] = [:]
        for path in try reportFiles(folder) {
            dates[path] = try fm.attributesOfItem(atPath: folder.appendingPathComponent(path).path)[.modificationDate] as? Date
        }
        return dates
    }

    @Test("adding files loads only them, and the reports equal a from-scratch run's")
    func addedFilesLoadAlone() throws {
        let work = try temporaryFolder("incremental")
        defer { try? fm.removeItem(at: work) }
        let data = work.appendingPathComponent("data"), held = work.appendingPathComponent("held")
        try fm.copyItem(at: repositoryRoot.appendingPathComponent("sample-data"), to: data)
        for path in later {
            try fm.createDirectory(at: held.appendingPathComponent(path).deletingLastPathComponent(), withIntermediateDirectories: true)
            try fm.moveItem(at: data.appendingPathComponent(path), to: held.appendingPathComponent(path))
        }
        let out = work.appendingPathComponent("incremental")
        let first = try runner.run(request(data, out: out))
        for path in later { try fm.moveItem(at: held.appendingPathComponent(path), to: data.appendingPathComponent(path)) }
        let second = try runner.run(request(data, out: out))
        #expect(second.ingest?.filesLoaded == 2)
        #expect(second.ingest.map { $0.files.count - $0.filesLoaded } == first.ingest?.files.count)

        let scratch = work.appendingPathComponent("scratch")
        let full = try runner.run(request(data, out: scratch))
        #expect(full.ingest?.filesLoaded == second.ingest?.files.count)
        try expectSameReports(scratch, out, ignoringChanges: true)
    }

    @Test("a run stopped after its loads: the next run rebuilds the derived tables, and its reports equal a from-scratch run's")
    func aStopBeforeTheDerivedTables() throws {
        let work = try temporaryFolder("stopped")
        defer { try? fm.removeItem(at: work) }
        let data = repositoryRoot.appendingPathComponent("sample-data")
        let scratch = work.appendingPathComponent("scratch")
        _ = try runner.run(request(data, out: scratch))
        let out = work.appendingPathComponent("stopped")
        do {
            // The loads' transaction commits; the process stops before any derived table is rebuilt.
            let warehouse = try Warehouse(path: WarehouseLocation.defaultPath(out: out))
            _ = try IngestStage(logger: .init(label: "test"), progress: Progress(mode: .silent))
                .run(dataDirectory: data, warehouse: warehouse, leavingDerivations: true)
            #expect(try warehouse.pendingDerivations() == Set(DerivedTable.allCases))
        }
        let next = try runner.run(request(data, out: out))
        #expect(next.ingest?.filesLoaded == 0)   // nothing to load again
        #expect(Set(next.ingest?.derivations.map(\.name) ?? []) == Set(DerivedTable.allCases.map(\.rawValue)))
        try expectSameReports(scratch, out)
        // Back in rollback-journal mode: the file format's write version (byte 18) is 1, not WAL's 2.
        let header = try Data(contentsOf: URL(fileURLWithPath: WarehouseLocation.defaultPath(out: out))).prefix(20)
        #expect(header[18] == 1)
        #expect(try Warehouse(path: WarehouseLocation.defaultPath(out: out)).pendingDerivations().isEmpty)
    }

    @Test("a rerun on unchanged inputs keeps the reports; a report touched by hand or --rebuild-reports puts them back")
    func unchangedRerunKeepsReports() throws {
        let work = try temporaryFolder("rerun")
        defer { try? fm.removeItem(at: work) }
        let data = repositoryRoot.appendingPathComponent("sample-data")
        let out = work.appendingPathComponent("reports")
        let first = try runner.run(request(data, out: out))
        let written = try modified(out)
        let runJSON = try Data(contentsOf: out.appendingPathComponent("run.json"))

        let kept = try runner.run(request(data, out: out))
        #expect(kept.ingest?.filesLoaded == 0)
        #expect(kept.reportsKept && !first.reportsKept)
        #expect(RunSummary.render(kept).contains("reports unchanged since the last run"))
        #expect(kept.summary == first.summary && kept.rejects == first.rejects)
        func reportLines(_ outcome: TallyRunner.Outcome) -> [Substring] {
            RunSummary.render(outcome).split(separator: "\n").filter { !$0.hasPrefix("ingest:") && !$0.hasPrefix("reports ") }
        }
        #expect(reportLines(kept) == reportLines(first))  // the terminal says the same about the reports
        var keptDates = try modified(out)
        keptDates["run.json"] = written["run.json"]
        #expect(keptDates == written)  // not one report rewritten
        #expect(try Data(contentsOf: out.appendingPathComponent("run.json")) == runJSON)
        try expectSameReports(repositoryRoot.appendingPathComponent("reports"), out)

        // A report edited by hand: the next run writes every report again.
        let mrr = out.appendingPathComponent("kpis/mrr.csv")
        try Data("edited\n".utf8).write(to: mrr)
        _ = try runner.run(request(data, out: out))
        try expectSameReports(repositoryRoot.appendingPathComponent("reports"), out, ignoringChanges: true)

        // --rebuild-reports computes them even when nothing changed; a report
        // whose bytes are the same is left in place, one that differs is replaced.
        try Data("edited\n".utf8).write(to: mrr)
        var before = try modified(out)
        Thread.sleep(forTimeInterval: 0.01)
        let rebuilt = try runner.run(request(data, out: out, reuse: false))
        #expect(!rebuilt.reportsKept)
        let after = try modified(out)
        #expect(after["kpis/mrr.csv"] != before["kpis/mrr.csv"])
        before["kpis/mrr.csv"] = nil
        before["run.json"] = nil
        #expect(before.allSatisfy { after[$0.key] == $0.value })   // every other report untouched
        try expectSameReports(repositoryRoot.appendingPathComponent("reports"), out, ignoringChanges: true)
    }

    @Test("monthly folders run into one warehouse: each file keeps its own name and accounting")
    func monthlyFoldersShareAWarehouse() throws {
        let work = try temporaryFolder("months")
        defer { try? fm.removeItem(at: work) }
        let september = work.appendingPathComponent("2026-09"), october = work.appendingPathComponent("2026-10")
        try fm.copyItem(at: repositoryRoot.appendingPathComponent("sample-data"), to: september)
        try fm.createDirectory(at: october, withIntermediateDirectories: true)
        try fm.copyItem(at: september.appendingPathComponent("expenses"), to: october.appendingPathComponent("expenses"))
        // October's export changes one row, so it is another file with the same relative path.
        let expenses = october.appendingPathComponent("expenses/expenses.csv")
        var lines = try String(contentsOf: expenses, encoding: .utf8).components(separatedBy: "\n")
        lines[1] = lines[1].replacingOccurrences(of: ",BRL,", with: ",USD,")
        try lines.joined(separator: "\n").write(to: expenses, atomically: true, encoding: .utf8)

        let out = work.appendingPathComponent("out"), db = work.appendingPathComponent("tally.sqlite")
        var request = request(september, out: out)
        request.databasePath = db.path
        _ = try runner.run(request)
        request.dataDirectory = october
        let second = try runner.run(request)   // a reconciliation failure would throw
        #expect(second.ingest?.filesLoaded == 7)
        let paths = second.manifest.inputs.map(\.path)
        #expect(paths.contains("expenses/expenses.csv") && paths.contains("2026-10/expenses/expenses.csv"))
        #expect(Set(paths).count == paths.count)
        #expect(second.manifest.checks.filter { !$0.passed }.isEmpty)
    }
}
