import Foundation
import Testing
@testable import TallyIngest
#if canImport(Glibc)
import Glibc
#endif

/// Files in a data folder that are not files: a pipe would block a run
/// forever, a link to /dev/zero would never end. They are listed as ignored,
/// with why, and never opened.
@Suite("Hostile input: data folder entries")
struct HostileCatalogTests {
    @Test func pipesDevicesAndBrokenLinksAreIgnoredNotOpened() throws {
        let folder = try TemporaryDirectory()
        let expenses = folder.url.appendingPathComponent("expenses")
        try FileManager.default.createDirectory(at: expenses, withIntermediateDirectories: true)
        #expect(mkfifo(expenses.appendingPathComponent("couples.csv").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: expenses.appendingPathComponent("members.csv").path,
                                                   withDestinationPath: "/dev/zero")
        try FileManager.default.createSymbolicLink(atPath: expenses.appendingPathComponent("cards.csv").path,
                                                   withDestinationPath: "/nonexistent/cards.csv")
        try Data("id,coupleId,label\n".utf8).write(to: expenses.appendingPathComponent("real.csv"))
        try FileManager.default.createSymbolicLink(atPath: expenses.appendingPathComponent("fx.csv").path,
                                                   withDestinationPath: expenses.appendingPathComponent("real.csv").path)

        let catalog = try InputCatalog.scan(folder.url)
        #expect(catalog.files.map(\.relativePath) == ["expenses/fx.csv"])   // a link to a regular file is read
        let why = Dictionary(catalog.ignored.map { ($0.path, $0.why) }, uniquingKeysWith: { a, _ in a })
        for name in ["couples.csv", "members.csv", "cards.csv"] {
            #expect(why["expenses/\(name)"] == "not a regular file (a pipe, a device, a socket or a broken link)", "\(name)")
        }
    }
}
