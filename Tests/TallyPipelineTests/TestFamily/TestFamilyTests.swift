import Foundation
import GRDB
import Testing
import TallyCore
import TallyTestSupport
import TallyWire
@testable import TallyPipeline

/// A family defined in this test target (``ExpensesPerTagMonth``: its
/// domain in `Core/`, its renderer in `Reports/`), registered with one
/// line, runs through `tally run` and through the shuffle harness, and
/// leaves every other report as it was.
@Suite("A report family registered with one line", .serialized)
struct TestFamilyTests {
    static let period = YearMonth(year: 2026, month: 10)!

    static var families: ReportFamilies {
        var families = ReportFamilies.standard
        families.register(ExpensesPerTagMonth(), renderer: ExpensesPerTagMonthCSV())
        return families
    }

    @Test("tally run and the dataflow (K = 1, 3, 7) write the family's CSV, the same bytes, and the other reports unchanged")
    func runsEverywhere() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tally-test-family-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: work)
        defer { try? FileManager.default.removeItem(at: work) }
        let data = repositoryRoot.appendingPathComponent("sample-data")
        let out = work.appendingPathComponent("reports")
        let db = work.appendingPathComponent("tally.sqlite")
        var runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))
        runner.families = Self.families
        let request = RunRequest(dataDirectory: data, outDirectory: out, period: Self.period, databasePath: db.path, reproducible: true)
        let outcome = try runner.run(request)
        #expect(outcome.manifest.checks.allSatisfy { $0.passed })

        // The family's lines are the live expenses grouped by tag, month and currency, as SQL over the warehouse counts them.
        let csv = try String(contentsOf: out.appendingPathComponent("tags/tags.csv"), encoding: .utf8)
        let lines = csv.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        #expect(lines.first == "tag,month,currency,expenses,amountMinor")
        let expected = try DatabaseQueue(path: db.path).read { db in
            try Row.fetchAll(db, sql: """
                SELECT tag, substr(date, 1, 7), currency, count(*), sum(amount) FROM expense
                WHERE deleted_at IS NULL AND error IS NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
                """).map { row in
                [row[0] as String, row[1] as String, row[2] as String, String(row[3] as Int), String(row[4] as Int64)].joined(separator: ",")
            }
        }
        #expect(expected.count > 20)
        #expect(Array(lines.dropFirst().filter { !$0.isEmpty }) == expected)
        #expect(outcome.manifest.outputs.contains { $0.path == "tags/tags.csv" && $0.rows == expected.count })

        // Every other report is the committed one.
        let golden = repositoryRoot.appendingPathComponent("reports")
        for family in ["statements", "leaderboards", "activity", "kpis"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: golden.appendingPathComponent(family).path)
            where name.hasSuffix(".csv") || name.hasSuffix(".txt") {
                let path = family + "/" + name
                #expect(try Data(contentsOf: out.appendingPathComponent(path)) == Data(contentsOf: golden.appendingPathComponent(path)), "\(path)")
            }
        }

        // The dataflow, registered the same way, writes the same bytes whatever the partitioning.
        for k in [1, 3, 7] {
            var plan = try FlowPlan(data: data, config: try runner.configuration(request), period: Self.period)
            plan.families = Self.families
            let flowOut = work.appendingPathComponent("dataflow-\(k)")
            try LocalSchedule(partitions: k, seed: 7 &+ UInt64(k), throughLines: k > 1).run(plan, outDirectory: flowOut, reproducible: true)
            for name in ["tags/tags.csv", "run.json", "rejects.csv"] {
                #expect(try Data(contentsOf: flowOut.appendingPathComponent(name)) == Data(contentsOf: out.appendingPathComponent(name)),
                        "\(name), K = \(k)")
            }
        }
    }

    @Test("a partition's result crosses the wire as one line and comes back equal")
    func resultCrossesTheWire() throws {
        let run = RecordsFamilyRun(family: ExpensesPerTagMonth(), renderer: ExpensesPerTagMonthCSV())
        let expense = CoupleRows.WinningExpense(
            id: "e1", source: SourceRef(file: "expenses/expenses.csv", line: 2),
            fact: ExpenseFact(id: "e1", coupleId: "c1", paidBy: "m1", amount: 1234, currency: Currency(code: "BRL")!,
                              date: LocalDate.parse("2026-10-03")!, description: "Feira\tde domingo", tag: "mercado",
                              agreementId: nil, split: .equal, source: SourceRef(file: "expenses/expenses.csv", line: 2)),
            deleted: false, error: nil)
        let deleted = CoupleRows.WinningExpense(id: "e2", source: SourceRef(file: "expenses/expenses.csv", line: 3), fact: nil,
                                                deleted: true, error: nil)
        #expect(run.key(of: .winningExpense(deleted)) == nil)
        let key = try #require(run.key(of: .winningExpense(expense)))
        #expect(key == PartitionKey(["mercado", "2026-10"]))
        let result = run.compute(key: key, records: [.winningExpense(expense)])
        let line = FlowRecord.familyResult(family: "tags", try run.encode(result))
        let (_, back) = try LocalSchedule.acrossLine(FlowKeys.family("tags", key), line)
        guard case .familyResult("tags", let bytes) = back else { Issue.record("not a family result: \(back)"); return }
        let decoded = try run.decode(bytes)
        #expect(decoded.key == key && decoded.rows == result.rows)
        #expect(decoded.rows.counts == ["BRL": 1] && decoded.rows.amounts == ["BRL": 1234])
    }
}
