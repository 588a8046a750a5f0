import Foundation
import Testing
@testable import TallyReports

/// StagedFolder: a new out folder appears whole, with every report, or not at all.
@Suite("Staged out folders")
struct StagedFolderTests {
    /// Writes `name` holding `text` through an ``AtomicFile`` added to `set`.
    private func write(_ text: String, to name: String, in folder: URL, set: OutputSet) throws -> AtomicFile {
        let file = try AtomicFile(destination: folder.appendingPathComponent(name))
        try file.write(Array(text.utf8))
        set.add(file)
        return file
    }

    @Test func aNewFolderIsWrittenUnderATemporaryNameAndAppearsWhole() throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("2026-10")
        let staged = try #require(StagedFolder.begin(out))
        #expect(staged.folder.deletingLastPathComponent().standardizedFileURL == parent.standardizedFileURL)
        #expect(AtomicFile.temporaryOwner(staged.folder.lastPathComponent) == getpid())
        let set = OutputSet()
        // Files are written at their own names: the folder is the temporary.
        let text = try write("a couple", to: "statements/cpl-1.txt", in: staged.folder, set: set)
        #expect(text.temporary.path == text.destination.path)
        let csv = try CSVWriter(url: staged.folder.appendingPathComponent("statements/balances.csv"), columns: ["x"])
        try csv.writeRow(["1"])
        try set.add(csv)
        try set.commit()
        #expect(!FileManager.default.fileExists(atPath: out.path))   // nothing visible before it is published
        try staged.publish()
        #expect(try String(contentsOf: out.appendingPathComponent("statements/cpl-1.txt"), encoding: .utf8) == "a couple")
        #expect(try String(contentsOf: out.appendingPathComponent("statements/balances.csv"), encoding: .utf8) == "x\n1\n")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("statements").path))
                == ["cpl-1.txt", "balances.csv"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["2026-10"])
        // Published: files made afterwards under the old name are not direct.
        #expect(!StagedFolder.holds(staged.folder.path + "/x"))
    }

    @Test func onlyAPathWithNothingAtItIsStaged() throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        // A folder of reports, an empty folder (perhaps a mount point), a file, a link, a dangling link.
        let full = parent.appendingPathComponent("full"), empty = parent.appendingPathComponent("empty")
        for folder in [empty, full] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try Data("old".utf8).write(to: full.appendingPathComponent("run.json"))
        let file = parent.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let link = parent.appendingPathComponent("link"), dangling = parent.appendingPathComponent("dangling")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: empty)
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: parent.appendingPathComponent("gone").path)
        for taken in [full, empty, file, link, dangling] { #expect(StagedFolder.begin(taken) == nil) }
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: parent.path)) == ["full", "empty", "a-file", "link", "dangling"])
        // A folder inside one that does not exist yet either: the parents are made.
        let staged = try #require(StagedFolder.begin(parent.appendingPathComponent("reports/2026-10")))
        try Data("{}".utf8).write(to: staged.folder.appendingPathComponent("run.json"))
        try staged.publish()
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.appendingPathComponent("reports/2026-10").path) == ["run.json"])
    }

    @Test func whatCameIntoTheDestinationMeanwhileStaysAndTheReportsMoveInBesideIt() throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("out")
        let staged = try #require(StagedFolder.begin(out))
        let set = OutputSet()
        _ = try write("a couple", to: "statements/cpl-1.txt", in: staged.folder, set: set)
        _ = try write("new", to: "kpis/kpis.txt", in: staged.folder, set: set)
        _ = try write("{}", to: "run.json", in: staged.folder, set: set)
        try set.commit()
        // A warehouse named inside the out folder (`--db out/tally.sqlite`), and a folder of the same name.
        try FileManager.default.createDirectory(at: out.appendingPathComponent("kpis"), withIntermediateDirectories: true)
        try Data("db".utf8).write(to: out.appendingPathComponent("tally.sqlite"))
        try Data("old".utf8).write(to: out.appendingPathComponent("kpis/kpis.txt"))
        try staged.publish()
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: out.path)) == ["tally.sqlite", "statements", "kpis", "run.json"])
        #expect(try String(contentsOf: out.appendingPathComponent("kpis/kpis.txt"), encoding: .utf8) == "new")
        #expect(try String(contentsOf: out.appendingPathComponent("statements/cpl-1.txt"), encoding: .utf8) == "a couple")
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["out"])
    }

    @Test func aRunThatFailsLeavesNoFolder() throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("2026-10")
        do {
            let staged = try #require(StagedFolder.begin(out))
            _ = try write("a couple", to: "statements/cpl-1.txt", in: staged.folder, set: OutputSet())
            // The run fails here: the folder is dropped unpublished.
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).isEmpty)
    }

    @Test func aRunWhoseNumbersDoNotAddUpPublishesItsRunFileAlone() throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("2026-10")
        let staged = try #require(StagedFolder.begin(out))
        let set = OutputSet()
        _ = try write("a couple", to: "statements/cpl-1.txt", in: staged.folder, set: set)
        let run = try write("{}", to: "run.json", in: staged.folder, set: set)
        try run.commit()
        try staged.publish(only: ["run.json"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["run.json"])
    }

    @Test func twoRunsOfOneProcessStageApartAndTheStagedFoldersOfDeadRunsBesideThemAreRemoved() throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("2026-10")
        let first = try #require(StagedFolder.begin(out)), second = try #require(StagedFolder.begin(out))
        #expect(first.folder != second.folder)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        // Runs killed outright while writing this out folder and last month's; a file and a
        // folder that only look like them; the user's own folders.
        let dead = child.processIdentifier
        let stale = [".2026-10.tmp-\(dead)-ab1", ".2026-09.tmp-\(dead)-ab1"]
        let kept = [".notes.tmp-\(dead)-xyz", "2026-09", ".git"]
        for name in stale + kept {
            let folder = parent.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("statements"), withIntermediateDirectories: true)
            try Data("z".utf8).write(to: folder.appendingPathComponent("statements/cpl-1.txt"))
        }
        try Data("z".utf8).write(to: parent.appendingPathComponent(".run.json.tmp-\(dead)-ab1"))
        #expect(StagedFolder.removeStale(besides: out) == stale.sorted())
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: parent.path))
                == Set([first.folder.lastPathComponent, second.folder.lastPathComponent, ".run.json.tmp-\(dead)-ab1"] + kept))
        first.discard()
        second.discard()
    }
}
