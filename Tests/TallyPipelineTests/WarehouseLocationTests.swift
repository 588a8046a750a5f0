import Foundation
import Testing
import TallyCore
@testable import TallyPipeline

/// Issue 15, part 5: the reports folder holds reports; the warehouse lives
/// beside it by default, and one left in it by an earlier version is moved out.
@Suite("Where the warehouse lives", .serialized)
struct WarehouseLocationTests {
    let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))
    let fm = FileManager.default

    func request(out: URL, db: String? = nil) -> RunRequest {
        RunRequest(dataDirectory: repositoryRoot.appendingPathComponent("sample-data"), outDirectory: out,
                   period: YearMonth("2026-10")!, databasePath: db, reproducible: true)
    }

    @Test("the default: .tally/<out name>.sqlite beside the out folder")
    func defaultPath() {
        #expect(WarehouseLocation.defaultPath(out: URL(fileURLWithPath: "/srv/tally/reports")) == "/srv/tally/.tally/reports.sqlite")
        #expect(WarehouseLocation.defaultPath(out: URL(fileURLWithPath: "/srv/tally/reports/")) == "/srv/tally/.tally/reports.sqlite")
        #expect(WarehouseLocation.defaultPath(out: URL(fileURLWithPath: "/srv/a/../b/2026-10")) == "/srv/b/.tally/2026-10.sqlite")
        #expect(WarehouseLocation.defaultPath(out: URL(fileURLWithPath: "/")) == "/.tally/tally.sqlite")
    }

    @Test("a run without --db leaves reports only in the out folder")
    func theOutFolderHoldsReports() throws {
        let work = try temporaryFolder("location")
        defer { try? fm.removeItem(at: work) }
        let out = work.appendingPathComponent("reports")
        _ = try runner.run(request(out: out))
        let all = try fm.subpathsOfDirectory(atPath: out.path)
        #expect(!all.contains { $0.contains("sqlite") }, "\(all.filter { $0.contains("sqlite") })")
        #expect(fm.fileExists(atPath: work.appendingPathComponent(".tally/reports.sqlite").path))
    }

    @Test("a warehouse an earlier version left in the out folder is moved beside it, and keeps what it held")
    func aLegacyWarehouseIsMoved() throws {
        let work = try temporaryFolder("location")
        defer { try? fm.removeItem(at: work) }
        let out = work.appendingPathComponent("reports")
        // As tally 0.1 did: the warehouse in the out folder.
        let first = try runner.run(request(out: out, db: out.appendingPathComponent("tally.sqlite").path))
        #expect(fm.fileExists(atPath: out.appendingPathComponent("tally.sqlite").path))
        let second = try runner.run(request(out: out))
        #expect(!(try fm.contentsOfDirectory(atPath: out.path)).contains { $0.hasPrefix("tally.sqlite") })
        #expect(fm.fileExists(atPath: WarehouseLocation.defaultPath(out: out)))
        // The moved warehouse held every file: nothing was loaded again.
        #expect(second.ingest?.filesLoaded == 0)
        #expect(second.ingest?.files.count == first.ingest?.files.count)
    }

    @Test("--db is used as given, and a report run reads it")
    func explicitDatabase() throws {
        let work = try temporaryFolder("location")
        defer { try? fm.removeItem(at: work) }
        let out = work.appendingPathComponent("out"), db = work.appendingPathComponent("elsewhere/w.sqlite").path
        _ = try runner.run(request(out: out, db: db))
        #expect(fm.fileExists(atPath: db))
        #expect(!fm.fileExists(atPath: WarehouseLocation.defaultPath(out: out)))
        let report = try runner.run(RunRequest(dataDirectory: nil, outDirectory: out, period: YearMonth("2026-10")!,
                                               databasePath: db, reproducible: true))
        #expect(report.manifest.inputs.count == 21)
    }
}
