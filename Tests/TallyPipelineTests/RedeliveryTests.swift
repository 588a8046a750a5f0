import Foundation
import Testing
import TallyCore
@testable import TallyPipeline

/// Files delivered again with other content, into a warehouse that holds
/// the earlier delivery, give what a fresh run over the files as they are
/// now gives: the warehouse keeps every row read, not only the rows that
/// counted at the time.
@Suite("Re-delivered files", .serialized)
struct RedeliveryTests {
    let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))

    func run(_ data: URL, out: URL, db: URL) throws -> TallyRunner.Outcome {
        try runner.run(RunRequest(dataDirectory: data, outDirectory: out, period: YearMonth("2026-10")!,
                                  databasePath: db.path, reproducible: true))
    }

    /// Each input's path and counts, as run.json lists them.
    func accounting(_ outcome: TallyRunner.Outcome) -> [String] {
        outcome.manifest.inputs.map { "\($0.path) read \($0.rowsRead) rejected \($0.rowsRejected) superseded \($0.rowsSuperseded)" }
    }

    @Test("a couple replaced by a later part keeps its earlier row when that part is delivered again without it")
    func aReDeliveredPartGivesBackTheCoupleItHadReplaced() throws {
        let work = try temporaryFolder("redelivery")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = try copyOfSampleData(in: work)
        let expenses = data.appendingPathComponent("expenses")
        let parts = expenses.appendingPathComponent("couples")
        try FileManager.default.createDirectory(at: parts, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: expenses.appendingPathComponent("couples.csv"),
                                         to: parts.appendingPathComponent("part-a.csv"))
        let header = "id,name,currency,created_at\n"
        // A newer version of the first couple.
        try Data((header + "cpl-000001,Nicole e Mateus,BRL,2025-07-21T13:29:07-03:00\n").utf8)
            .write(to: parts.appendingPathComponent("part-b.csv"))
        let db = work.appendingPathComponent("tally.sqlite")
        let first = try run(data, out: work.appendingPathComponent("first"), db: db)
        #expect(accounting(first).contains("expenses/couples/part-a.csv read 20 rejected 0 superseded 1"))

        // part-b delivered again, now renaming another couple.
        try Data((header + "cpl-000002,Sofia e Conceição,BRL,2025-06-02T12:35:57-03:00\n").utf8)
            .write(to: parts.appendingPathComponent("part-b.csv"))
        let out = work.appendingPathComponent("out")
        let again = try run(data, out: out, db: db)

        let fresh = work.appendingPathComponent("fresh")
        let scratch = try run(data, out: fresh, db: work.appendingPathComponent("fresh.sqlite"))
        #expect(try reportFiles(out) == reportFiles(fresh))
        for path in try reportFiles(fresh) where path != "run.json" {
            #expect(try Data(contentsOf: out.appendingPathComponent(path)) == Data(contentsOf: fresh.appendingPathComponent(path)),
                    "\(path)")
        }
        #expect(accounting(again) == accounting(scratch))
        #expect(accounting(again).contains("expenses/couples/part-a.csv read 20 rejected 0 superseded 1"))
        let rejects = try String(contentsOf: out.appendingPathComponent("rejects.csv"), encoding: .utf8)
        #expect(!rejects.contains("unknown couple 'cpl-000001'"), "the first couple's rows are still attached")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("statements/cpl-000001.txt").path))
    }
}
