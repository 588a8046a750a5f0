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
        #expect(AtomicFile.temporaryOwner(".balances.csv.tmp-4242-9f86d081") == 4242)
        #expect(AtomicFile.temporaryOwner(".a.tmp-4242-") == nil)               // no token
        #expect(AtomicFile.temporaryOwner(".a.tmp-4242-xyz") == nil)            // not hex
        #expect(AtomicFile.temporaryOwner(".a.tmp--9f86d081") == nil)           // no pid
    }

    @Test func temporaryNamesAreTheirProcessesOwnAndRecognised() throws {
        // Two attempts of one task on two hosts may share a pid; the token
        // keeps their temporary files apart.
        let suffix = AtomicFile.processSuffix
        #expect(suffix.hasPrefix("\(getpid())-"))
        #expect(AtomicFile.temporaryOwner(".a.csv\(AtomicFile.marker)\(suffix)") == getpid())
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try AtomicFile(destination: folder.appendingPathComponent("a.csv"))
        #expect(file.temporary.lastPathComponent == ".a.csv.tmp-\(suffix)")
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

    @Test func aDestinationHoldingTheSameBytesIsLeftAsItIs() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fm = FileManager.default
        func identity(_ url: URL) throws -> [FileAttributeKey: AnyHashable] {
            let a = try fm.attributesOfItem(atPath: url.path)
            return [.systemFileNumber: a[.systemFileNumber] as! AnyHashable, .modificationDate: a[.modificationDate] as! AnyHashable]
        }
        // Bytes at hand: compared before anything is written.
        let text = folder.appendingPathComponent("c1.txt")
        try Data("saldo 10,00\n".utf8).write(to: text)
        let before = try identity(text)
        Thread.sleep(forTimeInterval: 0.01)
        let same = try AtomicFile(destination: text)
        try same.write(Array("saldo 10,00\n".utf8))
        try same.commit()
        #expect(try identity(text) == before)
        #expect(try fm.contentsOfDirectory(atPath: folder.path) == ["c1.txt"])
        // The same size, other bytes: replaced.
        let other = try AtomicFile(destination: text)
        try other.write(Array("saldo 10,01\n".utf8))
        try other.commit()
        #expect(try String(contentsOf: text, encoding: .utf8) == "saldo 10,01\n")
        #expect(try identity(text) != before)
        // A file of a folder the caller made: written without a look at the destination, and moved into place.
        let fresh = folder.appendingPathComponent("c2.txt")
        let absent = try AtomicFile(destination: fresh, destinationAbsent: true)
        try absent.write(Array("saldo 0,00\n".utf8))
        #expect(fm.fileExists(atPath: absent.temporary.path))
        try absent.commit()
        #expect(try String(contentsOf: fresh, encoding: .utf8) == "saldo 0,00\n")
        #expect(!fm.fileExists(atPath: absent.temporary.path))
        // A file written through a writer (a CSV): compared at commit, its temporary removed.
        let csvURL = folder.appendingPathComponent("a.csv")
        for round in 0..<2 {
            let set = OutputSet()
            let csv = try CSVWriter(url: csvURL, columns: ["x"])
            try csv.writeRow(["1"])
            try set.add(csv)
            let first = round == 0 ? nil : try identity(csvURL)
            Thread.sleep(forTimeInterval: 0.01)
            try set.commit()
            if let first { #expect(try identity(csvURL) == first) }
        }
        #expect(try fm.contentsOfDirectory(atPath: folder.path).sorted() == ["a.csv", "c1.txt", "c2.txt"])
        // Longer or shorter than the destination: replaced.
        for body in ["saldo 10,01\nmais\n", "s\n"] {
            let file = try AtomicFile(destination: text)
            try file.write(Array(body.utf8))
            try file.commit()
            #expect(try String(contentsOf: text, encoding: .utf8) == body)
        }
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
