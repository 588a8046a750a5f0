import Foundation
import TallyPipeline
import Testing
import TallyReports
import TallyWarehouse

/// Hostile input end to end, through the `tally` executable: ids that would
/// become file names, amounts at the edge of the range, a disk that fills up
/// mid-run, temporary files left by a killed run.
@Suite("Hostile input: whole runs", .serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: tallyBinary.path)))
struct HostileRunTests {
    static let expensesHeader = "id,coupleId,paidBy,amount,currency,date,description,tag,cardId,agreementId,splitType,split,updatedAt,deletedAt\n"

    /// A data folder whose couple ids try to leave the out folder or name devices.
    static func hostileIdData(in work: URL) throws -> (data: URL, ids: [String]) {
        let long = String(repeating: "x", count: 10_000)
        let ids = ["../../etc/passwd", "a/b", "CON", long, "/abs", ".hidden", "ok"]
        let data = work.appendingPathComponent("data")
        let expenses = data.appendingPathComponent("expenses")
        try FileManager.default.createDirectory(at: expenses, withIntermediateDirectories: true)
        func quoted(_ s: String) -> String { "\"\(s.replacingOccurrences(of: "\"", with: "\"\""))\"" }
        var couples = "id,name,currency,createdAt\n"
        var members = "id,coupleId,displayName,role,joinedAt\n"
        var rows = expensesHeader
        for (i, id) in ids.enumerated() {
            couples += "\(quoted(id)),Couple \(i),BRL,2026-01-01T00:00:00Z\n"
            members += "m\(i)a,\(quoted(id)),A,admin,\nm\(i)b,\(quoted(id)),B,member,\n"
            rows += "e\(i),\(quoted(id)),m\(i)a,100.00,BRL,2026-10-05,dinner,food,,,equal,,2026-10-05T10:00:00Z,\n"
        }
        couples += ",Empty id,BRL,\n"   // line 9: rejected, id is empty
        // Amounts at the edge: the largest allowed, twice, in one couple (no overflow), and one beyond.
        rows += "big1,ok,m6a,10000000000000.00,BRL,2026-10-06,,,,,equal,,2026-10-06T10:00:00Z,\n"
        rows += "big2,ok,m6a,10000000000000.00,BRL,2026-10-07,,,,,equal,,2026-10-07T10:00:00Z,\n"
        rows += "big3,ok,m6b,92233720368547758.07,BRL,2026-10-07,,,,,equal,,2026-10-07T10:00:00Z,\n"
        try Data(couples.utf8).write(to: expenses.appendingPathComponent("couples.csv"))
        try Data(members.utf8).write(to: expenses.appendingPathComponent("members.csv"))
        try Data(rows.utf8).write(to: expenses.appendingPathComponent("expenses.csv"))
        return (data, ids)
    }

    @Test func idsThatWouldBecomeFileNamesStayInsideTheOutFolder() throws {
        let work = try temporaryFolder("ids")
        defer { try? FileManager.default.removeItem(at: work) }
        let (data, ids) = try Self.hostileIdData(in: work)
        let out = work.appendingPathComponent("deep/out")
        let r = try tally(["run", "--data", data.path, "--out", out.path, "--period", "2026-10", "--quiet"])
        #expect(r.code == 0, "\(r.err)")

        // Nothing was written anywhere but the out folder (and the data folder, untouched).
        let everything = try CrashHarness.reports(in: work, includingTemporaries: true).keys
        // (The warehouse lives beside the out folder, in deep/.tally/.)
        let outside = everything.filter { !$0.hasPrefix("deep/out/") && !$0.hasPrefix("data/") && !$0.hasPrefix("deep/.tally/out.sqlite") }
        #expect(outside.isEmpty, "written outside the out folder: \(outside)")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("etc").path))

        // One statement text per couple, each a plain name in statements/.
        let texts = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("statements").path)
            .filter { $0.hasSuffix(".txt") }.sorted()
        #expect(texts == ids.map { SafeFileName.stem(for: $0) + ".txt" }.sorted())
        for name in texts {
            #expect(!name.contains("/") && !name.hasPrefix(".") && name.utf8.count <= 100, "\(name)")
            #expect(!["CON", "CON.txt"].contains(name.uppercased()), "\(name)")
        }
        #expect(texts.contains("ok.txt"))

        let rejects = try String(contentsOf: out.appendingPathComponent("rejects.csv"), encoding: .utf8)
        #expect(rejects.contains("expenses,expenses/couples.csv,9,,id is empty"))
        #expect(rejects.contains("expenses,expenses/expenses.csv,11,big3,amount: amount '92233720368547758.07' is out of range"))
        let balances = try String(contentsOf: out.appendingPathComponent("statements/balances.csv"), encoding: .utf8)
        #expect(balances.contains("ok,2026-10,m6a,A,BRL,0.00,20000000000100.00,10000000000050.00,0.00,0.00,10000000000050.00"))
    }

    /// A data folder of `couples` couples (two members and one expense each),
    /// so that the reports are larger than a small file size limit.
    static func manyCouples(_ couples: Int, in folder: URL) throws -> URL {
        let expenses = folder.appendingPathComponent("expenses")
        try FileManager.default.createDirectory(at: expenses, withIntermediateDirectories: true)
        var c = "id,name,currency,createdAt\n", m = "id,coupleId,displayName,role,joinedAt\n", e = expensesHeader
        for i in 0..<couples {
            c += "c\(i),Couple \(i),BRL,\n"
            m += "c\(i)a,c\(i),Ana \(i),admin,\nc\(i)b,c\(i),Bia \(i),member,\n"
            e += "e\(i),c\(i),c\(i)a,\(i).99,BRL,2026-09-05,groceries,food,,,equal,,2026-09-05T10:00:00Z,\n"
        }
        try Data(c.utf8).write(to: expenses.appendingPathComponent("couples.csv"))
        try Data(m.utf8).write(to: expenses.appendingPathComponent("members.csv"))
        try Data(e.utf8).write(to: expenses.appendingPathComponent("expenses.csv"))
        return folder
    }

    @Test func aDiskThatFillsUpStopsTheRunAndKeepsThePreviousReports() throws {
        let work = try temporaryFolder("full")
        defer { try? FileManager.default.removeItem(at: work) }
        let out = work.appendingPathComponent("out")
        let data = try Self.manyCouples(2_000, in: work.appendingPathComponent("data"))
        let first = try tally(["run", "--data", data.path, "--out", out.path, "--period", "2026-10", "--reproducible", "--quiet"])
        #expect(first.code == 0, "\(first.err)")
        let before = try CrashHarness.reports(in: out)
        #expect(before["statements/balances.csv"].map { $0.count > 128 << 10 } == true)

        // Another month, with files limited to 64 KiB (RLIMIT_FSIZE, room for
        // the warehouse's shared-memory file): the first larger report fails
        // with EFBIG, as on a full disk writes fail with ENOSPC.
        let limited = try shell("""
            ulimit -f 64; exec '\(tallyBinary.path)' report --out '\(out.path)' --period 2026-09 --reproducible --quiet
            """)
        #expect(limited.code == 1)
        #expect(limited.err.hasPrefix("tally: cannot write \(out.path)/statements/"), "\(limited.err)")
        #expect(limited.err.contains("File too large"), "\(limited.err)")
        #expect(try Warehouse(path: WarehouseLocation.defaultPath(out: out)).integrityCheck() == "ok")
        #expect(try CrashHarness.reports(in: out, includingTemporaries: true) == before,
                "the previous reports changed, or temporary files were left")

        // Ingest under the limit (the same data under another path, so it is
        // loaded): the warehouse transaction is rolled back.
        let copy = work.appendingPathComponent("copy")
        try FileManager.default.copyItem(at: data, to: copy)
        let ingest = try shell("""
            ulimit -f 64; exec '\(tallyBinary.path)' run --data '\(copy.path)' --out '\(out.path)' --period 2026-10 --reproducible --quiet
            """)
        #expect(ingest.code == 1)
        #expect(ingest.err.hasPrefix("tally: cannot write the warehouse \(WarehouseLocation.defaultPath(out: out)): "), "\(ingest.err)")
        #expect(try Warehouse(path: WarehouseLocation.defaultPath(out: out)).integrityCheck() == "ok")
        #expect(try CrashHarness.reports(in: out, includingTemporaries: true) == before)

        // With room again, the same run succeeds and finds the warehouse as it was.
        let again = try tally(["run", "--data", data.path, "--out", out.path, "--period", "2026-10", "--reproducible", "--quiet"])
        #expect(again.code == 0, "\(again.err)")
        #expect(try CrashHarness.reports(in: out) == before)
    }

    @Test func a100MBLineIsRejectedWithBoundedMemory() throws {
        let work = try temporaryFolder("long")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = try Self.manyCouples(1, in: work.appendingPathComponent("data"))
        // Append a 100 MB description on line 3 of expenses.csv, then a good row.
        let url = data.appendingPathComponent("expenses/expenses.csv")
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("long,c0,c0a,1.00,BRL,2026-09-06,".utf8))
        let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<100 { try handle.write(contentsOf: chunk) }
        try handle.write(contentsOf: Data(",food,,,equal,,2026-09-06T10:00:00Z,\nafter,c0,c0b,2.00,BRL,2026-09-07,,food,,,equal,,2026-09-07T10:00:00Z,\n".utf8))
        try handle.close()

        let out = work.appendingPathComponent("out")
        let (status, peak) = try peakMemory([tallyBinary.path, "run", "--data", data.path, "--out", out.path, "--period", "2026-09", "--quiet"])
        #expect(status == 0)
        let rejects = try String(contentsOf: out.appendingPathComponent("rejects.csv"), encoding: .utf8)
        #expect(rejects.contains("expenses,expenses/expenses.csv,3,,record longer than 1048576 bytes"), "\(rejects)")
        let balances = try String(contentsOf: out.appendingPathComponent("statements/balances.csv"), encoding: .utf8)
        #expect(balances.contains("c0,2026-09,c0b,Bia 0,BRL,0.00,2.00,1.50,0.00,0.00,0.50"), "the row after the long line is read")
        // The reader skips the line without keeping it: tally's peak memory is
        // its usual ~40 MiB, not the line's 100 MiB (and its copies).
        #expect(peak > 0, "the run was sampled")
        #expect(peak < 80 << 20, "peak RSS \(peak >> 20) MiB")
        print("100 MB line: tally peak RSS \(peak >> 20) MiB")
    }

    @Test func anUnreadableFileIsRefusedNamingItAndKeepsTheReports() throws {
        let work = try temporaryFolder("corrupt")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = try Self.manyCouples(3, in: work.appendingPathComponent("data"))
        let out = work.appendingPathComponent("out")
        let first = try tally(["run", "--data", data.path, "--out", out.path, "--period", "2026-09", "--reproducible", "--quiet"])
        #expect(first.code == 0, "\(first.err)")
        let before = try CrashHarness.reports(in: out)

        // A settlements file that claims to be gzip but is not, and a CSV whose
        // header never ends its quote: each is refused (exit 3), and, never
        // loaded before, keeps the statements the first run wrote.
        let expenses = data.appendingPathComponent("expenses")
        try Data([0x1F, 0x8B, 0x08, 0x00, 0xDE, 0xAD, 0xBE, 0xEF] + Array(repeating: 0x41, count: 64))
            .write(to: expenses.appendingPathComponent("settlements.csv.gz"))
        let gz = try tally(["run", "--data", data.path, "--out", out.path, "--period", "2026-09", "--reproducible", "--quiet"])
        #expect(gz.code == 3)
        #expect(gz.err.contains("\n  expenses/settlements.csv.gz: corrupt gzip data in member 1: "), "\(gz.err)")
        try FileManager.default.removeItem(at: expenses.appendingPathComponent("settlements.csv.gz"))

        try Data("id,\"name,currency\n1,2,3\n".utf8).write(to: expenses.appendingPathComponent("cards.csv"))
        let header = try tally(["run", "--data", data.path, "--out", out.path, "--period", "2026-09", "--reproducible", "--quiet"])
        #expect(header.code == 3)
        #expect(header.err.contains("\n  expenses/cards.csv: the header row (line 1) has an unterminated quote\n"), "\(header.err)")

        // The warehouse is whole, and every report but run.json and rejects.csv is the first run's.
        #expect(try Warehouse(path: WarehouseLocation.defaultPath(out: out)).integrityCheck() == "ok")
        let after = try CrashHarness.reports(in: out, includingTemporaries: true)
        let unchanged = { (files: [String: Data]) in files.filter { $0.key != "run.json" && $0.key != "rejects.csv" } }
        #expect(unchanged(after) == unchanged(before))
        #expect(String(decoding: after["rejects.csv"] ?? Data(), as: UTF8.self)
            .contains("expenses,expenses/cards.csv,0,,file refused: the header row (line 1) has an unterminated quote"))
    }

    @Test func temporaryFilesOfAKilledRunAreRemovedByTheNextRun() throws {
        let work = try temporaryFolder("stale")
        defer { try? FileManager.default.removeItem(at: work) }
        let out = work.appendingPathComponent("out")
        let statements = out.appendingPathComponent("statements")
        try FileManager.default.createDirectory(at: statements, withIntermediateDirectories: true)
        // A pid that existed and is gone: a child that has exited.
        let gone = try shell("exit 0").pid
        let stale = statements.appendingPathComponent(".balances.csv.tmp-\(gone)")
        let live = statements.appendingPathComponent(".balances.csv.tmp-\(getpid())")   // this test process: alive
        let other = statements.appendingPathComponent(".notes.tmp-x")
        for url in [stale, live, other] { try Data("partial".utf8).write(to: url) }

        let r = try tally(["run", "--data", repositoryRoot.appendingPathComponent("sample-data").path,
                           "--out", out.path, "--period", "2026-10", "--quiet"])
        #expect(r.code == 0, "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: live.path))
        #expect(FileManager.default.fileExists(atPath: other.path))
    }
}

/// Runs `script` with bash; returns its exit code, stderr and pid.
func shell(_ script: String) throws -> (code: Int32, err: String, pid: Int32) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    let err = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = err
    try process.run()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: e, as: UTF8.self), process.processIdentifier)
}

/// Runs `arguments` (the first is the program) and returns its exit status
/// and peak resident memory in bytes: the largest `VmHWM` of
/// `/proc/<pid>/status` seen while it runs, polled every millisecond.
/// (wait4's ru_maxrss would not do: at exec, Linux records the high-water mark
/// of the memory the child was spawned from, which is this test process's.)
func peakMemory(_ arguments: [String]) throws -> (status: Int32, peak: Int) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let status = "/proc/\(process.processIdentifier)/status"
    var peak = 0
    while process.isRunning {
        if let text = try? String(contentsOfFile: status, encoding: .utf8),
           let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
           let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") {
            peak = max(peak, kib * 1024)
        }
        usleep(1_000)
    }
    process.waitUntilExit()
    return (process.terminationStatus, peak)
}
