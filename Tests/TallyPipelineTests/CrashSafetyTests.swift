import Foundation
import TallyPipeline
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The debug `tally` the tests run.
let tallyBinary = repositoryRoot.appendingPathComponent(".build/debug/tally")

/// Crash safety: SIGKILL at random moments never leaves a corrupt warehouse
/// or a half-written report, and two runs never share a warehouse.
///
/// CI runs 5 iterations; `make crash` runs 50 (TALLY_CRASH_ITERATIONS).
@Suite("Crash safety", .serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: tallyBinary.path)))
struct CrashSafetyTests {
    static var iterations: Int {
        ProcessInfo.processInfo.environment["TALLY_CRASH_ITERATIONS"].flatMap(Int.init) ?? 5
    }

    @Test func killedRunsLeaveCompleteReportsAndASoundWarehouse() throws {
        let work = try temporaryFolder("crash")
        defer { try? FileManager.default.removeItem(at: work) }
        let harness = CrashHarness(tally: tallyBinary, work: work)
        try harness.prepare(seeds: [7, 8])
        #expect(harness.versions[0].variants[0] != harness.versions[1].variants[0], "the two data versions give different reports")
        var stages: [String: Int] = [:]
        var failures = 0
        for i in 0..<Self.iterations {
            let result = try harness.iterate(version: i % 2)
            stages[result.stage.split(separator: " ").first.map(String.init) ?? result.stage, default: 0] += 1
            if !result.problems.isEmpty { failures += 1 }
            #expect(result.problems.isEmpty, "iteration \(i + 1), killed after \(String(format: "%.3f", result.delay))s (\(result.stage)): \(result.problems.joined(separator: "; "))")
        }
        let final = try harness.finish(version: Self.iterations % 2)
        #expect(final.isEmpty, "after the kills: \(final.joined(separator: "; "))")
        let summary = stages.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("crash harness: \(Self.iterations - failures)/\(Self.iterations) iterations passed; killed during: \(summary); reference run \(String(format: "%.2f", harness.versions[0].seconds))s; final outputs identical: \(final.isEmpty)")
    }

    @Test func aSecondRunOnABusyWarehouseStopsWithExit75() throws {
        let work = try temporaryFolder("busy")
        defer { try? FileManager.default.removeItem(at: work) }
        let harness = CrashHarness(tally: tallyBinary, work: work)
        try harness.prepare(seeds: [7])
        try harness.useVersion(0)
        let lock = URL(fileURLWithPath: WarehouseLocation.defaultPath(out: harness.out) + ".lock")
        let first = try harness.start(["run", "--data", harness.data.path, "--out", harness.out.path,
                                       "--period", harness.period, "--reproducible", "--quiet"])
        // Wait until the first run holds the lock (it writes its pid there).
        let pid = "\(first.processIdentifier)"
        while first.isRunning,
              (try? String(contentsOf: lock, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) != pid {
            usleep(1_000)
        }
        #expect(first.isRunning, "the first run ended before the second started; the machine is too fast for this test")
        let second = try tally(["run", "--data", harness.data.path, "--out", harness.out.path,
                                "--period", harness.period, "--reproducible", "--quiet"])
        let firstStillRunning = first.isRunning
        first.waitUntilExit()
        if firstStillRunning {
            #expect(second.code == 75)
            #expect(second.err == "tally: another tally run (pid \(pid)) is using the warehouse \(WarehouseLocation.defaultPath(out: harness.out)); wait for it to finish, or use another --db\n")
        }
        #expect(first.terminationStatus == 0)
        // The second run changed nothing: the reports are the first run's, complete.
        #expect(try CrashHarness.reports(in: harness.out) == harness.versions[0].variants[0])
    }
}
