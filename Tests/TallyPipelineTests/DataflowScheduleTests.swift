import Foundation
import Testing
import TallyCore
import TallyReports
import TallyTestSupport
@testable import TallyPipeline

/// The dataflow (files decoded without a warehouse, every record routed by
/// its keys through the row rules and the families' partitions, then
/// merged) gives `tally run --reproducible`'s reports byte for byte,
/// whatever the schedule: K ∈ {1, 3, 7} partitions per stage, partitions
/// run in a shuffled order, the records of each key shuffled. On
/// `sample-data/` and on generated data of three seeds and shapes.
@Suite("Dataflow: any partitioning gives the run's reports", .serialized)
struct DataflowScheduleTests {
    typealias DataSet = FamilyScheduleTests.DataSet

    /// The datasets the dataflow reads so far, whose reports and accounting are compared.
    static let datasets: Set<String> = ["expenses", "swipes", "subscriptions"]

    /// The report folders compared: CSV and text files byte for byte, workbooks part by part.
    static let folders = ["statements", "kpis"]

    @Test("reports, rejects and per-file accounting equal the run's", arguments: FamilyScheduleTests.cases)
    func equalsRun(_ set: DataSet, k: Int) throws {
        let run = try FamilyScheduleTests.runs[set]!.get()
        let data = set == .sample ? repositoryRoot.appendingPathComponent("sample-data")
                                  : run.work.appendingPathComponent("data")
        let out = run.work.appendingPathComponent("dataflow-\(k)")
        try? FileManager.default.removeItem(at: out)
        let plan = try FlowPlan(data: data, config: run.config, period: FamilyScheduleTests.period)
        let manifest = try LocalSchedule(partitions: k, seed: 20_261_126 &+ UInt64(k)).run(plan, outDirectory: out, reproducible: true)
        #expect(manifest.checks.allSatisfy { $0.passed }, "\(manifest.checks.filter { !$0.passed })")

        // Every file of the families read, byte for byte (workbooks: by name).
        for folder in Self.folders {
            let expected = try Self.files(under: run.out.appendingPathComponent(folder))
            let actual = try Self.files(under: out.appendingPathComponent(folder))
            #expect(expected.keys.sorted() == actual.keys.sorted(), "\(folder)/ (\(set), K=\(k))")
            #expect(!expected.isEmpty)
            for (name, bytes) in expected where name.hasSuffix(".csv") || name.hasSuffix(".txt") {
                #expect(actual[name] == bytes, "\(folder)/\(name) differs (\(set), K=\(k))")
            }
            // Workbooks: every part but the document properties (which hold when it was written).
            for name in expected.keys where name.hasSuffix(".xlsx") && actual[name] != nil {
                let a = try XLSXReader(url: run.out.appendingPathComponent(folder).appendingPathComponent(name))
                let b = try XLSXReader(url: out.appendingPathComponent(folder).appendingPathComponent(name))
                #expect(a.sheetNames == b.sheetNames, "\(folder)/\(name) (\(set), K=\(k))")
                #expect(a.entryPaths == b.entryPaths, "\(folder)/\(name) (\(set), K=\(k))")
                for path in a.entryPaths where !path.hasPrefix("docProps/") {
                    #expect(try a.data(path) == b.data(path), "\(folder)/\(name): \(path) differs (\(set), K=\(k))")
                }
            }
        }
        // rejects.csv's lines of the datasets read, in order.
        func rejects(_ folder: URL) throws -> [Substring] {
            try String(contentsOf: folder.appendingPathComponent("rejects.csv"), encoding: .utf8)
                .split(separator: "\n").dropFirst().filter { line in Self.datasets.contains { line.hasPrefix("\($0),") } }
        }
        #expect(try rejects(out) == rejects(run.out))
        // run.json's accounting of those datasets' files.
        let runManifest = try JSONDecoder().decode(RunManifest.self, from: Data(contentsOf: run.out.appendingPathComponent("run.json")))
        func accounting(_ m: RunManifest) -> [String] {
            m.inputs.filter { Self.datasets.contains($0.dataset) }.map {
                "\($0.path) \($0.bytes) \($0.sha256) read \($0.rowsRead) used \($0.rowsUsed) rejected \($0.rowsRejected) superseded \($0.rowsSuperseded) unknown \($0.unknownFields)"
            }
        }
        #expect(accounting(manifest) == accounting(runManifest))
        #expect(!accounting(manifest).isEmpty)
    }

    /// Every regular file under `folder`, by name, with its bytes.
    static func files(under folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }
}
