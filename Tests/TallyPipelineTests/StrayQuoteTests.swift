import Foundation
import Testing
import TallyCore
@testable import TallyPipeline

/// One stray quote typed into a description (line 501 of the
/// sample's expenses.csv) must cost that one expense, not the 11 lines after it.
@Suite("A stray quote in expenses.csv costs one expense")
struct StrayQuoteTests {
    static let line = 501

    /// sample-data/ copied to `folder`, with `edit` applied to the lines of expenses/expenses.csv.
    private func sampleData(in folder: URL, editing edit: (inout [Substring]) -> Void) throws -> URL {
        let data = try copyOfSampleData(in: folder)
        let file = data.appendingPathComponent("expenses/expenses.csv")
        var lines = String(decoding: try Data(contentsOf: file), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        edit(&lines)
        try Data(lines.joined(separator: "\n").utf8).write(to: file)
        return data
    }

    private func run(_ data: URL, _ out: URL) throws -> TallyRunner.Outcome {
        let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))
        return try runner.run(RunRequest(dataDirectory: data, outDirectory: out, period: YearMonth("2026-10")!,
                                         reproducible: true))
    }

    private func text(_ out: URL, _ path: String) throws -> String {
        String(decoding: try Data(contentsOf: out.appendingPathComponent(path)), as: UTF8.self)
    }

    @Test func theLineWithTheStrayQuoteIsTheOnlyExpenseLost() throws {
        let work = try temporaryFolder("stray-quote")
        defer { try? FileManager.default.removeItem(at: work) }
        // The planted mistake: `Internet fibra` typed as `"Padaria Internet fibra` (line 501).
        let broken = try sampleData(in: work.appendingPathComponent("broken")) { lines in
            let original = lines[Self.line - 1]
            precondition(original.hasPrefix("exp-0000474,") && original.contains(",Internet fibra,"))
            lines[Self.line - 1] = Substring(original.replacingOccurrences(of: ",Internet fibra,", with: ",\"Padaria Internet fibra,"))
        }
        // What losing that expense alone gives: the same file without line 501.
        let without = try sampleData(in: work.appendingPathComponent("without")) { lines in
            lines.remove(at: Self.line - 1)
        }
        let clean = try sampleData(in: work.appendingPathComponent("clean")) { _ in }

        let brokenOut = work.appendingPathComponent("broken-out")
        let withoutOut = work.appendingPathComponent("without-out")
        let cleanOut = work.appendingPathComponent("clean-out")
        let brokenRun = try run(broken, brokenOut)
        _ = try run(without, withoutOut)
        let cleanRun = try run(clean, cleanOut)

        // One more reject than the clean run: line 501, no id, naming the field.
        let cleanRejects = try text(cleanOut, "rejects.csv").split(separator: "\n")
        let brokenRejects = try text(brokenOut, "rejects.csv").split(separator: "\n")
        let added = brokenRejects.filter { !cleanRejects.contains($0) }
        #expect(added == ["expenses,expenses/expenses.csv,501,,unbalanced quote in field 'description'; the line was read alone,record_malformed"])
        #expect(brokenRejects.count == cleanRejects.count + 1)

        // The statements are those of the export without that one expense, and differ from the clean run's.
        for path in ["statements/balances.csv", "statements/transfers.csv", "statements/categories.csv",
                     "statements/categories_by_member.csv"] {
            #expect(try text(brokenOut, path) == text(withoutOut, path), "\(path)")
        }
        #expect(try text(brokenOut, "statements/balances.csv") != text(cleanOut, "statements/balances.csv"))
        let changed = Set(try zip(text(brokenOut, "statements/balances.csv").split(separator: "\n"),
                                  text(cleanOut, "statements/balances.csv").split(separator: "\n"))
            .filter { $0 != $1 }.map { $0.0.split(separator: ",")[0] })
        #expect(changed == ["cpl-000008"])

        // Per-file accounting still adds up; the file's lines are all read, one more of them rejected.
        let brokenInput = try #require(brokenRun.manifest.inputs.first { $0.path == "expenses/expenses.csv" })
        let cleanInput = try #require(cleanRun.manifest.inputs.first { $0.path == "expenses/expenses.csv" })
        #expect(brokenInput.rowsRead == cleanInput.rowsRead)
        #expect(brokenInput.rowsRejected == cleanInput.rowsRejected + 1)
        #expect(brokenInput.rowsUsed + brokenInput.rowsSuperseded == cleanInput.rowsUsed + cleanInput.rowsSuperseded - 1)
        #expect(brokenInput.rowsRead == brokenInput.rowsUsed + brokenInput.rowsRejected + brokenInput.rowsSuperseded)
        #expect(brokenRun.manifest.checks.allSatisfy { $0.passed })
    }
}
