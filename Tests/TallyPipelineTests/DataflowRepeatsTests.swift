import Foundation
import Testing
import TallyCore
@testable import TallyPipeline

/// The KPIs' tables exported as folders of parts that repeat keys across
/// and within parts (a row exported twice, a product re-priced, a
/// connection and a swipe user exported again): the dataflow's row rules
/// and accounting give `tally run --reproducible`'s reports, rejects and
/// per-file accounting.
@Suite("Dataflow: keys repeated across and within files", .serialized)
struct DataflowRepeatsTests {
    /// Replaces `dataset/file` in `data` with two parts that overlap (the
    /// records from a third to two thirds of the file are in both), the
    /// second ending with its last record again; `change` may edit the
    /// second part's records (as text).
    static func splitOverlapping(_ data: URL, _ relative: String, stem: String,
                                 change: (String) -> String = { $0 }) throws {
        let file = data.appendingPathComponent(relative)
        let csv = relative.contains(".csv")
        let (header, records) = PartFoldersTests.records(try PartFoldersTests.contents(file), csv: csv)
        try FileManager.default.removeItem(at: file)
        let folder = file.deletingLastPathComponent().appendingPathComponent(stem)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let n = records.count
        var first = header ?? Data(), second = header ?? Data()
        for record in records.prefix(2 * n / 3 + 1) { first += record }
        let later = records.dropFirst(n / 3).map { Data(change(String(decoding: $0, as: UTF8.self)).utf8) }
        for record in later + [later.last!] { second += record }
        let ext = csv ? "csv" : "ndjson"
        try first.write(to: folder.appendingPathComponent("part-00000.\(ext)"))
        try second.write(to: folder.appendingPathComponent("part-00001.\(ext)"))
    }

    /// `tally run --reproducible` and the in-process dataflow with `partitions` over `data`: their
    /// manifests and out folders.
    static func runBoth(_ data: URL, in work: URL, partitions: Int) throws
        -> (run: RunManifest, flow: RunManifest, out: URL, flowOut: URL) {
        let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))
        let out = work.appendingPathComponent("run")
        let request = RunRequest(dataDirectory: data, outDirectory: out, period: FamilyScheduleTests.period,
                                 databasePath: work.appendingPathComponent("tally.sqlite").path, reproducible: true)
        let run = try runner.run(request).manifest
        let plan = try FlowPlan(data: data, config: try runner.configuration(request), period: FamilyScheduleTests.period)
        let flowOut = work.appendingPathComponent("dataflow")
        let flow = try LocalSchedule(partitions: partitions, seed: 7).run(plan, outDirectory: flowOut, reproducible: true)
        return (run, flow, out, flowOut)
    }

    @Test("parts repeating swipes, events, products, connections and swipe users", arguments: [1, 3])
    func repeatedKeys(k: Int) throws {
        let work = try temporaryFolder("dataflow-repeats-\(k)")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = try copyOfSampleData(in: work)
        try Self.splitOverlapping(data, "swipes/swipes.ndjson.gz", stem: "swipes")
        try Self.splitOverlapping(data, "swipes/users.jsonl", stem: "users")
        try Self.splitOverlapping(data, "subscriptions/events.csv.gz", stem: "events")
        try Self.splitOverlapping(data, "subscriptions/connections.ndjson", stem: "connections")
        // A product exported again with another price: the later part's counts.
        try Self.splitOverlapping(data, "subscriptions/products.csv", stem: "products") { line in
            line.replacingOccurrences(of: ".00,BRL", with: ".50,BRL")
        }

        let (run, flow, out, flowOut) = try Self.runBoth(data, in: work, partitions: k)

        let expected = try DataflowScheduleTests.files(under: out.appendingPathComponent("kpis"))
        let actual = try DataflowScheduleTests.files(under: flowOut.appendingPathComponent("kpis"))
        #expect(expected.keys.sorted() == actual.keys.sorted())
        for (name, bytes) in expected where name.hasSuffix(".csv") || name.hasSuffix(".txt") {
            #expect(actual[name] == bytes, "kpis/\(name) differs (K=\(k))")
        }
        func rejects(_ folder: URL) throws -> [Substring] {
            try String(contentsOf: folder.appendingPathComponent("rejects.csv"), encoding: .utf8)
                .split(separator: "\n").filter { $0.hasPrefix("swipes,") || $0.hasPrefix("subscriptions,") }
        }
        let runRejects = try rejects(out)
        #expect(try rejects(flowOut) == runRejects)
        #expect(runRejects.contains { $0.contains("duplicate id in this file") })
        #expect(runRejects.contains { $0.contains("duplicate productId in this file") })
        func accounting(_ m: RunManifest) -> [String] {
            m.inputs.filter { ["swipes", "subscriptions"].contains($0.dataset) }.map {
                "\($0.path) read \($0.rowsRead) used \($0.rowsUsed) rejected \($0.rowsRejected) superseded \($0.rowsSuperseded)"
            }
        }
        #expect(accounting(flow) == accounting(run))
        // The repeats across parts are superseded in each table read in parts.
        for table in ["swipes", "events", "products", "connections", "swipeUsers"] {
            #expect(run.inputs.contains { $0.table == table && $0.rowsSuperseded > 0 }, "\(table): nothing superseded")
        }
    }

    @Test("parts repeating the couples' reference rows unchanged: the earlier part's rows keep counting")
    func identicalReferenceRows() throws {
        let work = try temporaryFolder("dataflow-identical")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = try copyOfSampleData(in: work)
        for table in ["couples", "members", "cards", "agreements", "settlements"] {
            try Self.splitOverlapping(data, "expenses/\(table).csv", stem: table)
        }

        let (run, flow, out, flowOut) = try Self.runBoth(data, in: work, partitions: 2)

        let expected = try DataflowScheduleTests.files(under: out.appendingPathComponent("statements"))
        let actual = try DataflowScheduleTests.files(under: flowOut.appendingPathComponent("statements"))
        #expect(expected.keys.sorted() == actual.keys.sorted())
        for (name, bytes) in expected where name.hasSuffix(".csv") || name.hasSuffix(".txt") {
            #expect(actual[name] == bytes, "statements/\(name) differs")
        }
        func accounting(_ m: RunManifest) -> [String] {
            m.inputs.filter { $0.dataset == "expenses" }.map {
                "\($0.path) read \($0.rowsRead) used \($0.rowsUsed) rejected \($0.rowsRejected) superseded \($0.rowsSuperseded)"
            }
        }
        #expect(accounting(flow) == accounting(run))
        // The overlap's rows are identical: the second part's copies are superseded, the first part's all count.
        for table in ["couples", "members", "cards", "agreements", "settlements"] {
            let parts = run.inputs.filter { $0.table == table }.sorted { $0.path < $1.path }
            #expect(parts.count == 2, "\(table): \(parts.map(\.path))")
            guard parts.count == 2 else { continue }
            #expect(parts[0].rowsSuperseded == 0, "\(table): the first part's rows count")
            #expect(parts[1].rowsSuperseded > 0, "\(table): the second part's copies are superseded")
        }
    }
}
