import Foundation
import Testing
import TallyCore
import TallyReports
import TallyTestSupport
@testable import TallyPipeline

/// `statements.coupleWorkbooks` and `tally statement`: each couple's own
/// workbook, written with the run's other reports, removed with its couple,
/// and on demand from the warehouse.
@Suite("Couple workbooks", .serialized)
struct CoupleWorkbooksTests {
    let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))

    /// Three couples with an expense in September and one in October each; a config turning workbooks `on`.
    func dataFolder(in work: URL, workbooks on: Bool) throws -> (data: URL, config: URL) {
        let data = try HostileRunTests.manyCouples(3, in: work.appendingPathComponent("data"))
        let expenses = data.appendingPathComponent("expenses/expenses.csv")
        var rows = try String(contentsOf: expenses, encoding: .utf8)
        for i in 0..<3 { rows += "o\(i),c\(i),c\(i)b,936.43,BRL,2026-10-05,dinner,food,,,equal,,2026-10-05T10:00:00Z,\n" }
        try Data(rows.utf8).write(to: expenses)
        return (data, try config(in: work, workbooks: on))
    }

    func config(in work: URL, workbooks on: Bool) throws -> URL {
        let url = work.appendingPathComponent("tally-\(on).yml")
        try Data("statements:\n  coupleWorkbooks: \(on)\n".utf8).write(to: url)
        return url
    }

    @discardableResult
    func run(_ data: URL, _ out: URL, config: URL) throws -> TallyRunner.Outcome {
        try runner.run(RunRequest(dataDirectory: data, outDirectory: out, period: YearMonth("2026-10")!,
                                  databasePath: out.appendingPathComponent("tally.sqlite").path, configURL: config,
                                  reproducible: true))
    }

    func workbooks(_ out: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("statements").path)
            .filter { $0.hasSuffix(".xlsx") }.sorted()
    }

    @Test func onWritesOneWorkbookPerCoupleMatchingTheCSV() throws {
        let work = try temporaryFolder("couple-workbooks")
        defer { try? FileManager.default.removeItem(at: work) }
        let (data, config) = try dataFolder(in: work, workbooks: true)
        let out = work.appendingPathComponent("out")
        let outcome = try run(data, out, config: config)
        #expect(try workbooks(out) == ["c0.xlsx", "c1.xlsx", "c2.xlsx", "statements.xlsx"])
        #expect(outcome.manifest.outputs.contains { $0.path == "statements/<coupleId>.xlsx" && $0.rows == 3 })

        // Each member's balance line equals balances.csv's.
        let csv = try String(contentsOf: out.appendingPathComponent("statements/balances.csv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        for couple in ["c0", "c1", "c2"] {
            let reader = try XLSXReader(url: out.appendingPathComponent("statements/\(couple).xlsx"))
            #expect(reader.sheetNames == ["Extrato", "Despesas"])
            // The balances under their heading and header.
            let headings = try (1...40).map { try reader.cell("Extrato", "A\($0)")?.string }
            let balances = try #require(headings.firstIndex(of: "Saldos")) + 1
            for (i, line) in csv.filter({ $0[0] == couple }).enumerated() {
                let row = try reader.row("Extrato", balances + 2 + i)
                #expect(row.first == .string(line[3]))
                let numbers = row.dropFirst().map { $0?.number.map { String(format: "%.2f", $0) } }
                #expect(numbers == Array(line[5...10]), "\(couple) \(line[2])")
            }
            #expect(try reader.cell("Despesas", "E4") == .number(936.43))
        }
    }

    @Test func aWorkbookGoesWithItsCoupleAndWithTheSetting() throws {
        let work = try temporaryFolder("couple-workbooks")
        defer { try? FileManager.default.removeItem(at: work) }
        let (data, config) = try dataFolder(in: work, workbooks: true)
        let out = work.appendingPathComponent("out")
        try run(data, out, config: config)
        #expect(try workbooks(out).contains("c2.xlsx"))

        // c2 leaves couples.csv: its workbook and text go.
        let couples = data.appendingPathComponent("expenses/couples.csv")
        let kept = try String(contentsOf: couples, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("c2,") }
        try Data((kept.joined(separator: "\n") + "\n").utf8).write(to: couples)
        try run(data, out, config: config)
        #expect(try workbooks(out) == ["c0.xlsx", "c1.xlsx", "statements.xlsx"])
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("statements/c2.txt").path))

        // The setting turned off: only the overview is left.
        try run(data, out, config: try self.config(in: work, workbooks: false))
        #expect(try workbooks(out) == ["statements.xlsx"])
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("statements/c0.txt").path))
    }

    @Test func aCoupleCalledStatementsDoesNotReplaceTheOverview() throws {
        let work = try temporaryFolder("couple-workbooks")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data/expenses")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try Data("id,name,currency,createdAt\nstatements,Overview?,BRL,\n../up,Up,BRL,\n".utf8)
            .write(to: data.appendingPathComponent("couples.csv"))
        try Data("id,coupleId,displayName,role,joinedAt\na,statements,Ana,admin,\nb,statements,Bia,member,\nc,../up,Caio,admin,\n".utf8)
            .write(to: data.appendingPathComponent("members.csv"))
        try Data((HostileRunTests.expensesHeader + "e1,statements,a,10.00,BRL,2026-10-05,x,food,,,equal,,2026-10-05T10:00:00Z,\n").utf8)
            .write(to: data.appendingPathComponent("expenses.csv"))
        let out = work.appendingPathComponent("out")
        try run(work.appendingPathComponent("data"), out, config: try config(in: work, workbooks: true))
        let names = try workbooks(out)
        let stem = CoupleFileName.stem(for: "statements")
        #expect(names.sorted() == [SafeFileName.stem(for: "../up") + ".xlsx", "statements.xlsx", stem + ".xlsx"].sorted())
        // The overview is still the overview; the couple's workbook and text share their stem.
        #expect(try XLSXReader(url: out.appendingPathComponent("statements/statements.xlsx")).sheetNames.first == "Resumo")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("statements/\(stem).txt").path))
    }

    @Test func theSameRunGivesTheSameWorkbooks() throws {
        let work = try temporaryFolder("couple-workbooks")
        defer { try? FileManager.default.removeItem(at: work) }
        let (data, config) = try dataFolder(in: work, workbooks: true)
        let first = work.appendingPathComponent("out1"), second = work.appendingPathComponent("out2")
        try run(data, first, config: config)
        try run(data, second, config: config)
        for name in try workbooks(first) {
            #expect(try Data(contentsOf: first.appendingPathComponent("statements/\(name)"))
                    == Data(contentsOf: second.appendingPathComponent("statements/\(name)")), "\(name)")
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: tallyBinary.path)))
    func theStatementCommandWritesOneCouplesFiles() throws {
        let work = try temporaryFolder("statement-command")
        defer { try? FileManager.default.removeItem(at: work) }
        let (data, _) = try dataFolder(in: work, workbooks: false)
        let out = work.appendingPathComponent("out")
        try run(data, out, config: try config(in: work, workbooks: false))
        #expect(try workbooks(out) == ["statements.xlsx"])

        let db = out.appendingPathComponent("tally.sqlite").path
        let sent = work.appendingPathComponent("sent")
        let r = try tally(["statement", "--couple", "c1", "--period", "2026-10", "--out", sent.path, "--db", db])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("statements/c1.xlsx"))
        let reader = try XLSXReader(url: sent.appendingPathComponent("statements/c1.xlsx"))
        #expect(try reader.cell("Extrato", "A1") == .string("Extrato do casal Couple 1 — outubro de 2026"))
        // The same text as the run's.
        #expect(try Data(contentsOf: sent.appendingPathComponent("statements/c1.txt"))
                == Data(contentsOf: out.appendingPathComponent("statements/c1.txt")))
        #expect(try CrashHarness.reports(in: sent, includingTemporaries: true).keys.sorted() == ["statements/c1.txt", "statements/c1.xlsx"])

        let unknown = try tally(["statement", "--couple", "nobody", "--period", "2026-10", "--out", sent.path, "--db", db])
        #expect(unknown.code == 1)
        #expect(unknown.err == "tally: no couple 'nobody' in the warehouse \(db)\n")

        let missing = work.appendingPathComponent("none.sqlite").path
        let noWarehouse = try tally(["statement", "--couple", "c1", "--period", "2026-10", "--out", sent.path, "--db", missing])
        #expect(noWarehouse.code == 66)
        #expect(noWarehouse.err.hasPrefix("tally: no warehouse at \(missing)"))
        #expect(!FileManager.default.fileExists(atPath: missing))

        let badPeriod = try tally(["statement", "--couple", "c1", "--period", "2026-13", "--db", db])
        #expect(badPeriod.code == 64)
        let help = try tally(["statement", "--help"])
        #expect(help.code == 0 && help.out.contains("--couple <id>"))

        // The same workbook a run with couple workbooks on writes, byte for byte.
        let withWorkbooks = work.appendingPathComponent("out-on")
        try run(data, withWorkbooks, config: try config(in: work, workbooks: true))
        #expect(try Data(contentsOf: sent.appendingPathComponent("statements/c1.xlsx"))
                == Data(contentsOf: withWorkbooks.appendingPathComponent("statements/c1.xlsx")))
    }
}
