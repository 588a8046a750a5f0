import Foundation
import Testing
import TallyCore
@testable import TallyPipeline
import TallyWarehouse

/// A file that cannot be used as a whole is refused (one entry in
/// rejects.csv and run.json), never unloads the rows loaded before, and never
/// makes a report emptier; the other datasets and families go on.
@Suite("Refused input files", .serialized)
struct RefusalTests {
    let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))
    let fm = FileManager.default
    static let excelHint = "the header is separated by ';' as Excel writes CSV in some locales; tally reads ',': export as CSV UTF-8 (comma delimited)"

    func request(_ data: URL, out: URL, db: URL) -> RunRequest {
        RunRequest(dataDirectory: data, outDirectory: out, period: YearMonth("2026-10")!, databasePath: db.path, reproducible: true)
    }

    /// A copy of sample-data/ in `work`.
    func sampleCopy(_ work: URL, _ name: String = "data") throws -> URL {
        let data = work.appendingPathComponent(name)
        try fm.copyItem(at: repositoryRoot.appendingPathComponent("sample-data"), to: data)
        return data
    }

    /// Rewrites a CSV file with `;` between fields, as Excel does in pt-BR
    /// (fields holding a `;` are not in the sample's couples.csv).
    func semicolons(_ file: URL) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        try Data(text.replacingOccurrences(of: ",", with: ";").utf8).write(to: file)
    }

    /// Removes one column from a CSV file whose fields hold no commas or quotes in that column's rows.
    func dropColumn(_ name: String, of file: URL) throws {
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let index = try #require(header.firstIndex(of: name))
        let kept = lines.map { line -> String in
            var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if fields.count == header.count { fields.remove(at: index) }
            return fields.joined(separator: ",")
        }
        try Data(kept.joined(separator: "\n").utf8).write(to: file)
    }

    func rejectLines(_ out: URL, file: String) throws -> [String] {
        try String(contentsOf: out.appendingPathComponent("rejects.csv"), encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { $0.contains(",\(file),") }
    }

    func contents(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in try reportFiles(folder) { files[path] = try Data(contentsOf: folder.appendingPathComponent(path)) }
        return files
    }

    @Test("couples.csv saved with ';' into an out folder holding last month's reports: the statements are kept, the other families written")
    func semicolonCouplesKeepLastMonthsStatements() throws {
        let work = try temporaryFolder("refusal")
        defer { try? fm.removeItem(at: work) }
        let out = work.appendingPathComponent("reports")
        _ = try runner.run(request(repositoryRoot.appendingPathComponent("sample-data"), out: out,
                                   db: work.appendingPathComponent("last-month.sqlite")))
        let lastMonth = try contents(out)
        let statements = lastMonth.keys.filter { $0.hasPrefix("statements/") && $0.hasSuffix(".txt") }
        #expect(statements.count == 20)

        let data = try sampleCopy(work)
        try semicolons(data.appendingPathComponent("expenses/couples.csv"))
        let outcome = try runner.run(request(data, out: out, db: work.appendingPathComponent("fresh.sqlite")))

        let refused = try #require(outcome.manifest.refused)
        #expect(refused.count == 1)
        #expect(refused.first?.path == "expenses/couples.csv")
        #expect(refused.first?.reason == Self.excelHint)
        #expect(refused.first?.rowsLoaded == 0)
        #expect(refused.first?.earlierVersionKept == false)
        #expect(outcome.manifest.keptReports?.map(\.family) == ["statements"])
        #expect(!outcome.manifest.inputs.contains { $0.path == "expenses/couples.csv" })
        // Every statement of last month is still there, byte for byte.
        let now = try contents(out)
        for path in lastMonth.keys where path.hasPrefix("statements/") { #expect(now[path] == lastMonth[path], "\(path)") }
        #expect(!outcome.manifest.outputs.contains { $0.path.hasPrefix("statements/") })
        #expect(outcome.manifest.outputs.contains { $0.path == "kpis/kpis.xlsx" })
        // One line in rejects.csv for the file, not a reject per row.
        #expect(try rejectLines(out, file: "expenses/couples.csv") == ["expenses,expenses/couples.csv,0,,\"file refused: \(Self.excelHint)\",file_refused"])
        let attention = try #require(RunSummary.attention(outcome.manifest))
        #expect(attention.contains("expenses/couples.csv: \(Self.excelHint)"))
        #expect(attention.contains("statements: not written, the previous reports are kept"))
    }

    /// Runs a copy of the sample into `first/`, applies `change` to the copy,
    /// and runs it again, on the same warehouse, into `second/`.
    func runBeforeAndAfter(_ work: URL, change: (URL) throws -> Void)
        throws -> (outcome: TallyRunner.Outcome, first: [String: Data], second: [String: Data], out: URL) {
        let data = try sampleCopy(work)
        let db = work.appendingPathComponent("w.sqlite")
        let first = work.appendingPathComponent("first"), second = work.appendingPathComponent("second")
        _ = try runner.run(request(data, out: first, db: db))
        try change(data)
        let outcome = try runner.run(request(data, out: second, db: db))
        return (outcome, try contents(first), try contents(second), second)
    }

    @Test("a refused couples.csv keeps the version loaded before: statements complete, the refusal named")
    func aRefusedFileNeverUnloadsGoodRows() throws {
        let work = try temporaryFolder("refusal")
        defer { try? fm.removeItem(at: work) }
        let (outcome, a, b, second) = try runBeforeAndAfter(work) { try semicolons($0.appendingPathComponent("expenses/couples.csv")) }

        #expect(outcome.manifest.refused?.map(\.path) == ["expenses/couples.csv"])
        #expect(outcome.manifest.refused?.first?.earlierVersionKept == true)
        #expect(outcome.manifest.keptReports == nil)
        // The couples loaded by the first run are still loaded, and used.
        let couples = try #require(outcome.manifest.inputs.first { $0.path == "expenses/couples.csv" })
        #expect(couples.rowsUsed > 0)
        let statements = a.keys.filter { $0.hasPrefix("statements/") }
        #expect(statements.count > 20)
        for path in statements { #expect(a[path] == b[path], "\(path)") }
        #expect(try rejectLines(second, file: "expenses/couples.csv").contains("expenses,expenses/couples.csv,0,,\"file refused: \(Self.excelHint)\",file_refused"))
        #expect(RunSummary.attention(outcome.manifest)?.contains("(the version loaded before is still used)") == true)
    }

    @Test("expenses.csv without an amount column: one refusal, not a reject per row")
    func aMissingRequiredColumnIsOneRefusal() throws {
        let work = try temporaryFolder("refusal")
        defer { try? fm.removeItem(at: work) }
        let data = try sampleCopy(work)
        try dropColumn("amount", of: data.appendingPathComponent("expenses/expenses.csv"))
        let out = work.appendingPathComponent("out")
        let outcome = try runner.run(request(data, out: out, db: work.appendingPathComponent("w.sqlite")))
        let reason = try #require(outcome.manifest.refused?.first?.reason)
        #expect(reason.hasPrefix("no column 'amount': every row needs it (the header has id, couple_id, paid_by, currency,"))
        #expect(try rejectLines(out, file: "expenses/expenses.csv").count == 1)
        #expect(outcome.manifest.keptReports?.map(\.family) == ["statements"])
        #expect(fm.fileExists(atPath: out.appendingPathComponent("leaderboards/leaderboard.csv").path))
    }

    @Test("an Apple Health export with a DTD entity is refused; statements and KPIs are written for everyone")
    func anEntityInOneExportStopsNothingElse() throws {
        let work = try temporaryFolder("refusal")
        defer { try? fm.removeItem(at: work) }
        let data = try sampleCopy(work)
        let export = data.appendingPathComponent("health/XolxjU3oylCqtQNwNwBZfRhqJQZT/export.xml")
        var xml = try String(contentsOf: export, encoding: .utf8)
        let doctype = try #require(xml.range(of: "<!DOCTYPE HealthData ["))
        xml.insert(contentsOf: "\n<!ENTITY boom \"boom\">", at: doctype.upperBound)
        let record = try #require(xml.range(of: "sourceName=\""))
        xml.insert(contentsOf: "&boom;", at: record.upperBound)
        try Data(xml.utf8).write(to: export)
        let out = work.appendingPathComponent("out")
        let outcome = try runner.run(request(data, out: out, db: work.appendingPathComponent("w.sqlite")))
        let refused = try #require(outcome.manifest.refused?.first)
        #expect(refused.path == "health/XolxjU3oylCqtQNwNwBZfRhqJQZT/export.xml")
        #expect(refused.reason.contains("entity reference &boom; is not expanded"), "\(refused.reason)")
        #expect(outcome.manifest.keptReports?.map(\.family) == ["activity"])
        #expect(outcome.manifest.outputs.contains { $0.path == "statements/statements.xlsx" })
        #expect(outcome.manifest.outputs.contains { $0.path == "kpis/kpis.xlsx" })
        // The other exports loaded in the same transaction are there.
        #expect(outcome.manifest.inputs.contains { $0.path == "health/iervFuGyxEMrysjYgNQHxarY3ndc/export.xml" })
    }

    @Test("a gzip file cut short after a good version was loaded: refused while loading, the good rows kept")
    func aTruncatedGzipKeepsTheEarlierVersion() throws {
        let work = try temporaryFolder("refusal")
        defer { try? fm.removeItem(at: work) }
        let (outcome, a, b, _) = try runBeforeAndAfter(work) { data in
            let swipes = data.appendingPathComponent("swipes/swipes.ndjson.gz")
            let bytes = try Data(contentsOf: swipes)
            try bytes.prefix(bytes.count / 2).write(to: swipes)
        }
        let refused = try #require(outcome.manifest.refused?.first)
        #expect(refused.path == "swipes/swipes.ndjson.gz")
        #expect(refused.earlierVersionKept)
        #expect(a["kpis/swipes_daily.csv"] != nil)
        #expect(a["kpis/swipes_daily.csv"] == b["kpis/swipes_daily.csv"])
        let kept = try #require(outcome.manifest.inputs.first { $0.path == "swipes/swipes.ndjson.gz" })
        #expect(kept.rowsRead > 0)
    }

    @Test("a refused file is refused again by the next run: the reports are not kept as unchanged, the exit stays 'attention'")
    func aRerunStillSaysSo() throws {
        let work = try temporaryFolder("refusal")
        defer { try? fm.removeItem(at: work) }
        let data = try sampleCopy(work)
        try semicolons(data.appendingPathComponent("expenses/couples.csv"))
        let out = work.appendingPathComponent("out"), db = work.appendingPathComponent("w.sqlite")
        _ = try runner.run(request(data, out: out, db: db))
        let again = try runner.run(request(data, out: out, db: db))
        #expect(!again.reportsKept)
        #expect(again.manifest.refused?.count == 1)
        #expect(RunSummary.attention(again.manifest) != nil)
    }

    @Test("tally ingest with a refused file, then tally report: the report knows the refusal and keeps the statements")
    func reportAfterIngestKnowsTheRefusal() throws {
        let work = try temporaryFolder("refusal")
        defer { try? fm.removeItem(at: work) }
        let out = work.appendingPathComponent("reports"), db = work.appendingPathComponent("w.sqlite")
        _ = try runner.run(request(repositoryRoot.appendingPathComponent("sample-data"), out: out,
                                   db: work.appendingPathComponent("last-month.sqlite")))
        let lastMonth = try contents(out)
        let data = try sampleCopy(work)
        try semicolons(data.appendingPathComponent("expenses/couples.csv"))
        let ingest = try runner.ingest(RunRequest(dataDirectory: data, outDirectory: out, period: nil, databasePath: db.path))
        #expect(ingest.refusals.map(\.displayPath) == ["expenses/couples.csv"])
        #expect(RunSummary.attention(ingest)?.hasPrefix("tally: ingest done, but 1 input file was refused") == true)
        let report = try runner.run(RunRequest(dataDirectory: nil, outDirectory: out, period: YearMonth("2026-10")!,
                                               databasePath: db.path, reproducible: true))
        #expect(report.manifest.refused?.map(\.path) == ["expenses/couples.csv"])
        #expect(report.manifest.keptReports?.map(\.family) == ["statements"])
        let now = try contents(out)
        for path in lastMonth.keys where path.hasPrefix("statements/") { #expect(now[path] == lastMonth[path], "\(path)") }

        // Fixed and ingested again: the refusal is gone, the statements written.
        try fm.removeItem(at: data.appendingPathComponent("expenses/couples.csv"))
        try fm.copyItem(at: repositoryRoot.appendingPathComponent("sample-data/expenses/couples.csv"),
                        to: data.appendingPathComponent("expenses/couples.csv"))
        let fixed = try runner.run(request(data, out: out, db: db))
        #expect(fixed.manifest.refused == nil)
        #expect(fixed.manifest.keptReports == nil)
        #expect(RunSummary.attention(fixed.manifest) == nil)
    }

    @Test("an export.zip that is not a zip: refused in words, the other exports loaded")
    func anUnreadableZipIsRefused() throws {
        let work = try temporaryFolder("refusal")
        defer { try? fm.removeItem(at: work) }
        let data = try sampleCopy(work)
        let zip = data.appendingPathComponent("health/1DyedbsrT9MbRveVipqlOnZ5dg5i/export.zip")
        let bytes = try Data(contentsOf: zip)
        try bytes.prefix(bytes.count / 3).write(to: zip)
        let outcome = try runner.run(request(data, out: work.appendingPathComponent("out"), db: work.appendingPathComponent("w.sqlite")))
        let refused = try #require(outcome.manifest.refused?.first)
        #expect(refused.path == "health/1DyedbsrT9MbRveVipqlOnZ5dg5i/export.zip")
        #expect(refused.reason == "not a readable zip file (not a zip file, or cut short): export it again from the Health app")
        #expect(outcome.manifest.inputs.contains { $0.path == "health/XolxjU3oylCqtQNwNwBZfRhqJQZT/export.xml" })
    }

    @Test("couples.csv emptied (an export cut short) does not unload the couples: the statements stay complete")
    func anEmptyFileIsRefused() throws {
        let work = try temporaryFolder("refusal")
        defer { try? fm.removeItem(at: work) }
        let (outcome, a, b, _) = try runBeforeAndAfter(work) { try Data().write(to: $0.appendingPathComponent("expenses/couples.csv")) }
        #expect(outcome.manifest.refused?.first?.reason == "the file is empty, without even a header row: was the export cut short?")
        #expect(outcome.manifest.refused?.first?.earlierVersionKept == true)
        let statements = a.keys.filter { $0.hasPrefix("statements/") }
        #expect(statements.count > 20)
        for path in statements { #expect(a[path] == b[path], "\(path)") }
    }
}
