import Foundation
import Testing
@testable import TallyPipeline

@Suite("Report reuse: the out folder's digest")
struct ReportReuseTests {
    private let fm = FileManager.default

    @Test("the digest changes with any report's size or time, in any sub-folder; run.json, the warehouse and links do not count")
    func folderDigestSeesEveryReport() throws {
        let out = try temporaryFolder("reuse-digest")
        defer { try? fm.removeItem(at: out) }
        let warehouse = out.appendingPathComponent("tally.sqlite").path
        try fm.createDirectory(at: out.appendingPathComponent("statements/deeper"), withIntermediateDirectories: true)
        try Data("a,b\n".utf8).write(to: out.appendingPathComponent("statements/balances.csv"))
        try Data("couple\n".utf8).write(to: out.appendingPathComponent("statements/deeper/c1.txt"))
        try Data("{}".utf8).write(to: out.appendingPathComponent("run.json"))
        let first = ReportReuse.folderDigest(out, warehousePath: warehouse)
        #expect(ReportReuse.folderDigest(out, warehousePath: warehouse) == first, "the same folder gives the same digest")

        try Data("{\"again\": 1}".utf8).write(to: out.appendingPathComponent("run.json"))
        try Data("pages".utf8).write(to: URL(fileURLWithPath: warehouse))
        try Data("wal".utf8).write(to: URL(fileURLWithPath: warehouse + "-wal"))
        try fm.createSymbolicLink(atPath: out.appendingPathComponent("statements/link.txt").path,
                                  withDestinationPath: out.appendingPathComponent("statements/balances.csv").path)
        #expect(ReportReuse.folderDigest(out, warehousePath: warehouse) == first,
                "run.json, the warehouse's files and a symbolic link are left out")

        try Data("couple, edited\n".utf8).write(to: out.appendingPathComponent("statements/deeper/c1.txt"))
        let edited = ReportReuse.folderDigest(out, warehousePath: warehouse)
        #expect(edited != first, "a report two folders down, edited")

        let touched = Date(timeIntervalSince1970: 1_700_000_000)
        try fm.setAttributes([.modificationDate: touched], ofItemAtPath: out.appendingPathComponent("statements/balances.csv").path)
        let retimed = ReportReuse.folderDigest(out, warehousePath: warehouse)
        #expect(retimed != edited, "a report with the same bytes and a new time")

        try fm.removeItem(at: out.appendingPathComponent("statements/deeper/c1.txt"))
        #expect(ReportReuse.folderDigest(out, warehousePath: warehouse) != retimed, "a report removed")
    }
}
