import Foundation
import Testing
@testable import TallyReports

/// AtomicFile and OutputSet: a report appears whole or not at all.
@Suite("Atomic report files")
struct AtomicFileTests {
    @Test func temporaryNamesAreRecognisedWithTheirOwner() {
        #expect(AtomicFile.temporaryOwner(".balances.csv.tmp-4242") == 4242)
        #expect(AtomicFile.temporaryOwner(".a.tmp-1") == 1)
        #expect(AtomicFile.temporaryOwner("balances.csv.tmp-4242") == nil)   // not hidden
        #expect(AtomicFile.temporaryOwner(".tmp-4242") == nil)                // no name
        #expect(AtomicFile.temporaryOwner(".a.tmp-") == nil)
        #expect(AtomicFile.temporaryOwner(".a.tmp-12x") == nil)
        #expect(AtomicFile.temporaryOwner(".a.tmp-0") == nil)
    }

    @Test func anOutputSetLeavesNothingWhenItIsNotCommitted() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = folder.appendingPathComponent("a.csv")
        try Data("old\n".utf8).write(to: old)
        do {
            let set = OutputSet()
            let csv = try CSVWriter(url: old, columns: ["x"])
            try csv.writeRow(["new"])
            try set.add(csv)
            let text = try AtomicFile(destination: folder.appendingPathComponent("b.txt"))
            try text.write(Data("b".utf8))
            set.add(text)
            #expect(set.count == 2)
            // The run fails here: the set is dropped without commit.
        }
        #expect(try String(contentsOf: old, encoding: .utf8) == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["a.csv"])
    }

    @Test func anOutputSetMovesEveryFileIntoPlaceOnCommit() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let set = OutputSet()
        let csv = try CSVWriter(url: folder.appendingPathComponent("a.csv"), columns: ["x"])
        try csv.writeRow(["1"])
        try set.add(csv)
        try set.commit()
        #expect(try String(contentsOf: folder.appendingPathComponent("a.csv"), encoding: .utf8) == "x\n1\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["a.csv"])
    }

    @Test func staleTemporariesOfDeadProcessesAreRemovedAndLiveOnesKept() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sub = folder.appendingPathComponent("statements")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let dead = child.processIdentifier
        let names = [".x.csv.tmp-\(dead)", ".y.txt.tmp-\(getpid())", "report.csv", ".x.csv.tmp-abc"]
        for name in names { try Data("z".utf8).write(to: sub.appendingPathComponent(name)) }
        try Data("z".utf8).write(to: folder.appendingPathComponent(".run.json.tmp-\(dead)"))
        // Deeper folders and hidden folders are not swept.
        let deep = sub.appendingPathComponent("deeper"), hidden = folder.appendingPathComponent(".git")
        for dir in [deep, hidden] {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try Data("z".utf8).write(to: dir.appendingPathComponent(".a.tmp-\(dead)"))
        }
        #expect(AtomicFile.removeStaleTemporaries(in: folder) == [".run.json.tmp-\(dead)", "statements/.x.csv.tmp-\(dead)"])
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: sub.path)) == Set(names.dropFirst() + ["deeper"]))
        for dir in [deep, hidden] {
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent(".a.tmp-\(dead)").path))
        }
    }
}
