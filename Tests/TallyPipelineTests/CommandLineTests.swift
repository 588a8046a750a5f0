import Foundation
import TallyPipeline
import Testing

/// Runs the built `tally` executable and returns its exit code, stdout and stderr.
func tally(_ arguments: [String]) throws -> (code: Int32, out: String, err: String) {
    let binary = repositoryRoot.appendingPathComponent(".build/debug/tally")
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}

@Suite("The command line: exit codes and messages scripts can rely on", .serialized,
       .enabled(if: FileManager.default.isExecutableFile(atPath: repositoryRoot.appendingPathComponent(".build/debug/tally").path)))
struct CommandLineTests {
    @Test func helpIsThereForEveryCommand() throws {
        for command in [[], ["run"], ["ingest"], ["report"], ["generate"]] {
            let r = try tally(command + ["--help"])
            #expect(r.code == 0)
            #expect(r.out.contains("USAGE"))
        }
    }

    @Test func aBadPeriodIsAUsageError() throws {
        let r = try tally(["run", "--data", "sample-data", "--out", "/tmp/x", "--period", "2026-13"])
        #expect(r.code == 64)
        #expect(r.err.contains("--period '2026-13' is not a month like 2026-10"))
    }

    @Test func generateSaysWhichSizeOrHistoryItCannotMake() throws {
        for (arguments, message) in [
            (["--months", "0"], "--months 0 is not a number of months from 1 to 120"),
            (["--months", "121"], "--months 121 is not a number of months from 1 to 120"),
            (["--factor", "0.1"], "--factor needs a shape other than default"),
            (["--shape", "studio", "--factor", "0"], "--factor 0.0 is not between 0.001 and 10"),
            (["--shape", "studio", "--factor", "50"], "--factor 50.0 is not between 0.001 and 10"),
        ] {
            let r = try tally(["generate", "--out", "/tmp/tally-never-written"] + arguments)
            #expect(r.code == 64, "\(arguments)")
            #expect(r.err.contains(message), "\(arguments): \(r.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/tally-never-written"))
    }

    @Test func aMissingDataFolderSaysSo() throws {
        let out = try temporaryFolder("cli")
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try tally(["run", "--data", "/nonexistent/data", "--out", out.path, "--period", "2026-10"])
        #expect(r.code == 66)
        #expect(r.err == "tally: data folder /nonexistent/data does not exist or is not a folder\n")
    }

    @Test func aBadConfigNamesFileAndLine() throws {
        let work = try temporaryFolder("cli")
        defer { try? FileManager.default.removeItem(at: work) }
        let config = work.appendingPathComponent("tally.yml")
        try Data("locale: pt-BR\nstatments:\n  trendMonths: 3\n".utf8).write(to: config)
        let r = try tally(["run", "--data", repositoryRoot.appendingPathComponent("sample-data").path,
                           "--out", work.path, "--period", "2026-10", "--config", config.path, "--quiet"])
        #expect(r.code == 1)
        #expect(r.err.hasPrefix("tally: tally.yml line 2: unknown setting 'statments'"))
    }

    @Test func aRunPrintsASummaryAndWritesTheReports() throws {
        let work = try temporaryFolder("cli")
        defer { try? FileManager.default.removeItem(at: work) }
        // The default warehouse, beside the out folder (here the temporary folder itself).
        let db = WarehouseLocation.defaultPath(out: work)
        defer {
            for suffix in ["", "-journal", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: db + suffix) }
            rmdir((db as NSString).deletingLastPathComponent)   // when no other run's warehouse is there
        }
        let r = try tally(["run", "--data", repositoryRoot.appendingPathComponent("sample-data").path,
                           "--out", work.path, "--period", "2026-10"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("checks: all "))
        // Not a terminal: progress comes as key=value lines, one per step.
        #expect(r.err.contains("stage=ingest file=expenses/expenses.csv rows="))
        for file in ["statements/balances.csv", "statements/transfers.csv", "statements/categories.csv",
                     "statements/statements.xlsx", "rejects.csv", "run.json"] {
            #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent(file).path), "\(file)")
        }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: work.appendingPathComponent("run.json"))) as! [String: Any]
        #expect((json["stages"] as? [[String: Any]])?.first?["seconds"] != nil)   // timings when not --reproducible
        // No temporary files are left behind.
        let leftovers = try reportFiles(work).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test func aSecondRunOnTheSameWarehouseIsToldToWait() throws {
        let work = try temporaryFolder("cli")
        defer { try? FileManager.default.removeItem(at: work) }
        // Hold the warehouse lock as a running tally would.
        let db = work.appendingPathComponent("tally.sqlite").path
        let fd = open(db + ".lock", O_CREAT | O_RDWR, 0o644)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        let r = try tally(["report", "--out", work.path, "--period", "2026-10", "--db", db])
        #expect(r.code == 75)
        #expect(r.err.contains("another tally run"))
    }
}
