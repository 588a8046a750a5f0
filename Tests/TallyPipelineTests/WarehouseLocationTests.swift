import Foundation
import Testing
import TallyCore
@testable import TallyPipeline

/// The reports folder holds reports; the warehouse lives beside the reports'
/// root by default (one per root, shared by its month folders), and one left
/// in the out folder by an earlier version is moved out.
@Suite("Where the warehouse lives", .serialized)
struct WarehouseLocationTests {
    let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))
    let fm = FileManager.default

    func request(out: URL, db: String? = nil) -> RunRequest {
        RunRequest(dataDirectory: repositoryRoot.appendingPathComponent("sample-data"), outDirectory: out,
                   period: YearMonth("2026-10")!, databasePath: db, reproducible: true)
    }

    @Test("the default: .tally/<root>.sqlite beside the reports' root, a month folder's root being its parent")
    func defaultPath() {
        #expect(WarehouseLocation.defaultPath(out: URL(fileURLWithPath: "/srv/tally/reports")) == "/srv/tally/.tally/reports.sqlite")
        #expect(WarehouseLocation.defaultPath(out: URL(fileURLWithPath: "/srv/tally/reports/")) == "/srv/tally/.tally/reports.sqlite")
        #expect(WarehouseLocation.defaultPath(out: URL(fileURLWithPath: "/srv/tally/reports/2026-10")) == "/srv/tally/.tally/reports.sqlite")
        #expect(WarehouseLocation.defaultPath(out: URL(fileURLWithPath: "/srv/a/../b/2026-10")) == "/srv/.tally/b.sqlite")
        #expect(WarehouseLocation.defaultPath(out: URL(fileURLWithPath: "/2026-10")) == "/.tally/tally.sqlite")
        #expect(WarehouseLocation.defaultPath(out: URL(fileURLWithPath: "/")) == "/.tally/tally.sqlite")
        // Not months: the folder is the root.
        for name in ["2026-13", "2026-1", "202610", "2026-10-01", "q4-2026"] {
            #expect(WarehouseLocation.defaultPath(out: URL(fileURLWithPath: "/srv/reports/\(name)")) == "/srv/reports/.tally/\(name).sqlite")
        }
    }

    @Test("month folders share their root's warehouse, and a month's run leaves last month's folder as it was")
    func monthFoldersShareTheWarehouse() throws {
        let work = try temporaryFolder("location")
        defer { try? fm.removeItem(at: work) }
        let september = work.appendingPathComponent("reports/2026-09"), october = work.appendingPathComponent("reports/2026-10")
        var request = request(out: september)
        request.period = YearMonth("2026-09")!
        _ = try runner.run(request)
        let sent = try folderBytes(september)
        let second = try runner.run(self.request(out: october))
        #expect(second.ingest?.filesLoaded == 0, "the October run reads the warehouse September's run filled")
        #expect(fm.fileExists(atPath: work.appendingPathComponent(".tally/reports.sqlite").path))
        #expect(try folderBytes(september) == sent)
        #expect(fm.fileExists(atPath: october.appendingPathComponent("run.json").path))
    }

    /// Every file under `folder` with its bytes.
    func folderBytes(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in try fm.subpathsOfDirectory(atPath: folder.path) {
            let url = folder.appendingPathComponent(path)
            var isFolder: ObjCBool = false
            if fm.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
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
