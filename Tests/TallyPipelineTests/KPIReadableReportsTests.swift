import Foundation
import Testing
import TallyCore
import TallyTestSupport
@testable import TallyPipeline

/// One run of sample-data/ (its tally.yml reports MRR in BRL), shared by the
/// tests below; and a second report on the same warehouse in JPY, which
/// no fx rate of sample-data/ leads to (it has JPY→BRL, not BRL→JPY).
private final class SampleRun: Sendable {
    static let shared = Result { try SampleRun() }

    let work: URL
    let out: URL
    let outcome: TallyRunner.Outcome
    /// The same period reported with `kpis.reportingCurrency: JPY`.
    let yenOut: URL
    let yenSummary: [String]

    init() throws {
        work = try temporaryFolder("kpis-readable")
        out = work.appendingPathComponent("out")
        yenOut = work.appendingPathComponent("jpy")
        let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))
        let data = repositoryRoot.appendingPathComponent("sample-data")
        let db = work.appendingPathComponent("tally.sqlite").path
        outcome = try runner.run(RunRequest(dataDirectory: data, outDirectory: out, period: YearMonth("2026-10")!,
                                            databasePath: db, reproducible: true))
        let sampleConfig = try String(contentsOf: data.appendingPathComponent("tally.yml"), encoding: .utf8)
        let config = work.appendingPathComponent("jpy.yml")
        try Data(sampleConfig.replacingOccurrences(of: "reportingCurrency: BRL", with: "reportingCurrency: JPY").utf8).write(to: config)
        yenSummary = try runner.run(RunRequest(dataDirectory: data, outDirectory: yenOut, period: YearMonth("2026-10")!,
                                      databasePath: db, configURL: config, reproducible: true)).summary
    }

    static func get() throws -> SampleRun { try shared.get() }

    func csv(_ name: String, in folder: URL? = nil) throws -> [[String]] {
        try String(contentsOf: (folder ?? out).appendingPathComponent("kpis/\(name)"), encoding: .utf8)
            .split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    func text(in folder: URL? = nil) throws -> String {
        try String(contentsOf: (folder ?? out).appendingPathComponent("kpis/kpis.txt"), encoding: .utf8)
    }

    func book(in folder: URL? = nil) throws -> XLSXReader {
        try XLSXReader(url: (folder ?? out).appendingPathComponent("kpis/kpis.xlsx"))
    }
}

@Suite("KPI reports people can read (sample-data)", .serialized)
struct KPIReadableReportsTests {
    /// The Summary row (1-based) whose metric and app are these.
    func summaryRow(_ book: XLSXReader, metric: String, app: String) throws -> Int? {
        for row in 5...60 where try book.strings("Summary", row).prefix(2) == [metric, app] { return row }
        return nil
    }

    /// The Summary row (1-based) whose first cell is `heading`.
    func headingRow(_ book: XLSXReader, _ heading: String, after: Int = 1) throws -> Int? {
        for row in after...80 where try book.cell("Summary", "A\(row)")?.string == heading { return row }
        return nil
    }

    @Test("the Summary prints on A4 landscape at 70% or more; columns are as wide as their labels and values, not the notes")
    func summaryPrintsLegibly() throws {
        let book = try SampleRun.get().book()
        #expect(try book.paperSize("Summary") == 9)
        #expect(try book.sheetElement("Summary", "pageSetup")?["orientation"] == "landscape")
        let scale = try book.printScale("Summary")
        #expect(scale >= 70, "prints at \(scale)%")
        let widths = try book.columnWidths("Summary")
        // Metric: "Free→paid conversion" (20 characters, bold); no column is sized by a sentence.
        #expect(try #require(widths[0]) < 27, "\(widths)")
        for sheet in ["Summary", "Conversion", "Retention", "MRR by plan"] {
            let widest = try book.columnWidths(sheet).values.max() ?? 0
            #expect(widest <= 30, "\(sheet): a column \(widest) characters wide")
        }
        // Every sheet of the workbook prints on A4 (sample-data's locale is pt-BR).
        #expect(try book.sheetNames.allSatisfy { try book.paperSize($0) == 9 })
    }

    @Test("headings over numbers and money align right like them; Change and Target are separate columns; the total sits under MRR")
    func headingsAlign() throws {
        let book = try SampleRun.get().book()
        let header = try #require(try headingRow(book, "Metric"))
        #expect(try book.strings("Summary", header) == ["Metric", "App", "Scope", "This month", "Last month", "Change", "Target",
                                                         "Status", "Detail"])
        for column in ["D", "E", "F", "G", "I"] { #expect(try book.isRightAligned("Summary", "\(column)\(header)"), "\(column)") }
        for column in ["A", "B", "C", "H"] { #expect(try !book.isRightAligned("Summary", "\(column)\(header)"), "\(column)") }
        let conversion = try #require(try summaryRow(book, metric: "Free→paid conversion", app: "FisioFlow"))
        #expect(try book.cell("Summary", "F\(conversion)")?.number == 22.2)
        #expect(try book.cell("Summary", "G\(conversion)")?.string == "15.0%–20.0%")
        #expect(try book.isRightAligned("Summary", "G\(conversion)"), "the target is right-aligned under its heading")
        let totals = try #require(try headingRow(book, "Currency", after: header))
        #expect(try book.strings("Summary", totals) == ["Currency", nil, "Paid subscribers", "MRR", "Last month", "Change",
                                                         "Rate to BRL", "Rate date", "MRR in BRL"])
        for column in ["C", "D", "E", "F", "G", "H", "I"] { #expect(try book.isRightAligned("Summary", "\(column)\(totals)")) }
        // The MRR sheet: the money heading right, the currency after it indented, so "R$2,395.11" and "BRL" never touch.
        #expect(try book.strings("MRR", 1) == ["App", "Plan", "Subscribers", "MRR", "Currency"])
        #expect(try book.isRightAligned("MRR", "D1"))
        #expect(try book.horizontalAlignment("MRR", "E1") == "left" && book.horizontalAlignment("MRR", "E2") == "left")
        #expect(try book.sheetXML("MRR").contains("indent=\"1\"") || book.text("xl/styles.xml").contains("indent=\"1\""))
        for column in ["D", "E", "F", "G", "H", "I", "J", "K"] { #expect(try book.isRightAligned("MRR movements", "\(column)1"), "\(column)") }
    }

    @Test("money formats carry their locale: the KPIs' in English, the statements' in pt-BR")
    func moneyFormatsCarryTheLocale() throws {
        let run = try SampleRun.get()
        let book = try run.book()
        let mrr = try #require(try summaryRow(book, metric: "MRR", app: "FisioFlow"))
        #expect(try book.numberFormat("Summary", "D\(mrr)") == "[$R$-409]#,##0.00;-[$R$-409]#,##0.00")
        #expect(try book.numberFormat("Summary", "F\(mrr)") == "+[$R$-409]#,##0.00;-[$R$-409]#,##0.00;[$R$-409]#,##0.00")
        #expect(try book.numberFormat("MRR", "D2") == "[$R$-409]#,##0.00;-[$R$-409]#,##0.00")
        let statements = try XLSXReader(url: run.out.appendingPathComponent("statements/statements.xlsx"))
        let sheet = try #require(statements.sheetNames.first { $0 == "Saldos" })
        #expect(try statements.numberFormat(sheet, "G2") == "[$R$-416] #,##0.00;-[$R$-416] #,##0.00")
        #expect(try statements.paperSize(sheet) == 9)
    }

    @Test("the daily charts' category axis shows dates: a date format on the axis and on the date cells")
    func dailyAxisShowsDates() throws {
        let book = try SampleRun.get().book()
        #expect(try book.numberFormat("Swipes", "A2") == "yyyy-mm-dd")
        let charts = try book.chartPaths(onSheet: "Swipes")
        #expect(charts.count == 2)
        for path in charts {
            let root = try XMLNode.parse(book.data(path))
            let axis = try #require(root.descendants("catAx").first ?? root.descendants("dateAx").first)
            let format = axis.descendants("numFmt").first?.attributes
            #expect(format?["formatCode"] == "d mmm", "\(path)")
            #expect(format?["sourceLinked"] == "0", "\(path)")
        }
    }

    @Test("a rate's change on the Summary is in percentage points with a sign; counts and money are signed")
    func summaryChanges() throws {
        let book = try SampleRun.get().book()
        // FisioFlow's latest complete conversion cohort: 44.8% (13/29) against 22.6% (7/31).
        let conversion = try #require(try summaryRow(book, metric: "Free→paid conversion", app: "FisioFlow"))
        #expect(try book.cell("Summary", "F\(conversion)")?.number == 22.2)
        #expect(try book.numberFormat("Summary", "F\(conversion)") == "+0.0 \"pp\";-0.0 \"pp\";0.0 \"pp\"")
        let swipes = try #require(try summaryRow(book, metric: "Swipes", app: "FypMatch"))
        #expect(try book.cell("Summary", "F\(swipes)")?.number == 97)
        #expect(try book.numberFormat("Summary", "F\(swipes)")?.hasPrefix("+#,##0;-#,##0") == true)
        let mrr = try #require(try summaryRow(book, metric: "MRR", app: "FisioFlow"))
        #expect(try book.cell("Summary", "F\(mrr)")?.number == 1179)
        #expect(try book.numberFormat("Summary", "F\(mrr)")?.hasPrefix("+") == true)
        let text = try SampleRun.get().text()
        #expect(text.contains("(last month 22.6% (7/31), +22.2 pp)"))
    }

    @Test("status cells colour themselves: conditional formats on the Summary and the cohort sheets")
    func conditionalFormats() throws {
        let book = try SampleRun.get().book()
        let summary = try XMLNode.parse(Data(try book.sheetXML("Summary").utf8))
        let ranges = summary.descendants("conditionalFormatting")
        let firstHeadline = try #require(try headingRow(book, "Metric")) + 1
        #expect(ranges.count == 1 && ranges.first?.attributes["sqref"]?.hasPrefix("H\(firstHeadline):H") == true, "the Status column")
        let rules = ranges.flatMap { $0.descendants("cfRule") }
        #expect(rules.count == 4 && rules.allSatisfy { $0.attributes["dxfId"] != nil })
        let formulas = Set(rules.flatMap { $0.descendants("formula") }.map(\.text))
        #expect(formulas == ["\"below\"", "\"within\"", "\"above\"", "\"pending\""])
        #expect(try book.text("xl/styles.xml").contains("<dxfs count="))
        for sheet in ["Conversion", "Retention"] {
            let xml = try book.sheetXML(sheet)
            #expect(xml.contains("<formula>$G2=\"no (window open)\"</formula>"), "\(sheet): open cohorts greyed")
            #expect(xml.contains("<formula>\"pending\"</formula>"), "\(sheet)")
        }
        #expect(try book.sheetXML("Trials").contains("<formula>$F2=\"no (window open)\"</formula>"))
    }

    @Test("cohort charts: lines per app, targets as grey dashed lines, an axis fitted to rates and targets, open cohorts left out")
    func cohortCharts() throws {
        let run = try SampleRun.get()
        let book = try run.book()
        // Conversion: rates 8.7%–44.8% and the 15–20% band → 0–50%; retention: 50%–100% and ≥ 80% → 40–100%.
        for (sheet, noteColumn, targets, bounds) in [("Conversion", "L", ["Target min", "Target max"], (0.0, 0.5)),
                                                     ("Retention", "K", ["Target"], (0.4, 1.0))] {
            let charts = try book.chartPaths(onSheet: sheet)
            #expect(charts.count == 1)
            let root = try XMLNode.parse(book.data(charts[0]))
            #expect(!root.descendants("lineChart").isEmpty, "\(sheet): a line chart")
            let valueAxis = try #require(try book.axes(ofChart: charts[0]).first { $0.kind == "valAx" })
            #expect(valueAxis.minimum == bounds.0 && valueAxis.maximum == bounds.1, "\(sheet): \(valueAxis)")
            #expect(root.descendants("valAx").first?.descendants("majorUnit").first?.attributes["val"] == "0.1", "\(sheet)")
            // One series per app, then the targets: grey, dashed, without markers, drawn from the pivot's columns.
            let series = root.descendants("ser")
            let names = series.map { $0.children.first { $0.name == "tx" }?.descendants("v").first?.text ?? "" }
            #expect(names == ["FisioFlow", "FypMatch", "LovU"] + targets, "\(sheet): \(names)")
            for target in series.suffix(targets.count) {
                #expect(target.descendants("prstDash").first?.attributes["val"] == "dash", "\(sheet)")
                #expect(target.descendants("srgbClr").first?.attributes["val"] == "7F7F7F", "\(sheet)")
                #expect(target.descendants("marker").first?.descendants("symbol").first?.attributes["val"] == "none", "\(sheet)")
            }
            let caches = try book.seriesCaches(ofChart: charts[0])
            #expect(caches.last?.values.allSatisfy { $0 == (sheet == "Conversion" ? 0.2 : 0.8) } == true, "\(sheet): \(caches.last!)")
            // The pivot the chart draws lists complete cohorts only (2026-03…2026-09); its note names 2026-10.
            #expect(try book.cell(sheet, "\(noteColumn)2")?.string == "2026-03")
            #expect(try book.cell(sheet, "\(noteColumn)8")?.string == "2026-09")
            let note = try [10, 11].compactMap { try book.cell(sheet, "\(noteColumn)\($0)")?.string }.joined(separator: " ")
            #expect(note.contains("complete cohorts only") && note.contains("2026-10"), "\(note)")
        }
        // In the tables and the CSV an open cohort is "pending", never below.
        for name in ["conversion.csv", "retention.csv"] {
            let rows = try run.csv(name).dropFirst()
            #expect(!rows.isEmpty)
            for row in rows { #expect((row[6] == "false") == (row[row.count - 1] == "pending"), "\(name): \(row)") }
        }
        #expect(try book.cell("Conversion", "J9")?.string == "pending")   // FisioFlow 2026-10, 1/28
    }

    @Test("MRR movements have one sign in CSV, XLSX and text: churn and contraction negative, start + movements = end")
    func movementSigns() throws {
        let run = try SampleRun.get()
        let book = try run.book()
        let csv = try run.csv("mrr_movements.csv")
        let header = csv[0]
        #expect(Array(header.prefix(11)) == ["app", "month", "currency", "startMrr", "new", "expansion", "contraction", "churn",
                                             "reactivation", "endMrr", "netChange"])
        var sawChurn = false
        for (index, row) in csv.dropFirst().enumerated() {
            let amounts = row[4...8].map { Double($0)! }
            #expect(amounts[2] <= 0 && amounts[3] <= 0, "contraction and churn are never positive: \(row)")
            #expect(amounts[0] >= 0 && amounts[1] >= 0 && amounts[4] >= 0, "\(row)")
            let start = Decimal(string: row[3])!, end = Decimal(string: row[9])!
            let sum = row[4...8].map { Decimal(string: $0)! }.reduce(start, +)
            #expect(sum == end, "\(row)")
            #expect(Decimal(string: row[10])! == end - start)
            if amounts[3] < 0 { sawChurn = true }
            // The same row in the workbook (same order), cell by cell.
            let sheetRow = index + 2
            for (offset, column) in ["E", "F", "G", "H", "I"].enumerated() {
                #expect(try book.cell("MRR movements", "\(column)\(sheetRow)")?.number == amounts[offset], "\(row) \(column)")
            }
        }
        #expect(sawChurn)
        // The period's lines in kpis.txt print the same signed figures.
        let text = try run.text()
        for row in csv.dropFirst() where row[1] == "2026-10" {
            let signed = ["new", "expansion", "contraction", "churn", "reactivation"].enumerated().map { i, name in
                let value = row[4 + i]
                return "\(name) \(Double(value)! > 0 ? "+" : "")\(value)"
            }
            #expect(text.contains(signed.joined(separator: " · ")), "\(row)")
        }
        #expect(text.contains("churn -294.00"))
    }

    @Test("MRR totals per currency and the studio total in BRL, in the CSV, the Summary and kpis.txt")
    func totalsWithRates() throws {
        let run = try SampleRun.get()
        let rows = try run.csv("mrr_totals.csv")
        #expect(rows[0] == ["month", "currency", "subscribers", "mrr", "reportingCurrency", "rate", "rateDate",
                            "mrrInReportingCurrency", "note"])
        let brl = try #require(rows.first { $0[1] == "BRL" })
        let usd = try #require(rows.first { $0[1] == "USD" })
        let total = try #require(rows.first { $0[1] == "total" })
        #expect(brl[7] == brl[3] && brl[5] == "" && brl[4] == "BRL")
        #expect(usd[3] == "4.99" && usd[4] == "BRL" && !usd[5].isEmpty && usd[6] <= "2026-10-31")
        let converted = Decimal(string: usd[7])!
        #expect(Decimal(string: total[7])! == Decimal(string: brl[3])! + converted)
        #expect(total[2] == "\(Int(brl[2])! + Int(usd[2])!)")
        // BRL subtotal = the plans' MRR in mrr.csv.
        let plans = try run.csv("mrr.csv").dropFirst().filter { $0[4] == "BRL" }.map { Decimal(string: $0[3])! }.reduce(0, +)
        #expect(plans == Decimal(string: brl[3])!)

        let book = try run.book()
        var found = false
        for row in 5...80 where try book.cell("Summary", "A\(row)")?.string == "Studio total (BRL)" {
            // Under "MRR" (with last month and the change beside it) and under "MRR in BRL", the column it sums.
            let amount = NSDecimalNumber(decimal: Decimal(string: total[7])!).doubleValue
            #expect(try book.cell("Summary", "D\(row)")?.number == amount)
            #expect(try book.cell("Summary", "I\(row)")?.number == amount)
            found = true
        }
        #expect(found)
        let text = try run.text()
        #expect(text.contains("studio total \(total[7]) BRL"))
        #expect(run.outcome.summary.contains { $0.contains("= \(total[7]) BRL") })
    }

    @Test("without a rate to the reporting currency the studio total is empty and the currencies are named")
    func totalsWithoutRates() throws {
        let run = try SampleRun.get()
        let rows = try String(contentsOf: run.yenOut.appendingPathComponent("kpis/mrr_totals.csv"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let note = "no studio total in JPY: no fx rate from BRL, USD to JPY on or before 2026-10-31 in expenses/fx"
        #expect(rows.last == "2026-10,total,126,,JPY,,,,\"\(note)\"")
        #expect(rows.contains("2026-10,BRL,125,8612.66,JPY,,,,no fx rate to JPY"))
        #expect(rows.contains("2026-10,USD,1,4.99,JPY,,,,no fx rate to JPY"))
        let text = try run.text(in: run.yenOut)
        #expect(text.contains("  " + note))
        #expect(!text.contains("\n  studio total "), "no total line")
        let book = try run.book(in: run.yenOut)
        var noted = false, totalRow: Int?
        for row in 5...80 {
            if try book.cell("Summary", "A\(row)")?.string == note { noted = true }
            if try book.cell("Summary", "A\(row)")?.string == "Studio total (JPY)" { totalRow = row }
        }
        #expect(noted)
        let row = try #require(totalRow)
        #expect(try book.cell("Summary", "D\(row)")?.string == "—", "no partial sum in the total cell")
        #expect(try book.cell("Summary", "I\(row)")?.string == "—", "no partial sum in the total cell")
        #expect(run.yenSummary.contains { $0.contains("no studio total: no fx rate for BRL, USD") })
    }

    @Test("money in the workbook is the exact decimal of the CSV: integer minor units converted once")
    func exactMoney() throws {
        let run = try SampleRun.get()
        let book = try run.book()
        let rows = try run.csv("mrr.csv").dropFirst()
        #expect(!rows.isEmpty)
        for (index, row) in rows.enumerated() {
            // The nearest double to the decimal text, as Excel reads "1676.30": no sum of rounded doubles.
            #expect(try book.cell("MRR", "D\(index + 2)")?.number == Double(row[3])!, "\(row)")
        }
        let history = try run.csv("mrr_history.csv").dropFirst().filter { $0[5] == "BRL" && $0[0] == "2026-10" }
        let total = history.map { Decimal(string: $0[4])! }.reduce(0, +)
        var found = false
        for column in 1..<12 where try book.cell("MRR by plan", "\(XLSXReader.columnName(column))1")?.string == "Total" {
            #expect(try book.cell("MRR by plan", "\(XLSXReader.columnName(column))9")?.number
                    == Double(NSDecimalNumber(decimal: total).stringValue)!)
            found = true
            break
        }
        #expect(found)
    }

    @Test("a chart without variation is not drawn: the one USD subscriber gets a note, BRL its chart")
    func flatChart() throws {
        let book = try SampleRun.get().book()
        #expect(try book.chartPaths(onSheet: "MRR by plan").count == 1)
        var note: String?
        for column in 0..<40 {
            for row in 1...20 {
                if let text = try book.cell("MRR by plan", "\(XLSXReader.columnName(column))\(row)")?.string, text.hasPrefix("No chart") {
                    note = text
                }
            }
        }
        #expect(note?.contains("LovU premium stayed at 4.99 USD") == true, "\(note ?? "no note")")
        // Each currency's pivot ends with a Total column: BRL's six plans, then USD's one.
        #expect(try book.strings("MRR by plan", 1).compactMap { $0 }.filter { $0 == "Total" }.count == 2)
    }

    @Test("the terminal summary is short and in English, whatever the reports' locale")
    func terminalSummary() throws {
        let run = try SampleRun.get()
        let lines = RunSummary.render(run.outcome).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 25, "\(lines.count) lines:\n\(lines.joined(separator: "\n"))")
        let text = lines.joined(separator: "\n")
        for fragment in ["pontos", "Sem categoria", "Saldo", "Transferência", "Placar", "Atividade", "novato"] {
            #expect(!text.contains(fragment), "pt-BR fragment '\(fragment)' in the summary")
        }
        #expect(text.range(of: #"\d\.\d{3} min"#, options: .regularExpression) == nil, "no pt-BR digit grouping")
        #expect(text.range(of: #"\d,\d{2} "#, options: .regularExpression) == nil, "no pt-BR decimal commas")
        for key in ["statements:", "leaderboards:", "activity:", "kpis:", "checks: all", "reports written to"] {
            #expect(text.contains(key), "\(key)")
        }
    }
}

@Suite("kpis.reportingCurrency in tally.yml")
struct ReportingCurrencyConfigTests {
    @Test("an ISO code is read; left out, there is none")
    func reads() throws {
        #expect(try ConfigLoader.parse("kpis:\n  reportingCurrency: USD\n", file: "tally.yml").kpis.reportingCurrency == Currency(code: "USD"))
        #expect(try ConfigLoader.parse("kpis:\n  retentionDays: 30\n", file: "tally.yml").kpis.reportingCurrency == nil)
    }

    @Test("a code that is not ISO 4217 (a name, lower case, a symbol) is an error naming the file, line and setting")
    func refusesBadCodes() {
        for (value, shown) in [("Real", "Real"), ("brl", "brl"), ("\"R$\"", "R$"), ("\"\"", "")] {
            do {
                _ = try ConfigLoader.parse("locale: en-US\nkpis:\n  reportingCurrency: \(value)\n", file: "tally.yml")
                Issue.record("\(value) was accepted")
            } catch {
                #expect("\(error)" == "tally.yml line 3: kpis.reportingCurrency '\(shown)' is not an ISO 4217 currency code like BRL")
            }
        }
    }
}

@Suite("KPI definitions in the workbook and the docs")
struct KPIDefinitionsReportTests {
    @Test("the Definitions sheet lists every KPI with the sample's windows and targets, printed one page wide on A4")
    func definitionsSheet() throws {
        let book = try SampleRun.get().book()
        #expect(book.sheetNames.last == "Definitions")
        let definitions = KPIDefinition.all(KPIReport.Targets(TallyConfig.KPIs()))
        let header = try #require((1...10).first { try book.cell("Definitions", "A\($0)")?.string == "KPI" })
        #expect(try book.strings("Definitions", header) == KPIDefinition.headings)
        #expect(try book.isRightAligned("Definitions", "F\(header)"), "the target heading is right-aligned like its cells")
        for (i, definition) in definitions.enumerated() {
            // A long text is broken into lines within its cell: the words are the definition's.
            let cells = try book.strings("Definitions", header + 1 + i).map { $0?.replacingOccurrences(of: "\n", with: " ") }
            #expect(cells == definition.fields, "row \(header + 1 + i)")
        }
        let conversion = try #require(definitions.firstIndex { $0.kpi == "Free→paid conversion" }) + header + 1
        #expect(try book.cell("Definitions", "F\(conversion)")?.string == "15.0%–20.0%")
        #expect(try book.cell("Definitions", "D\(conversion)")?.string?.replacingOccurrences(of: "\n", with: " ").contains("within 30 days") == true)
        #expect(try book.isRightAligned("Definitions", "F\(conversion)"))
        // A cell of three lines sits in a row three lines tall, and every cell reads from its top.
        let xml = try book.sheetXML("Definitions")
        #expect(xml.contains("ht=\"45\""), "rows as tall as their lines")
        #expect(try book.text("xl/styles.xml").contains("vertical=\"top\""))
        // Fixed widths: no column sized by a sentence; one page wide on A4 landscape.
        let widths = try book.columnWidths("Definitions")
        #expect((widths.values.max() ?? 0) <= 53, "\(widths)")
        #expect(try book.paperSize("Definitions") == 9)
        #expect(try book.sheetElement("Definitions", "pageSetup")?["orientation"] == "landscape")
        #expect(try book.printScale("Definitions") >= 70)
    }

    @Test("docs/kpis.md lists the same definitions (default configuration)")
    func definitionsInDocs() throws {
        let docs = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/kpis.md"), encoding: .utf8)
        let table = KPIDefinitionsReportTests.markdown(KPIDefinition.all(KPIReport.Targets(TallyConfig.KPIs())))
        if !docs.contains(table) { Issue.record("docs/kpis.md should hold:\n\(table)\n(end)") }
    }

    /// The definitions as the Markdown table docs/kpis.md holds.
    static func markdown(_ rows: [KPIDefinition]) -> String {
        let line = { (cells: [String]) in "| " + cells.joined(separator: " | ") + " |" }
        return ([line(KPIDefinition.headings), line(KPIDefinition.headings.map { _ in "---" })] + rows.map { line($0.fields) })
            .joined(separator: "\n")
    }
}

@Suite("MRR movements by month in the workbook")
struct KPIMovementsChartTests {
    @Test("per currency: the signed movements of every app by month, their net, and a stacked column chart of the five buckets")
    func movementsByMonth() throws {
        let run = try SampleRun.get()
        let book = try run.book()
        let sheet = "MRR movements by month"
        let names = book.sheetNames
        #expect(names.firstIndex(of: sheet) == names.firstIndex(of: "MRR movements")! + 1)
        #expect(try book.strings(sheet, 1).prefix(7) == ["Month (BRL)", "New", "Expansion", "Contraction", "Churn", "Reactivation",
                                                          "Net change"])
        // Each cell is the sum over apps of mrr_movements.csv's signed amounts for the month; Net change their sum.
        let csv = try run.csv("mrr_movements.csv").dropFirst().filter { $0[2] == "BRL" }
        let months = Array(Set(csv.map { $0[1] })).sorted()
        #expect(months.count == 8)
        for (i, month) in months.enumerated() {
            let rows = csv.filter { $0[1] == month }
            #expect(try book.cell(sheet, "A\(i + 2)")?.string == month)
            var net = Decimal(0)
            for (offset, column) in ["B", "C", "D", "E", "F"].enumerated() {
                let sum = rows.map { Decimal(string: $0[4 + offset])! }.reduce(0, +)
                net += sum
                #expect(try book.cell(sheet, "\(column)\(i + 2)")?.number == Double(NSDecimalNumber(decimal: sum).stringValue)!,
                        "\(month) \(column)")
            }
            #expect(try book.cell(sheet, "G\(i + 2)")?.number == Double(NSDecimalNumber(decimal: net).stringValue)!)
            let nets = rows.map { Decimal(string: $0[10])! }.reduce(0, +)
            #expect(net == nets, "the movements sum to the apps' net change")
        }
        #expect(try book.numberFormat(sheet, "E2")?.hasPrefix("+[$R$-409]") == true, "signed money")
        // One chart (BRL): five stacked series from the pivot's columns, gains green and blue, losses orange and red.
        let charts = try book.chartPaths(onSheet: sheet)
        #expect(charts.count == 1)
        let root = try XMLNode.parse(book.data(charts[0]))
        #expect(root.descendants("grouping").first?.attributes["val"] == "stacked")
        #expect(root.descendants("overlap").first?.attributes["val"] == "100")
        let series = root.descendants("ser")
        #expect(series.map { $0.children.first { $0.name == "tx" }?.descendants("v").first?.text }
                == ["New", "Expansion", "Contraction", "Churn", "Reactivation"])
        #expect(series.map { $0.descendants("srgbClr").first?.attributes["val"] } == ["2E7D32", "81C784", "F4A259", "C62828", "1E88E5"])
        #expect(series.compactMap { $0.descendants("f").last?.text }
                == ["'MRR movements by month'!$B$2:$B$9", "'MRR movements by month'!$C$2:$C$9", "'MRR movements by month'!$D$2:$D$9",
                    "'MRR movements by month'!$E$2:$E$9", "'MRR movements by month'!$F$2:$F$9"])
        #expect(root.descendants("catAx").first?.descendants("tickLblPos").first?.attributes["val"] == "low",
                "month labels below the losses, not on the zero line")
        #expect(try book.title(ofChart: charts[0]) == "MRR movements by month, BRL (all apps)")
        // USD: one new subscriber in April, nothing else: a note, no chart.
        var note: String?
        for column in 8..<20 {
            for row in 1...20 {
                if let text = try book.cell(sheet, "\(XLSXReader.columnName(column))\(row)")?.string, text.hasPrefix("No chart") { note = text }
            }
        }
        #expect(note == "No chart: the USD MRR moved in one month at most (new 4.99 in 2026-04); a chart would show one bar.")
        // The chart sits below the pivot and its note, and the sheet prints one page wide.
        let anchor = try #require(try book.anchors(onSheet: sheet).first)
        #expect(anchor.from.row >= 11)
        #expect(try book.printScale(sheet) >= 40)
    }
}

@Suite("Revenue and retention curves in the CSVs and the workbook")
struct KPIRevenueCurvesReportTests {
    @Test("revenue.csv: per app, currency and month, net = revenue − refunded, ARPU and ARPPU per user; the Revenue sheet shows the same")
    func revenue() throws {
        let run = try SampleRun.get()
        let csv = try run.csv("revenue.csv")
        #expect(csv[0] == ["app", "month", "currency", "revenue", "refunded", "netRevenue", "charges", "refunds", "payingUsers",
                           "activeUsers", "arpu", "arppu"])
        let rows = Array(csv.dropFirst())
        #expect(!rows.isEmpty)
        // Refund counts agree with churn.csv's, month by month (every refund of the sample has a price).
        let churn = try run.csv("churn.csv").dropFirst()
        for c in churn {
            let counted = rows.filter { $0[0] == c[0] && $0[1] == c[1] }.map { Int($0[7])! }.reduce(0, +)
            #expect(counted == Int(c[6])!, "\(c)")
        }
        let book = try run.book()
        #expect(try book.strings("Revenue", 1) == ["App", "Month", "Currency", "Revenue", "Refunded", "Net revenue", "Charges",
                                                    "Refunds", "Paying users", "Active users", "ARPU", "ARPPU"])
        for (i, row) in rows.enumerated() {
            let revenue = Decimal(string: row[3])!, refunded = Decimal(string: row[4])!
            #expect(Decimal(string: row[5])! == revenue - refunded, "\(row)")
            let active = Int(row[9])!, paying = Int(row[8])!
            #expect(paying <= active, "\(row)")
            // ARPU: revenue / active users, to the cent (half away from zero).
            let minor = NSDecimalNumber(decimal: revenue * 100).int64Value
            #expect(row[10] == Money.plain(Int64((Double(minor) / Double(active)).rounded(.toNearestOrAwayFromZero)),
                                           Currency(code: row[2])!), "\(row)")
            for (offset, column) in ["D", "E", "F", "K", "L"].enumerated() {
                let text = row[[3, 4, 5, 10, 11][offset]]
                #expect(try book.cell("Revenue", "\(column)\(i + 2)")?.number == Double(text)!, "\(row) \(column)")
            }
        }
        #expect(try book.numberFormat("Revenue", "D2") == "[$R$-409]#,##0.00;-[$R$-409]#,##0.00")
        let usd = try #require(rows.first { $0[2] == "USD" && $0[1] == "2026-10" })
        #expect(usd[3] == "4.99" && usd[8] == "1" && usd[11] == "4.99", "\(usd)")
    }

    @Test("retention_curves.csv: M1…M6 per cohort, shares within 0…1; the sheet shows a coloured triangle per app")
    func retentionCurves() throws {
        let run = try SampleRun.get()
        let csv = try run.csv("retention_curves.csv")
        #expect(csv[0] == ["app", "cohort", "subscribers", "monthsSince", "month", "active", "activeRate"])
        let rows = Array(csv.dropFirst())
        let retention = try run.csv("retention.csv").dropFirst()
        for r in retention {
            let cells = rows.filter { $0[0] == r[0] && $0[1] == r[1] }
            let cohort = YearMonth(r[1])!
            #expect(cells.count == min(6, cohort.months(until: YearMonth("2026-10")!)), "\(r)")
            #expect(cells.map { Int($0[3])! } == Array((1...6).prefix(cells.count)), "months since, in order")
            for cell in cells {
                #expect(cell[2] == r[2], "the cohort's subscribers, as in retention.csv")
                #expect(Int(cell[5])! <= Int(cell[2])! && (0...1).contains(Double(cell[6])!), "\(cell)")
                #expect(cell[4] == cohort.adding(months: Int(cell[3])!).description)
            }
        }
        let book = try run.book()
        let sheet = "Retention curves"
        #expect(book.sheetNames.firstIndex(of: sheet) == book.sheetNames.firstIndex(of: "Retention")! + 1)
        // One triangle per app, side by side: its name, the headings, then one row per cohort with the CSV's shares.
        let header = try #require((1...10).first { try book.cell(sheet, "A\($0)")?.string == "Cohort" })
        let headings = ["Cohort", "Subscribers", "M1", "M2", "M3", "M4", "M5", "M6"]
        let names = try book.strings(sheet, header)
        for (j, app) in ["FisioFlow", "FypMatch", "LovU"].enumerated() {
            #expect(try book.cell(sheet, "\(XLSXReader.columnName(9 * j))\(header - 1)")?.string == app)
            #expect(Array(names.dropFirst(9 * j).prefix(8)) == headings, "\(app): \(names)")
        }
        let fisio = rows.filter { $0[0] == "FisioFlow" }
        let cohorts = Array(Set(fisio.map { $0[1] })).sorted()
        for (i, cohort) in cohorts.enumerated() {
            for cell in fisio where cell[1] == cohort {
                let column = XLSXReader.columnName(1 + Int(cell[3])!)
                let value = try #require(try book.cell(sheet, "\(column)\(header + 1 + i)")?.number)
                #expect(abs(value - Double(cell[5])! / Double(cell[2])!) < 1e-12, "\(cell)")
            }
        }
        #expect(try book.numberFormat(sheet, "C\(header + 1)") == "0.0%")
        // A month not ended yet is blank: the 2026-09 cohort has M1 only.
        let september = try #require(cohorts.firstIndex(of: "2026-09")) + header + 1
        #expect(try book.cell(sheet, "C\(september)") != nil && book.cell(sheet, "D\(september)") == nil)
        // Heat colours: one three-colour scale per app over its share cells.
        let formats = try book.conditionalFormats(sheet)
        let scales = formats.filter { $0.types.contains("colorScale") }
        #expect(scales.count == 3, "\(formats)")
        #expect(scales.contains { $0.range.hasPrefix("C\(header + 1):H") }, "\(scales)")
        #expect(try book.sheetXML(sheet).contains("F8696B") || book.sheetXML(sheet).contains("FFF8696B"))
    }
}

@Suite("App Store Connect against tally in the workbook and kpis.txt")
struct KPIReconciliationReportTests {
    @Test("FypMatch: Apple's 2 cancels against tally's 1, and why; the same lines in kpis.txt")
    func reconciliation() throws {
        let run = try SampleRun.get()
        let book = try run.book()
        let sheet = "App Store events"
        #expect(try book.cell(sheet, "H1")?.string == "App Store Connect against tally, 2026-10")
        #expect(try book.strings(sheet, 2).suffix(5) == ["App", "Figure", "App Store", "tally", "Same"])
        #expect(try book.isRightAligned(sheet, "J2") && book.isRightAligned(sheet, "K2"))
        var cancels: Int?
        for row in 3...12 where try book.strings(sheet, row).suffix(5).prefix(2) == ["FypMatch", "cancels"] { cancels = row }
        let row = try #require(cancels)
        #expect(try book.cell(sheet, "J\(row)")?.number == 2 && book.cell(sheet, "K\(row)")?.number == 1)
        #expect(try book.cell(sheet, "L\(row)")?.string == "no")
        // The why, as lines over the empty cells under the comparison, never widening a column.
        var notes: [String] = []
        for r in 3...40 { if let text = try book.cell(sheet, "H\(r)")?.string, text.count > 40 { notes.append(text) } }
        let joined = notes.joined(separator: " ")
        #expect(joined.contains("FypMatch, cancels (App Store 2, tally 1)"), "\(notes)")
        #expect(joined.contains("a cancel is not a churn until access ends (expired)"))
        #expect((try book.columnWidths(sheet).values.max() ?? 0) <= 30)
        let text = try run.text()
        #expect(text.contains("App Store Connect against tally in 2026-10"))
        #expect(text.range(of: #"FypMatch +cancels +App Store +2 +tally +1 +differ:"#, options: .regularExpression) != nil)
        // Revenue and the curves have their sections too.
        #expect(text.contains("Revenue in 2026-10"))
        #expect(text.range(of: #"LovU +USD +revenue +4\.99"#, options: .regularExpression) != nil)
        #expect(text.contains("    cohort   subs      M1     M2     M3     M4     M5     M6"))
    }
}

@Suite("Paywall conversion rate in paywall.csv and the workbook")
struct KPIPaywallRateTests {
    @Test("paywall.csv keeps the contract's columns first, then convertedAfterView and the rate; the Paywall sheet shows them")
    func paywallRate() throws {
        let run = try SampleRun.get()
        let csv = try run.csv("paywall.csv")
        #expect(csv[0] == ["app", "context", "shown", "conversions", "usersShown", "period", "convertedAfterView", "conversionRate"])
        let book = try run.book()
        #expect(try book.strings("Paywall", 1) == ["App", "Context", "Shown", "Conversions credited", "Users shown",
                                                    "Converted after a view", "Conversion rate"])
        for (i, row) in csv.dropFirst().enumerated() {
            let converted = Int(row[6])!, users = Int(row[4])!
            #expect(converted <= Int(row[3])! && converted <= users, "\(row)")
            #expect(row[7] == (users == 0 ? "" : KPIRate(converted, of: users).csv), "\(row)")
            let cell = try book.cell("Paywall", "G\(i + 2)")?.number
            #expect(users == 0 ? cell == nil : cell == Double(converted) / Double(users), "\(row)")
        }
        #expect(try book.numberFormat("Paywall", "G2") == "0.0%")
        #expect(csv.contains { $0.prefix(2) == ["FisioFlow", "therapistLimit"] && $0[6...7] == ["2", "0.3333"] })
        #expect(try run.text().contains("therapistLimit         shown      6  conversions     2  rate  33.3% (2/6)"))
    }
}
