import Foundation
import Testing
import TallyCore
import TallyGenerator
@testable import TallyPipeline

/// The generator plants awkward rows of every kind and says how many a correct
/// reader rejects or counts as superseded, per file. A full run must agree,
/// file by file, for every file tally reads; and every row must add up.
@Suite("Planted bad rows are rejected or superseded, exactly")
struct PlantedRowsTests {
    @Test(arguments: [UInt64(7), 20261031, 99])
    func everyPlantedRowIsAccountedFor(seed: UInt64) throws {
        let work = try temporaryFolder("planted")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        let summary = try DataGenerator(seed: seed, scale: .small).generate(to: data)
        let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))
        let outcome = try runner.run(RunRequest(dataDirectory: data, outDirectory: work.appendingPathComponent("out"),
                                                period: summary.anchorMonth, reproducible: true))
        #expect(!outcome.manifest.inputs.isEmpty)
        for input in outcome.manifest.inputs {
            #expect(input.rowsRejected == summary.expectedRejects(in: input.path), "rejected rows in \(input.path)")
            #expect(input.rowsSuperseded == summary.expectedSuperseded(in: input.path), "superseded rows in \(input.path)")
            if input.table != "appleHealthExport" {   // an export's rows are the step, energy and distance records tally reads, not every <Record>
                #expect(input.rowsRead == summary.file(input.path)?.records, "rows read in \(input.path)")
            }
            #expect(input.rowsRead == input.rowsUsed + input.rowsRejected + input.rowsSuperseded)
        }
        #expect(outcome.manifest.checks.allSatisfy { $0.passed })
    }
}
