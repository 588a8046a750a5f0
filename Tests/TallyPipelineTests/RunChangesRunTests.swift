import Foundation
import Testing
import TallyCore
@testable import TallyPipeline
import TallyWarehouse
import TallyTestSupport

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

    @Test("an unchanged rerun keeps its reports until the month before is published again, which its statements compare with")
    func rerunAfterTheMonthBeforeIsPublishedAgain() throws {
        let work = try temporaryFolder("changes-reuse")
        defer { try? fm.removeItem(at: work) }
        let data = repositoryRoot.appendingPathComponent("sample-data")
        let september = request(data, out: work.appendingPathComponent("reports/2026-09"), period: "2026-09")
        let october = request(data, out: work.appendingPathComponent("reports/2026-10"), period: "2026-10")
        _ = try runner.run(september)
        _ = try runner.run(october)
        #expect(try runner.run(october).reportsKept)
        var again = september
        again.reuseReports = false
        _ = try runner.run(again)
        #expect(try !runner.run(october).reportsKept)
        #expect(try runner.run(october).reportsKept)
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
        try fm.copyItem(at: out.appendingPathComponent("kpis/kpis.txt"), to: work.appendingPathComponent("first-kpis.txt"))

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
        // The KPI text and workbook list it too, under the headlines and the totals.
        let text = try String(contentsOf: out.appendingPathComponent("kpis/kpis.txt"), encoding: .utf8)
        #expect(text.contains("\nRestated since the last run (months already published whose figures changed; the reports use the current values)\n"))
        #expect(text.contains("  Swipes FypMatch 2026-09: published \(published.value), now \(late.now) (+1)\n"))
        let reader = try XLSXReader(url: out.appendingPathComponent("kpis/kpis.xlsx"))
        let column = try (1...80).map { try reader.cell("Summary", "A\($0)")?.string }
        let heading = try #require(column.firstIndex(of: "Restated since the last run")) + 1
        let row = try #require(column[heading...].firstIndex(of: "Swipes FypMatch")) + 1
        #expect(try reader.cell("Summary", "C\(row)") == .string("2026-09"))
        #expect(try reader.cell("Summary", "D\(row)") == .number(Double(published.value)!))
        #expect(try reader.cell("Summary", "F\(row)") == .number(1))
        // A first run has nothing to list.
        let firstText = try String(contentsOf: work.appendingPathComponent("first-kpis.txt"), encoding: .utf8)
        #expect(!firstText.contains("Restated since the last run"))
    }

    @Test("thresholds from tally.yml: a tight volume threshold flags October's swipes against September's in one run")
    func configuredThreshold() throws {
        let work = try temporaryFolder("threshold")
        defer { try? fm.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try fm.copyItem(at: repositoryRoot.appendingPathComponent("sample-data"), to: data)
        let config = data.appendingPathComponent("tally.yml")
        let text = try String(contentsOf: config, encoding: .utf8)
        #expect(text.contains("  volumeChange: 0.5\n") && text.contains("  minimumRows: 100\n"))
        try text.replacingOccurrences(of: "  volumeChange: 0.5\n", with: "  volumeChange: 0.01\n")
            .replacingOccurrences(of: "  minimumRows: 100\n", with: "  minimumRows: 10\n")
            .write(to: config, atomically: true, encoding: .utf8)
        let run = try runner.run(request(data, out: work.appendingPathComponent("out"), period: "2026-10"))
        let changes = try #require(run.manifest.changes)
        #expect(changes.against == nil)
        #expect(changes.flags.map(\.dataset) == ["swipes"])
        #expect(changes.flags.first?.message == "swipes: 1888 rows dated in 2026-10 against 1791 in 2026-09 (+5.4%, beyond ±1.0%)")
        #expect(RunSummary.render(run).contains("  check: swipes: 1888 rows dated in 2026-10"))
    }

    @Test("a late expense of September: the couple's October statement (text and workbook) says its opening was restated, and why")
    func restatedOpening() throws {
        let work = try temporaryFolder("restated-opening")
        defer { try? fm.removeItem(at: work) }
        let base = work.appendingPathComponent("exports/base"), late = work.appendingPathComponent("exports/late")
        try fm.copyItem(at: repositoryRoot.appendingPathComponent("sample-data"), to: base)
        try fm.createDirectory(at: late.appendingPathComponent("expenses"), withIntermediateDirectories: true)
        try """
            id,couple_id,paid_by,amount,currency,date,description,tag,card_id,agreement_id,split_type,split,created_at,updated_at,deleted_at
            exp-late-0001,cpl-000001,mbr-000001,250.00,BRL,2026-09-20,Conta atrasada,casa,,,equal,,,2026-10-02T10:00:00Z,

            """.write(to: late.appendingPathComponent("expenses/expenses.csv"), atomically: true, encoding: .utf8)
        var september = request(base, out: work.appendingPathComponent("reports/2026-09"), period: "2026-09")
        september.configURL = base.appendingPathComponent("tally.yml")
        _ = try runner.run(september)
        var october = request(late, out: work.appendingPathComponent("reports/2026-10"), period: "2026-10")
        october.configURL = base.appendingPathComponent("tally.yml")
        let outcome = try runner.run(october)

        // run.json: each member's balance at the end of September, as sent and now, by couple.
        let restated = try #require(outcome.manifest.changes?.restated.filter { $0.family == "statements" })
        #expect(restated.map(\.key) == ["cpl-000001", "cpl-000001"])
        #expect(restated.map(\.month) == ["2026-09", "2026-09"])
        #expect(restated.map(\.change) == ["+125.00", "-125.00"])
        #expect(RunSummary.render(outcome).contains(
            "  restated: statements: 1 couple opens with other balances than the 2026-09 closing they were sent"))

        // The statement, in its locale: the balances as sent and now, then the row that arrived late.
        let statements = work.appendingPathComponent("reports/2026-10/statements")
        let text = try String(contentsOf: statements.appendingPathComponent("cpl-000001.txt"), encoding: .utf8)
        #expect(text.contains("Saldo de abertura revisto\n  O extrato de setembro de 2026 foi enviado com outros saldos finais"))
        #expect(text.contains("20/09/2026  despesa  exp-late-0001  Conta atrasada  R$ 250,00  late/expenses/expenses.csv:2"))
        let other = try String(contentsOf: statements.appendingPathComponent("cpl-000002.txt"), encoding: .utf8)
        #expect(!other.contains("Saldo de abertura revisto"))
        let reader = try XLSXReader(url: statements.appendingPathComponent("cpl-000001.xlsx"))
        let column = try (1...60).map { try reader.cell("Extrato", "A\($0)")?.string }
        let heading = try #require(column.firstIndex(of: "Saldo de abertura revisto")) + 1
        #expect(try reader.strings("Extrato", heading + 2) == ["Membro", "Enviado (set/2026)", "Agora", "Diferença"])
        let nicole = try reader.row("Extrato", heading + 3)
        #expect(nicole.first == .string("Nicole Gomes"))
        #expect(nicole.dropFirst().map { $0?.number } == [-1996.87, -1871.87, 125])
        let lateRow = try #require(column[heading...].firstIndex(of: "Data").map { $0 + 2 })
        #expect(try reader.strings("Extrato", lateRow).dropFirst().prefix(3) == ["despesa", "exp-late-0001", "Conta atrasada"])
        #expect(try reader.cell("Extrato", "E\(lateRow)") == .number(250))

        // `tally statement` writes the same statement, restated section included.
        var single = RunRequest(dataDirectory: nil, outDirectory: work.appendingPathComponent("sent"), period: YearMonth("2026-10")!,
                                databasePath: work.appendingPathComponent(".tally/reports.sqlite").path)
        single.configURL = base.appendingPathComponent("tally.yml")
        _ = try runner.statement(coupleId: "cpl-000001", single)
        let sent = try String(contentsOf: work.appendingPathComponent("sent/statements/cpl-000001.txt"), encoding: .utf8)
        #expect(sent == text)
    }

    @Test("an agreement changed since September is listed; one delivered again as it was is not")
    func changedAgreement() throws {
        let work = try temporaryFolder("restated-agreement")
        defer { try? fm.removeItem(at: work) }
        let base = work.appendingPathComponent("exports/base"), late = work.appendingPathComponent("exports/late")
        try fm.copyItem(at: repositoryRoot.appendingPathComponent("sample-data"), to: base)
        try fm.createDirectory(at: late.appendingPathComponent("expenses"), withIntermediateDirectories: true)
        try """
            id,coupleId,description,amount,currency,paidBy,splitType,split,tag,dayOfMonth,startDate,endDate
            agr-000001,cpl-000001,Netflix Premium,55.90,BRL,mbr-000002,full,mbr-000002,lazer,15,2026-03-17,
            agr-000002,cpl-000001,Spotify Família,39.90,BRL,mbr-000002,equal,,lazer,31,2025-08-13,

            """.write(to: late.appendingPathComponent("expenses/agreements.csv"), atomically: true, encoding: .utf8)
        for (data, period) in [(base, "2026-09"), (late, "2026-10")] {
            var request = request(data, out: work.appendingPathComponent("reports/\(period)"), period: period)
            request.configURL = base.appendingPathComponent("tally.yml")
            _ = try runner.run(request)
        }
        let text = try String(contentsOf: work.appendingPathComponent("reports/2026-10/statements/cpl-000001.txt"), encoding: .utf8)
        let section = try #require(text.range(of: "Saldo de abertura revisto").map { String(text[$0.lowerBound...].prefix(1500)) })
        #expect(section.contains("acordo recorrente  agr-000002  Spotify Família"))
        #expect(!section.contains("agr-000001"))
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
