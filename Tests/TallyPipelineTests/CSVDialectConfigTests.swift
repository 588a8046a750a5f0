import Foundation
import Testing
import TallyCore
@testable import TallyPipeline

@Suite("csv.dialect in tally.yml")
struct CSVDialectConfigTests {
    @Test("a dialect is read (any case, _ for -); left out, the contract's RFC 4180 alone")
    func reads() throws {
        #expect(try ConfigLoader.parse("csv:\n  dialect: excel-pt-BR\n", file: "tally.yml").csv.dialect == .excelPtBR)
        #expect(try ConfigLoader.parse("csv:\n  dialect: EXCEL_es_es\n", file: "tally.yml").csv.dialect == .excelEsES)
        #expect(try ConfigLoader.parse("csv:\n  dialect: excel-en-US\n", file: "tally.yml").csv.dialect == .excelEnUS)
        #expect(try ConfigLoader.parse("locale: pt-BR\n", file: "tally.yml").csv.dialect == .rfc4180)
        #expect(!CSVDialect.rfc4180.writesCopies)
    }

    @Test("a misspelt setting or dialect is an error naming the file, the line and the setting")
    func refusesTypos() {
        let cases = [
            ("locale: pt-BR\ncsv:\n  dialet: excel-pt-BR\n", "tally.yml line 3: unknown setting 'dialet' in csv (known: dialect)"),
            ("csv:\n  dialect: excel-pt\n",
             "tally.yml line 2: csv.dialect 'excel-pt' is not one of rfc4180, excel-pt-BR, excel-es-ES, excel-en-US"),
            ("csv: excel-pt-BR\n", "tally.yml line 1: csv must be a mapping"),
        ]
        for (text, message) in cases {
            do {
                _ = try ConfigLoader.parse(text, file: "tally.yml")
                Issue.record("accepted: \(text)")
            } catch {
                #expect("\(error)" == message)
            }
        }
    }

    @Test("with excel-pt-BR a run writes every CSV report as the contract has it, and a copy in <family>/excel/")
    func runWritesCopiesBesideTheReports() throws {
        let work = try temporaryFolder("csv-dialect")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = repositoryRoot.appendingPathComponent("sample-data")
        let sample = try String(contentsOf: data.appendingPathComponent("tally.yml"), encoding: .utf8)
        let config = work.appendingPathComponent("tally.yml")
        #expect(sample.contains("dialect: rfc4180"))
        try Data(sample.replacingOccurrences(of: "dialect: rfc4180", with: "dialect: excel-pt-BR").utf8).write(to: config)
        let out = work.appendingPathComponent("out")
        let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))
        _ = try runner.run(RunRequest(dataDirectory: data, outDirectory: out, period: YearMonth("2026-10")!,
                                      databasePath: work.appendingPathComponent("tally.sqlite").path, configURL: config,
                                      reproducible: true))
        let golden = repositoryRoot.appendingPathComponent("reports")
        var copies = 0
        for family in ["activity", "kpis", "leaderboards", "statements"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: golden.appendingPathComponent(family).path)
                .filter { $0.hasSuffix(".csv") }
            #expect(!names.isEmpty)
            for name in names {
                let report = try Data(contentsOf: out.appendingPathComponent("\(family)/\(name)"))
                #expect(report == (try Data(contentsOf: golden.appendingPathComponent("\(family)/\(name)"))), "\(family)/\(name) is the contract's file")
                let copy = try Data(contentsOf: out.appendingPathComponent("\(family)/excel/\(name)"))
                #expect(Array(copy.prefix(3)) == [0xEF, 0xBB, 0xBF], "\(family)/excel/\(name)")
                copies += 1
            }
        }
        #expect(copies >= 10)
        let scores = try String(contentsOf: out.appendingPathComponent("activity/excel/scores.csv"), encoding: .utf8)
        #expect(scores.contains(";") && scores.contains("\r\n"))
        let original = try String(contentsOf: out.appendingPathComponent("activity/scores.csv"), encoding: .utf8)
        #expect(original.filter { $0 == "." }.count > 0 && scores.dropFirst().filter { $0 == "." }.count
                < original.filter { $0 == "." }.count, "decimals have commas")
    }
}
