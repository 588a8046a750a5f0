import Foundation
import Testing
import TallyCore
import TallyReports
@testable import TallyPipeline

/// File-system failures are one line naming the path and the cause
/// in words (no Foundation error domain); the command line's exit codes for
/// refused input, missing input and bad usage.
@Suite("System errors in words, and the exit codes scripts rely on", .serialized)
struct SystemErrorTests {
    let fm = FileManager.default

    @Test("a file where the out folder should be")
    func aFileInTheWayOfTheOutFolder() throws {
        let work = try temporaryFolder("syserr")
        defer { try? fm.removeItem(at: work) }
        let file = work.appendingPathComponent("reports")
        try Data("not a folder".utf8).write(to: file)
        #expect(throws: OutputError.self) { try FileSystemWords.createFolder(file) }
        do { try FileSystemWords.createFolder(file) } catch {
            #expect("\(error)" == "cannot create the folder \(file.path): a file of that name is in the way")
        }
        do { try FileSystemWords.createFolder(file.appendingPathComponent("2026-10")) } catch {
            #expect("\(error)" == "cannot create the folder \(file.path): a file of that name is in the way")
        }
        // Foundation's own failure there, as `tally generate` meets it.
        do {
            try fm.createDirectory(at: file.appendingPathComponent("2026-10/x"), withIntermediateDirectories: true)
            Issue.record("a folder was made under a file")
        } catch {
            let words = try #require(FileSystemWords.describe(error))
            #expect(words.hasSuffix(": \(file.path) is a file, not a folder") || words.hasSuffix(": a part of the path is a file, not a folder"), "\(words)")
        }
    }

    @Test("Foundation's file errors in words, with the path")
    func foundationErrorsInWords() throws {
        let missing = "/nonexistent/tally/x.csv"
        do {
            _ = try Data(contentsOf: URL(fileURLWithPath: missing))
            Issue.record("read a missing file")
        } catch {
            let words = try #require(FileSystemWords.describe(error))
            #expect(words == "\(missing): no such file or folder")
            #expect(!words.contains("Domain"))
        }
        #expect(FileSystemWords.describe(CocoaError(.fileWriteOutOfSpace, userInfo: [NSFilePathErrorKey: "/out/x"])) == "/out/x: no space left on the disk")
        #expect(FileSystemWords.describe(ConfigError("not a file error")) == nil)
        #expect(FileSystemWords.cause(EACCES) == "permission denied")
        #expect(FileSystemWords.cause(ENOSPC) == "no space left on the disk")
    }

    @Test("a config file that is not there: its path and 'no such file or folder'")
    func aMissingConfig() throws {
        #expect(throws: ConfigError.self) { _ = try ConfigLoader.load(URL(fileURLWithPath: "/nonexistent/tally.yml")) }
        do { _ = try ConfigLoader.load(URL(fileURLWithPath: "/nonexistent/tally.yml")) } catch {
            #expect("\(error)" == "cannot read config /nonexistent/tally.yml: no such file or folder")
        }
    }
}

@Suite("The command line: refused files, empty folders and system errors", .serialized,
       .enabled(if: FileManager.default.isExecutableFile(atPath: repositoryRoot.appendingPathComponent(".build/debug/tally").path)))
struct RefusalCommandLineTests {
    let fm = FileManager.default

    @Test("--out under a file: one line naming the path, exit 1, no Foundation error")
    func anOutFolderUnderAFile() throws {
        let work = try temporaryFolder("cli15")
        defer { try? fm.removeItem(at: work) }
        let file = work.appendingPathComponent("reports")
        try Data("x".utf8).write(to: file)
        let r = try tally(["run", "--data", repositoryRoot.appendingPathComponent("sample-data").path, "--out", file.appendingPathComponent("2026-10").path,
                           "--db", work.appendingPathComponent("w.sqlite").path, "--period", "2026-10", "--quiet"])
        #expect(r.code == 1)
        #expect(r.err == "tally: cannot create the folder \(file.path): a file of that name is in the way\n")
    }

    @Test("an out folder that cannot be created (/sys refuses new folders): its path and the cause in words")
    func anOutFolderThatCannotBeCreated() throws {
        let out = "/sys/tally-reports-\(UUID().uuidString)"
        let r = try tally(["run", "--data", repositoryRoot.appendingPathComponent("sample-data").path, "--out", out,
                           "--period", "2026-10", "--quiet"])
        #expect(r.code == 1)
        #expect(["permission denied", "the file system is read-only"].map { "tally: cannot create the folder \(out): \($0)\n" }.contains(r.err),
                "\(r.err)")
        #expect(!r.err.contains("Domain"))
    }

    @Test("--timezone Mars/Olympus is bad usage (64)")
    func aBadTimezoneIsUsage() throws {
        let r = try tally(["run", "--data", "sample-data", "--out", "/tmp/x", "--period", "2026-10", "--timezone", "Mars/Olympus"])
        #expect(r.code == 64)
        #expect(r.err.contains("--timezone 'Mars/Olympus' is not an IANA time zone like America/Sao_Paulo"))
    }

    @Test("a refused file: reports written, exit 3, the refused files listed on stderr")
    func aRefusalExitsWithThree() throws {
        let work = try temporaryFolder("cli15")
        defer { try? fm.removeItem(at: work) }
        let data = try copyOfSampleData(in: work)
        let couples = data.appendingPathComponent("expenses/couples.csv")
        try Data(try String(contentsOf: couples, encoding: .utf8).replacingOccurrences(of: ",", with: ";").utf8).write(to: couples)
        let out = work.appendingPathComponent("out")
        let r = try tally(["run", "--data", data.path, "--out", out.path, "--db", work.appendingPathComponent("w.sqlite").path,
                           "--period", "2026-10", "--quiet"])
        #expect(r.code == 3)
        #expect(r.err.contains("tally: reports written, but 1 input file was refused (see rejects.csv and run.json → refused):\n  expenses/couples.csv: the header is separated by ';'"), "\(r.err)")
        #expect(r.err.contains("tally: statements: not written, the previous reports are kept (expenses/couples.csv refused and never loaded before)"))
        #expect(fm.fileExists(atPath: out.appendingPathComponent("kpis/kpis.xlsx").path))

        let ingest = try tally(["ingest", "--data", data.path, "--db", work.appendingPathComponent("w2.sqlite").path, "--quiet"])
        #expect(ingest.code == 3)
        #expect(ingest.err.hasPrefix("tally: ingest done, but 1 input file was refused"))
    }

    @Test("an empty data folder: exit 66; report with no warehouse: exit 66 and nothing created")
    func missingInput() throws {
        let work = try temporaryFolder("cli15")
        defer { try? fm.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try fm.createDirectory(at: data, withIntermediateDirectories: true)
        let out = work.appendingPathComponent("out")
        let empty = try tally(["run", "--data", data.path, "--out", out.path, "--period", "2026-10"])
        #expect(empty.code == 66)
        #expect(empty.err == "tally: data folder \(data.path) is empty: expected one sub-folder per dataset: checkins/, expenses/, health/, subscriptions/, swipes/\n")
        #expect(!fm.fileExists(atPath: out.path))

        let db = work.appendingPathComponent("w.sqlite")
        let report = try tally(["report", "--period", "2026-10", "--out", out.path, "--db", db.path])
        #expect(report.code == 66)
        #expect(report.err.hasPrefix("tally: no warehouse at \(db.path): load the data first"))
        #expect(!fm.fileExists(atPath: out.path))
        #expect(!fm.fileExists(atPath: db.path))
    }
}
