import Foundation
import Testing
import TallyCore
import TallyReports
import TallyTestSupport
@testable import TallyPipeline

/// The dataflow (files decoded without a warehouse, every record routed by
/// its keys through the row rules and the families' partitions, then
/// merged) gives `tally run --reproducible`'s reports, rejects.csv and
/// run.json byte for byte,
/// whatever the schedule: K ∈ {1, 3, 7} partitions per stage, partitions
/// run in a shuffled order, the records of each key shuffled, and (K > 1)
/// every record written as its line and read back between stages. On
/// `sample-data/` and on generated data of three seeds and shapes.
@Suite("Dataflow: any partitioning gives the run's reports", .serialized)
struct DataflowScheduleTests {
    typealias DataSet = FamilyScheduleTests.DataSet

    /// The report folders compared: CSV and text files byte for byte, workbooks part by part.
    static let families = ["statements", "leaderboards", "activity", "kpis"]

    @Test("reports, rejects and per-file accounting equal the run's", arguments: FamilyScheduleTests.cases)
    func equalsRun(_ set: DataSet, k: Int) throws {
        let run = try FamilyScheduleTests.runs[set]!.get()
        let data = set == .sample ? repositoryRoot.appendingPathComponent("sample-data")
                                  : run.work.appendingPathComponent("data")
        let out = run.work.appendingPathComponent("dataflow-\(k)")
        try? FileManager.default.removeItem(at: out)
        let plan = try FlowPlan(data: data, config: run.config, period: FamilyScheduleTests.period)
        // With more than one partition, every record also crosses between stages as its line (encoded, decoded).
        let schedule = LocalSchedule(partitions: k, seed: 20_261_126 &+ UInt64(k), throughLines: k > 1)
        let manifest = try schedule.run(plan, outDirectory: out, reproducible: true)
        #expect(manifest.checks.allSatisfy { $0.passed }, "\(manifest.checks.filter { !$0.passed })")

        // Every CSV and text file of every family, byte for byte; the same workbooks.
        for family in Self.families {
            let expected = try Self.files(under: run.out.appendingPathComponent(family))
            let actual = try Self.files(under: out.appendingPathComponent(family))
            #expect(expected.keys.sorted() == actual.keys.sorted(), "\(family) (\(set), K=\(k))")
            #expect(!expected.isEmpty)
            for (name, bytes) in expected where name.hasSuffix(".csv") || name.hasSuffix(".txt") {
                #expect(actual[name] == bytes, "\(family)/\(name) differs (\(set), K=\(k))")
            }
            // Workbooks: every part but the document properties (which hold when it was written).
            for name in expected.keys where name.hasSuffix(".xlsx") && actual[name] != nil {
                let a = try XLSXReader(url: run.out.appendingPathComponent(family).appendingPathComponent(name))
                let b = try XLSXReader(url: out.appendingPathComponent(family).appendingPathComponent(name))
                #expect(a.sheetNames == b.sheetNames, "\(family)/\(name) (\(set), K=\(k))")
                #expect(a.entryPaths == b.entryPaths, "\(family)/\(name) (\(set), K=\(k))")
                for path in a.entryPaths where !path.hasPrefix("docProps/") {
                    #expect(try a.data(path) == b.data(path), "\(family)/\(name): \(path) differs (\(set), K=\(k))")
                }
            }
        }
        // rejects.csv and run.json (its per-file accounting, outputs and checks), byte for byte.
        for name in ["rejects.csv", "run.json"] {
            #expect(try Data(contentsOf: out.appendingPathComponent(name)) == Data(contentsOf: run.out.appendingPathComponent(name)),
                    "\(name) differs (\(set), K=\(k))")
        }
        #expect(!manifest.inputs.isEmpty)
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
