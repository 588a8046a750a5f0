import Foundation
import Testing
import TallyCore
import TallyTestSupport
@testable import TallyReports

/// Read-back tests of a couple's own workbook (`statements/<coupleId>.xlsx`).
@Suite final class CoupleWorkbookTests {
    private let folder: URL

    init() throws { folder = try temporaryFolder() }
    deinit { try? FileManager.default.removeItem(at: folder) }

    let fx = FxTable([FxRate(date: LocalDate(year: 2026, month: 10, day: 1)!, currency: usd, base: brl,
                             rate: try! Decimal10.parse("5.4321").get())])

    /// A space of `members` members: a dinner in USD, groceries, a refund, an agreement's month, a settlement;
    /// and `extraExpenses` groceries of R$ 1.00 to R$ n.00 (`Compra 1`, …) on the month's first days.
    func statement(members: Int = 2, name: String = "Ana & Bia", extraExpenses: Int = 0) -> CoupleStatement {
        let ids = (1...members).map { "m\($0)" }
        let names = ["Ana", "Bia", "Caio", "Dani"]
        let couple = Couple(id: "c1", name: name, currency: brl)
        let d = { (day: Int) in LocalDate(year: 2026, month: 10, day: day)! }
        let source = SourceRef(file: "expenses/expenses.csv", line: 2)
        func fact(_ id: String, _ payer: String, _ amount: Int64, _ currency: Currency, _ day: Int, _ tag: String) -> ExpenseFact {
            ExpenseFact(id: id, coupleId: "c1", paidBy: payer, amount: amount, currency: currency, date: d(day),
                        description: id == "e0" ? "Faxina\nquinzenal" : id.hasPrefix("x") ? "Compra \(id.dropFirst())" : "Despesa \(id)", tag: tag, agreementId: nil, split: .equal, source: source)
        }
        let resolution = LedgerResolver.resolve(
            couple: couple, members: ids.enumerated().map { Member(id: $1, coupleId: "c1", displayName: names[$0]) },
            expenses: [fact("e1", "m1", 93_643, brl, 3, "mercado"), fact("e2", "m2", 10_000, usd, 5, "jantar"),
                       fact("e3", "m1", -2_050, brl, 9, "mercado"), fact("e0", "m2", 5_000, brl, 20, "")]
                + (0..<extraExpenses).map { fact("x\($0 + 1)", "m1", Int64($0 + 1) * 100, brl, 1 + $0 % 2, "mercado") },
            settlements: [SettlementFact(id: "s1", coupleId: "c1", fromMember: "m2", toMember: "m1", amount: 12_345,
                                         currency: brl, date: d(15), source: source)],
            agreements: [Agreement(id: "a1", coupleId: "c1", description: "Aluguel", amount: 150_000, currency: brl,
                                   paidBy: "m1", split: .equal, tag: "casa", dayOfMonth: 31, startDate: d(1), endDate: nil)],
            fx: fx)
        return StatementBuilder.build(resolution.ledger, period: october2026, fx: fx, itemised: true)
    }

    func write(_ statement: CoupleStatement, locale: ReportLocale = .ptBR, name: String = "c1.xlsx") throws -> XLSXReader {
        let url = folder.appendingPathComponent(name)
        try CoupleWorkbook.write(statement, to: url.path, locale: locale)
        return try XLSXReader(url: url)
    }

    /// The number a money cell must hold: the exact decimal of `minor` cents.
    func money(_ minor: Int64) -> XLSXReader.Cell { .number(Double(Money.plain(minor, brl))!) }

    @Test func sheetsTitleAndBalances() throws {
        let s = statement()
        let reader = try write(s)
        #expect(reader.sheetNames == ["Extrato", "Despesas"])
        #expect(try reader.cell("Extrato", "A1") == .string("Extrato do casal Ana & Bia — outubro de 2026"))
        #expect(try reader.cell("Extrato", "A2") == .string("BRL · 2 membros · 5 despesas"))
        // Who owes whom first, in words, with what a balance's sign means.
        #expect(try reader.cell("Extrato", "A4") == .string("Quem deve a quem"))
        let transfer = try #require(s.transfers.first)
        let sentence = ReportLocale.ptBR.owesSentence(from: transfer.from == "m1" ? "Ana" : "Bia", to: transfer.to == "m1" ? "Ana" : "Bia",
                                                      amount: Money(minor: transfer.amount, currency: brl))
        #expect(try reader.cell("Extrato", "A5") == .string(sentence))
        #expect(try reader.cell("Extrato", "A6") == .string("Saldo positivo: o membro tem a receber; saldo negativo: o membro deve."))
        // The month's net per member: paid − share.
        #expect(try reader.strings("Extrato", 8) == ["Membro", "Resultado do mês (pago − parte)"])
        for (i, line) in s.balances.enumerated() {
            #expect(try reader.row("Extrato", 9 + i) == [.string(line.displayName), money(line.paid - line.share)])
        }
        #expect(try reader.cell("Extrato", "A12") == .string("Saldos"))
        #expect(try reader.strings("Extrato", 13) == ["Membro", "Saldo inicial", "Pago", "Parte", "Acertos enviados",
                                                      "Acertos recebidos", "Saldo final"])
        for (i, line) in s.balances.enumerated() {
            #expect(try reader.row("Extrato", 14 + i) == [
                .string(line.displayName), money(line.opening), money(line.paid), money(line.share),
                money(line.settlementsSent), money(line.settlementsReceived), money(line.closing),
            ])
        }
        #expect(try reader.cell("Extrato", "A16") == .string("Total"))
        #expect(try reader.numberFormat("Extrato", "C14") == ReportLocale.ptBR.excelMoneyFormat(for: brl))
    }

    @Test func whoOwesWhomInEachLocale() throws {
        // Bia owes Ana: Ana paid the rent and the groceries.
        let s = statement()
        let transfer = try #require(s.transfers.first)
        #expect(s.transfers.count == 1 && transfer.from == "m2" && transfer.to == "m1")
        let amount = Money(minor: transfer.amount, currency: brl)
        let expected: [(ReportLocale, String, String)] = [
            (.ptBR, "Bia deve \(ReportLocale.ptBR.formatMoney(amount)) a Ana", "Quem deve a quem"),
            (.enUS, "Bia owes Ana \(ReportLocale.enUS.formatMoney(amount))", "Who owes whom"),
            (.esES, "Bia debe \(ReportLocale.esES.formatMoney(amount)) a Ana", "Quién debe a quién"),
        ]
        for (locale, sentence, heading) in expected {
            let reader = try write(s, locale: locale, name: "\(locale).xlsx")
            #expect(try reader.cell(locale.statementWord(.statementSheet), "A4") == .string(heading))
            #expect(try reader.cell(locale.statementWord(.statementSheet), "A5") == .string(sentence))
            let text = StatementText.render(s, locale: locale)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            // The heading and the sentence come before the balances table.
            let at = try #require(lines.firstIndex(of: heading))
            #expect(lines[at + 1] == "  " + sentence)
            #expect(lines[at + 2] == "  " + locale.statementWord(.balanceSign))
            #expect(at < lines.firstIndex(of: locale.label(.balancesSheet))!)
        }
        // Ana's month is positive (she paid more than her share) and says so with its sign.
        #expect(StatementText.render(s, locale: .ptBR).contains("+R$"))
    }

    @Test func aSettledSpaceSaysSo() throws {
        var s = statement()
        s.transfers = []
        let reader = try write(s)
        #expect(try reader.cell("Extrato", "A5") == .string("Tudo acertado: nenhuma transferência."))
        #expect(StatementText.render(s, locale: .ptBR).contains("Quem deve a quem\n  Tudo acertado: nenhuma transferência.\n"))
    }

    @Test func rowsThatDidNotCountAreListedWithWhyInTheLocale() throws {
        var s = statement()
        let d = { (day: Int) in LocalDate(year: 2026, month: 10, day: day)! }
        s.leftOut = [
            LeftOutRow(kind: .settlement, id: "s9", date: d(12), description: "", amount: 5_000, currency: usd, reason: .noFxRate),
            LeftOutRow(kind: .expense, id: "e9", date: d(31), description: "Feira de domingo", amount: 11_236, currency: brl,
                       reason: .payerNotMember),
        ]
        let expected: [(ReportLocale, String, [String])] = [
            (.ptBR, "BRL · 2 membros · 5 despesas · 2 fora do extrato",
             ["Acerto: sem câmbio para a moeda nessa data", "Feira de domingo: quem pagou não é membro"]),
            (.enUS, "BRL · 2 members · 5 expenses · 2 not counted",
             ["Settlement: no exchange rate for its currency on that date", "Feira de domingo: the payer is not a member"]),
            (.esES, "BRL · 2 miembros · 5 gastos · 2 fuera del extracto",
             ["Liquidación: sin tipo de cambio para su moneda en esa fecha", "Feira de domingo: quien pagó no es miembro"]),
        ]
        for (locale, facts, lines) in expected {
            let reader = try write(s, locale: locale, name: "left-\(locale).xlsx")
            let sheet = locale.statementWord(.statementSheet)
            #expect(try reader.cell(sheet, "A2") == .string(facts))
            let column = try (1...40).map { try reader.cell(sheet, "A\($0)")?.string }
            // After who owes whom and the month's net, before the balances.
            let heading = try #require(column.firstIndex(of: locale.statementWord(.leftOut))) + 1
            #expect(heading < column.firstIndex(of: locale.label(.balancesSheet))! + 1)
            #expect(heading > column.firstIndex(of: locale.statementWord(.whoOwesWhom))! + 1)
            #expect(try reader.row(sheet, heading + 3) == [.number(excelSerial(d(12))), .number(50), .string(lines[0])])
            #expect(try reader.row(sheet, heading + 4) == [.number(excelSerial(d(31))), money(11_236), .string(lines[1])])
            #expect(try reader.numberFormat(sheet, "B\(heading + 3)") == locale.excelMoneyFormat(for: usd))
            let text = StatementText.render(s, locale: locale)
            #expect(text.contains(locale.statementWord(.leftOut) + "\n"))
            for (date, line) in zip([d(12), d(31)], lines) {
                #expect(text.split(separator: "\n").contains {
                    $0.hasPrefix("  " + locale.formatDate(date)) && $0.hasSuffix(line)
                }, "\(locale) \(line)")
            }
        }
        // Past the rows the sheet lists, one line counts the rest; the text lists them all.
        s.leftOut = (1...103).map {
            LeftOutRow(kind: .expense, id: "e\($0)", date: d(1), description: "x", amount: 100, currency: brl, reason: .splitInvalid)
        }
        let reader = try write(s, name: "many-left.xlsx")
        let column = try (1...130).map { try reader.cell("Extrato", "A\($0)")?.string }
        #expect(column.contains("… e mais 3 linhas, todas no extrato em texto c1.txt"))
        #expect(StatementText.render(s, locale: .ptBR).components(separatedBy: "x: a divisão não pode ser aplicada").count == 104)
    }

    @Test func chartCachesHoldTheExactDecimalsInTheMoneyFormat() throws {
        // Amounts whose nearest doubles C's %.16G spells 728.9299999999999 and 72.40000000000001.
        var s = statement()
        s.categories[0].amount = 72_893
        s.trend[s.trend.count - 1].amount = 7_240
        let reader = try write(s, name: "caches.xlsx")
        let charts = try reader.chartPaths(onSheet: "Extrato")
        #expect(charts.count == 2)
        let raw = try charts.map { try reader.text($0) }.joined()
        #expect(raw.contains("<c:v>728.93</c:v>") && raw.contains("<c:v>72.4</c:v>"))
        let points = raw.components(separatedBy: "<c:v>").dropFirst().map { $0.prefix { $0 != "<" } }
        // Every cached number in its shortest spelling (Swift's, whole numbers without `.0`).
        for point in points {
            guard let value = Double(point) else { continue }
            let shortest = value == value.rounded() ? String(Int64(value)) : "\(value)"
            #expect(shortest == String(point), "\(point)")
        }
        for chart in charts {
            let root = try XMLNode.parse(reader.data(chart))
            let formats = root.descendants("val").flatMap { $0.descendants("formatCode") }.map(\.text)
            #expect(!formats.isEmpty && formats.allSatisfy { $0 == ReportLocale.ptBR.excelMoneyFormat(for: brl) }, "\(chart)")
        }
        #expect(try reader.seriesCaches(ofChart: charts[0])[0].values.first == 728.93)
    }

    @Test func categoriesAreNamedForPeopleInTheLocale() throws {
        // casa R$ 1.500,00 (the rent), mercado R$ 915,93, jantar R$ 543,21, untagged R$ 50,00.
        let s = statement()
        #expect(s.categories.map(\.tag) == ["casa", "mercado", "jantar", ""])
        let custom = CategoryLabels(locale: .ptBR, custom: ["casa": "Moradia", "JANTAR": "Jantares fora"])
        let cases: [(ReportLocale, CategoryLabels?, [String])] = [
            (.ptBR, nil, ["Casa", "Mercado", "Jantar", "Sem categoria"]),
            (.enUS, nil, ["Home", "Groceries", "Jantar", "Untagged"]),
            (.esES, nil, ["Hogar", "Supermercado", "Jantar", "Sin categoría"]),
            (.ptBR, custom, ["Moradia", "Mercado", "Jantares fora", "Sem categoria"]),
        ]
        for (n, (locale, labels, names)) in cases.enumerated() {
            let url = folder.appendingPathComponent("labels-\(n).xlsx")
            try CoupleWorkbook.write(s, to: url.path, locale: locale, categories: labels)
            let reader = try XLSXReader(url: url)
            let sheet = locale.statementWord(.statementSheet)
            // The category table, under its heading and header.
            let column = try (1...60).map { try reader.cell(sheet, "A\($0)")?.string }
            let heading = try #require(column.firstIndex(of: locale.label(.spendingByCategory))) + 1
            #expect(try (0..<4).map { try reader.cell(sheet, "A\(heading + 2 + $0)")?.string } == names, "\(locale)")
            // The category chart's cached labels.
            let chart = try #require(try reader.chartPaths(onSheet: sheet).first)
            #expect(try reader.seriesCaches(ofChart: chart)[0].categories == names, "\(locale)")
            // The expenses' category column: the groceries, the dinner, the refund, the untagged cleaning, the rent.
            let expenses = locale.statementWord(.expensesSheet)
            #expect(try (4...8).map { try reader.cell(expenses, "C\($0)")?.string }
                    == [names[1], names[2], names[1], names[3], names[0]], "\(locale)")
            // The text: the bars and the shares per member.
            let text = StatementText.render(s, locale: locale, categories: labels)
            let lines = text.split(separator: "\n").map(String.init)
            for name in names {
                #expect(lines.contains { $0.hasPrefix("  \(name) ") && $0.contains("│") }, "\(locale) \(name)")
                if name != names[3] { #expect(lines.contains { $0.hasPrefix("    \(name): ") }, "\(locale) \(name)") }
            }
            #expect(!lines.contains { $0.hasPrefix("  casa ") || $0.hasPrefix("  mercado ") })
        }
        // The studio's overview names them alike, on its Summary and Categories sheets.
        let overviewURL = folder.appendingPathComponent("overview-labels.xlsx")
        let overview = try StatementsWorkbook(path: overviewURL.path, locale: .ptBR, categories: custom, period: october2026)
        try overview.add(s)
        try overview.close()
        let overviewReader = try XLSXReader(url: overviewURL)
        #expect(try (2...5).map { try overviewReader.cell("Categorias", "D\($0)")?.string } == ["Moradia", "Mercado", "Jantares fora", "Sem categoria"])
        #expect(try overviewReader.cell("Resumo", "B4") == .string("Moradia"))
        // The machine CSVs keep the raw tags: they are the contract.
        let csvFolder = folder.appendingPathComponent("csv")
        try FileManager.default.createDirectory(at: csvFolder, withIntermediateDirectories: true)
        let csv = try StatementsCSV(folder: csvFolder)
        try csv.add(s, period: october2026)
        for writer in csv.writers { try writer.close(); try writer.commit() }
        let categories = try String(contentsOf: csvFolder.appendingPathComponent("categories.csv"), encoding: .utf8)
        #expect(categories.contains("c1,2026-10,casa,1500.00,BRL") && categories.contains("c1,2026-10,,50.00,BRL"))
    }

    @Test func categoryLabelsMatchTagsAsPeopleTypeThem() {
        let pt = CategoryLabels(locale: .ptBR)
        #expect(["saude", "Saúde", " SAUDE ", "saúde"].map(pt.name) == ["Saúde", "Saúde", "Saúde", "Saúde"])
        // Unknown tags as written; all-lowercase ones capitalised.
        #expect(["academia", "iPhone", "ETF", " bar do zé "].map(pt.name) == ["Academia", "iPhone", "ETF", "Bar do zé"])
        #expect(["", "  "].map(pt.name) == ["Sem categoria", "Sem categoria"])
        // Configured labels first: as written, then folded; the empty tag too.
        let custom = CategoryLabels(locale: .enUS, custom: ["pets": "Our dog", "Saúde": "Doctors", "": "Misc"])
        #expect(["pets", "PETS", "saude", "", "mercado"].map(custom.name) == ["Our dog", "Our dog", "Doctors", "Misc", "Groceries"])
        // Every tag of the sample has a label in every locale.
        for locale in ReportLocale.allCases {
            let builtIn = CategoryLabels.builtInLabels(locale)
            for tag in ["mercado", "restaurante", "transporte", "casa", "lazer", "saude", "viagem", "pets"] {
                #expect(builtIn[tag] != nil, "\(locale) \(tag)")
            }
        }
    }

    @Test func aTagIsFoldedAlikeWhetherOrNotItIsAlreadyPlainLowercaseASCII() {
        // Already folded (returned as is) and needing each step: trim, lower, strip accents.
        let cases = ["mercado": "mercado", "a-b_c1/2": "a-b_c1/2", "": "", " mercado": "mercado", "Mercado": "mercado",
                     "saúde": "saude", "SAÚDE\t": "saude", "bar do zé": "bar do ze", "ÇÑ": "cn", "~{}": "~{}"]
        for (tag, folded) in cases { #expect(CategoryLabels.fold(tag) == folded, "\(tag)") }
        // Any mix of the characters that take each path folds to lowercase ASCII without spaces at either end.
        var random = SplitMix64(seed: 7)
        let alphabet = Array("abcXYZ09-_ áÉç\t")
        for _ in 0..<500 {
            let tag = String((0..<Int.random(in: 0...8, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            let folded = CategoryLabels.fold(tag)
            #expect(folded == CategoryLabels.fold(folded), "\(tag)")
            #expect(folded.unicodeScalars.allSatisfy { $0.isASCII && !("A"..."Z").contains($0) }, "\(tag)")
            #expect(folded.first != " " && folded.last != " " && folded.last != "\t", "\(tag)")
        }
    }

    /// A text table's line as its cells (columns are two or more spaces apart).
    func cells(_ line: some StringProtocol) -> [String] {
        line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The row (1-based) of column A holding `text` on `sheet`.
    func row(of text: String, in reader: XLSXReader, sheet: String) throws -> Int {
        let column = try (1...80).map { try reader.cell(sheet, "A\($0)")?.string }
        return try #require(column.firstIndex(of: text), "\(text)") + 1
    }

    @Test func cappedListsShowTheCapThenHowManyMoreAndWhereAndNothingSpillsIntoTheNextSection() throws {
        var s = statement()
        let d = { (day: Int) in LocalDate(year: 2026, month: 10, day: day)! }
        // 101 rows left out and 4 refused (one without a readable date, listed last): 105 not counted.
        s.leftOut = (1...101).map { i in
            LeftOutRow(kind: .expense, id: String(format: "l%03d", i), date: d(1 + i % 28), description: "Fora \(i)",
                       amount: Int64(i) * 100, currency: brl, reason: .splitInvalid)
        }
        s.refused = (1...4).map { i in
            RefusedRow(kind: .expense, id: "r\(i)", written: WrittenRow(coupleId: "c1", date: i == 4 ? nil : "2026-10-0\(i)",
                                                                      description: "Ilegível \(i)", amount: "7,\(i)", currency: "BRL"),
                       reason: .amountNotDecimal)
        }
        // 102 notes worth checking.
        s.auditNotes = (1...102).map { i in
            .settlementOverBalance(id: String(format: "n%03d", i), date: d(1 + i % 28), from: "m2", to: "m1",
                                   amount: Int64(i) * 1_000, owedBefore: 0)
        }
        let names = ["m1": "Ana", "m2": "Bia"]
        let locale = ReportLocale.ptBR
        let reader = try write(s, locale: locale, name: "capped.xlsx")
        let sheet = "Extrato"
        let rows = try reader.rowCount(sheet)
        let columnA = try (1...rows).map { try reader.cell(sheet, "A\($0)")?.string }
        let columnC = try (1...rows).map { try reader.cell(sheet, "C\($0)")?.string }

        // Not counted: heading, note, column headings, then exactly the first 100 in the statement's order.
        let notCounted = s.notCountedRows
        #expect(notCounted.count == 105 && s.notCounted == 105)
        let leftOut = try row(of: locale.statementWord(.leftOut), in: reader, sheet: sheet)
        for (i, item) in notCounted.prefix(100).enumerated() {
            #expect(try reader.cell(sheet, "C\(leftOut + 3 + i)") == .string(locale.notCountedLine(item)), "row \(i)")
        }
        let shown = Set(notCounted.prefix(100).map(locale.notCountedLine))
        for item in notCounted.dropFirst(100) where !shown.contains(locale.notCountedLine(item)) {
            #expect(!columnC.contains(locale.notCountedLine(item)), "\(item.id) is past the cap")
        }
        // The undated refused row is listed last, so past the cap.
        #expect(notCounted.last?.id == "r4")
        // Then the line counting the rest and naming the file that lists them all, a blank row, the next section.
        #expect(try reader.row(sheet, leftOut + 103) == [.string("… e mais 5 linhas, todas no extrato em texto c1.txt")])
        #expect(try reader.row(sheet, leftOut + 104).allSatisfy { $0 == nil })
        let notes = leftOut + 105
        #expect(columnA[notes - 1] == locale.statementWord(.checkThese))

        // Notes: heading, note, exactly 100 sentences, the count, a blank row, then the balances.
        for (i, note) in s.auditNotes.prefix(100).enumerated() {
            #expect(try reader.row(sheet, notes + 2 + i) == [.string(locale.auditSentence(note, currency: brl, names: names))], "note \(i)")
        }
        for note in s.auditNotes.dropFirst(100) {
            #expect(!columnA.contains(locale.auditSentence(note, currency: brl, names: names)))
        }
        #expect(try reader.row(sheet, notes + 102) == [.string("… e mais 2 linhas, todas no extrato em texto c1.txt")])
        #expect(try reader.row(sheet, notes + 103).allSatisfy { $0 == nil })
        #expect(columnA[notes + 104 - 1] == locale.label(.balancesSheet))

        // The charts stay below every written row.
        let lastWritten = try #require((1...rows).last { try !reader.row(sheet, $0).allSatisfy { $0 == nil } })
        for anchor in try reader.anchors(onSheet: sheet) { #expect(anchor.from.row + 1 > lastWritten) }

        // The text statement named lists every one of them.
        let text = StatementText.render(s, locale: locale)
        for item in notCounted { #expect(text.contains(locale.notCountedLine(item)), "\(item.id)") }
        for note in s.auditNotes { #expect(text.contains(locale.auditSentence(note, currency: brl, names: names))) }

        // One more than the cap: the singular; exactly the cap: no line.
        s.auditNotes = Array(s.auditNotes.prefix(101))
        s.leftOut = Array(s.leftOut.prefix(96))
        let one = try write(s, locale: .enUS, name: "capped-one.xlsx")
        let english = try (1...(try one.rowCount("Statement"))).compactMap { try one.cell("Statement", "A\($0)")?.string }
        #expect(english.contains("… and 1 more row, in the text statement c1.txt"))
        #expect(!english.contains { $0.hasPrefix("… and") && $0.hasSuffix("rows, all in the text statement c1.txt") })
    }

    @Test func agreementsInForceSayWhatComesNextAndWhatRemains() throws {
        var s = statement()
        let d = { (month: Int, day: Int) in LocalDate(year: 2026, month: month, day: day)! }
        // The rent, ongoing: next on November 30th, no end.
        let reader = try write(s, name: "agreements.xlsx")
        let heading = try row(of: "Acordos recorrentes em vigor", in: reader, sheet: "Extrato")
        #expect(heading > (try row(of: "Gastos nos últimos meses", in: reader, sheet: "Extrato")))
        #expect(try reader.strings("Extrato", heading + 1) == ["Descrição", "Valor", "Pago por", "Divisão", "Próxima data", "Término"])
        #expect(try reader.row("Extrato", heading + 2) == [.string("Aluguel"), money(150_000), .string("Ana"), .string("igual"),
                                                           .number(excelSerial(d(11, 30))), .string("sem data de término")])
        #expect(try reader.numberFormat("Extrato", "E\(heading + 2)") == ReportLocale.ptBR.excelDateFormat)
        #expect(try reader.cell("Extrato", "A\(heading + 3)") == nil)
        let text = StatementText.render(s, locale: .ptBR)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let at = try #require(lines.firstIndex(of: "Acordos recorrentes em vigor"))
        #expect(cells(lines[at + 1]) == ["Descrição", "Valor", "Pago por", "Divisão", "Próxima data", "Término"])
        #expect(cells(lines[at + 3]) == ["Aluguel", "R$ 1.500,00", "Ana", "igual", "30/11/2026", "sem data de término"])
        #expect(lines[at + 4] == "")

        // With an end date: the occurrences and the amount remaining, in the agreement's currency.
        var rent = s.agreementsInForce[0].agreement
        rent.endDate = d(12, 31)
        var stream = rent
        stream.id = "a2"
        stream.description = "Streaming"
        stream.amount = 1_549
        stream.currency = usd
        stream.endDate = d(10, 31)
        s.agreementsInForce = [AgreementInForce(agreement: rent, nextDate: d(11, 30), remainingOccurrences: 2, remainingAmount: 300_000),
                               AgreementInForce(agreement: stream, nextDate: nil, remainingOccurrences: 0, remainingAmount: 0)]
        for locale in ReportLocale.allCases {
            let reader = try write(s, locale: locale, name: "agreements-\(locale).xlsx")
            let sheet = locale.statementWord(.statementSheet)
            let heading = try row(of: locale.statementWord(.agreementsInForce), in: reader, sheet: sheet)
            #expect(try reader.strings(sheet, heading + 1).suffix(2) == [locale.statementWord(.remaining), locale.statementWord(.remainingAmount)])
            #expect(try reader.row(sheet, heading + 2).suffix(4) == [.number(excelSerial(d(11, 30))), .number(excelSerial(d(12, 31))),
                                                                     .number(2), money(300_000)])
            #expect(try reader.row(sheet, heading + 3).suffix(4) == [.string(locale.statementWord(.endsThisMonth)),
                                                                     .number(excelSerial(d(10, 31))), .number(0), .number(0)])
            #expect(try reader.numberFormat(sheet, "B\(heading + 3)") == locale.excelMoneyFormat(for: usd))
            #expect(try reader.numberFormat(sheet, "H\(heading + 3)") == locale.excelMoneyFormat(for: usd))
        }
        let ended = StatementText.render(s, locale: .enUS).split(separator: "\n").map(cells)
        #expect(ended.contains(["Description", "Amount", "Paid by", "Split", "Next date", "Ends", "Remaining", "Amount remaining"]))
        #expect(ended.contains(["Aluguel", "R$1,500.00", "Ana", "equal", "11/30/2026", "12/31/2026", "2", "R$3,000.00"]))
        #expect(ended.contains(["Streaming", "$15.49", "Ana", "equal", "ends this month", "10/31/2026", "0", "$0.00"]))
        // Past 100 agreements the sheet counts the rest on one line; the text lists them all.
        s.agreementsInForce = (1...103).map { i in
            var a = rent
            a.id = "a\(i)"
            a.description = "Acordo \(i)"
            return AgreementInForce(agreement: a, nextDate: d(11, 30), remainingOccurrences: 2, remainingAmount: 300_000)
        }
        let many = try write(s, name: "many-agreements.xlsx")
        let manyHeading = try row(of: "Acordos recorrentes em vigor", in: many, sheet: "Extrato")
        #expect(try many.cell("Extrato", "A\(manyHeading + 101)") == .string("Acordo 100"))
        #expect(try many.cell("Extrato", "A\(manyHeading + 102)") == .string("… e mais 3 linhas, todas no extrato em texto c1.txt"))
        #expect(StatementText.render(s, locale: .ptBR).contains("  Acordo 103  "))
        // No agreement in force, no section.
        s.agreementsInForce = []
        #expect(!StatementText.render(s, locale: .ptBR).contains("Acordos recorrentes em vigor"))
        let none = try write(s, name: "no-agreements.xlsx")
        #expect(try !(1...80).contains { try none.cell("Extrato", "A\($0)")?.string == "Acordos recorrentes em vigor" })
    }

    @Test func exchangeRatesShowEachRateWithTheDateOfItsRow() throws {
        var s = statement()
        let d = { (day: Int) in LocalDate(year: 2026, month: 10, day: day)! }
        // The dinner: 100.00 USD at 5.4321, the rate of October 1st.
        #expect(s.conversions == [CurrencyConversions(currency: usd, count: 1, original: 10_000, converted: 54_321, rates: [
            RateUse(rate: try Decimal10.parse("5.4321").get(), rateDate: d(1), count: 1, original: 10_000, converted: 54_321),
        ])])
        let expected: [(ReportLocale, [String])] = [
            (.ptBR, ["Moeda", "Valor original", "Câmbio", "Data do câmbio", "Despesas", "Valor convertido"]),
            (.enUS, ["Currency", "Original amount", "Rate", "Rate date", "Expenses", "Converted amount"]),
            (.esES, ["Moneda", "Importe original", "Cambio", "Fecha del cambio", "Gastos", "Importe convertido"]),
        ]
        for (locale, headings) in expected {
            let reader = try write(s, locale: locale, name: "fx-\(locale).xlsx")
            let sheet = locale.statementWord(.statementSheet)
            let heading = try row(of: locale.statementWord(.exchangeRates), in: reader, sheet: sheet)
            #expect(heading > (try row(of: locale.statementWord(.agreementsInForce), in: reader, sheet: sheet)))
            #expect(try reader.cell(sheet, "A\(heading + 1)") == .string(locale.statementWord(.exchangeRatesNote)))
            #expect(try reader.strings(sheet, heading + 2) == headings)
            #expect(try reader.row(sheet, heading + 3) == [.string("USD"), .number(100), .number(5.4321), .number(excelSerial(d(1))),
                                                           .number(1), money(54_321)])
            #expect(try reader.numberFormat(sheet, "B\(heading + 3)") == locale.excelMoneyFormat(for: usd))
            #expect(try reader.numberFormat(sheet, "D\(heading + 3)") == locale.excelDateFormat)
            #expect(try reader.indent(sheet, "D\(heading + 3)") == 1 && reader.indent(sheet, "D\(heading + 2)") == 1,
                    "the rate date never touches the rate before it")
            #expect(try reader.numberFormat(sheet, "F\(heading + 3)") == locale.excelMoneyFormat(for: brl))
            // The charts come after it.
            #expect(try reader.anchors(onSheet: sheet).allSatisfy { $0.from.row >= heading + 3 })
        }
        let text = StatementText.render(s, locale: .ptBR).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let at = try #require(text.firstIndex(of: "Câmbio do mês"))
        #expect(text[at + 1] == "  Cada despesa em outra moeda é convertida pelo câmbio mais recente até a data dela.")
        #expect(cells(text[at + 2]) == ["Moeda", "Valor original", "Câmbio", "Data do câmbio", "Despesas", "Valor convertido"])
        #expect(cells(text[at + 4]) == ["USD", "US$ 100,00", "5,4321", "01/10/2026", "1", "R$ 543,21"])

        // Two rates of one currency: a line each, then their total.
        let rate = { (text: String) in try Decimal10.parse(text).get() }
        s.conversions = [CurrencyConversions(currency: usd, count: 3, original: 11_000, converted: 59_685, rates: [
            RateUse(rate: try rate("5.4321"), rateDate: d(1), count: 2, original: 12_000, converted: 65_185),
            RateUse(rate: try rate("5.5"), rateDate: d(20), count: 1, original: -1_000, converted: -5_500),
        ])]
        let reader = try write(s, name: "fx-two.xlsx")
        let heading = try row(of: "Câmbio do mês", in: reader, sheet: "Extrato")
        #expect(try reader.row("Extrato", heading + 4) == [.string("USD"), .number(-10), .number(5.5), .number(excelSerial(d(20))),
                                                           .number(1), money(-5_500)])
        #expect(try reader.row("Extrato", heading + 5) == [.string("Total USD"), .number(110), nil, nil, .number(3), money(59_685)])
        let two = StatementText.render(s, locale: .ptBR).split(separator: "\n").map(cells)
        #expect(two.contains(["USD", "-US$ 10,00", "5,50", "20/10/2026", "1", "-R$ 55,00"]))
        #expect(two.contains(["Total USD", "US$ 110,00", "3", "R$ 596,85"]))
        // No conversion, no section.
        s.conversions = []
        #expect(!StatementText.render(s, locale: .ptBR).contains("Câmbio do mês"))
    }

    @Test func worthCheckingListsLikelyMistakesInTheLocale() throws {
        var s = statement()
        let d = { (day: Int) in LocalDate(year: 2026, month: 10, day: day)! }
        s.auditNotes = [
            .repeatedExpense(date: d(3), paidBy: "m1", amount: 5_000, ids: ["e7", "e8"], descriptions: ["Feira", "Feira\nde domingo"]),
            .settlementOverBalance(id: "s1", date: d(15), from: "m2", to: "m1", amount: 12_345, owedBefore: 0),
            .settlementOverBalance(id: "s2", date: d(16), from: "m2", to: "m1", amount: 12_345, owedBefore: 10_000),
        ]
        let expected: [(ReportLocale, [String])] = [
            (.ptBR, ["03/10/2026: 2 despesas de R$ 50,00 pagas por Ana no mesmo dia (Feira · Feira de domingo): lançada em dobro?",
                     "15/10/2026: Bia enviou R$ 123,45 a Ana, mas não devia nada antes do acerto.",
                     "16/10/2026: Bia enviou R$ 123,45 a Ana, mas devia R$ 100,00 antes do acerto."]),
            (.enUS, ["10/03/2026: 2 expenses of R$50.00 paid by Ana on the same day (Feira · Feira de domingo): entered twice?",
                     "10/15/2026: Bia sent Ana R$123.45 but owed nothing before it.",
                     "10/16/2026: Bia sent Ana R$123.45 but owed R$100.00 before it."]),
            (.esES, ["03/10/2026: 2 gastos de 50,00 R$ pagados por Ana el mismo día (Feira · Feira de domingo): ¿registrado dos veces?",
                     "15/10/2026: Bia envió 123,45 R$ a Ana, pero no debía nada antes de la liquidación.",
                     "16/10/2026: Bia envió 123,45 R$ a Ana, pero debía 100,00 R$ antes de la liquidación."]),
        ]
        for (locale, sentences) in expected {
            let reader = try write(s, locale: locale, name: "audit-\(locale).xlsx")
            let sheet = locale.statementWord(.statementSheet)
            let heading = try row(of: locale.statementWord(.checkThese), in: reader, sheet: sheet)
            // After who owes whom and the month's net, before the balances.
            #expect(heading > (try row(of: locale.statementWord(.whoOwesWhom), in: reader, sheet: sheet)))
            #expect(heading < (try row(of: locale.label(.balancesSheet), in: reader, sheet: sheet)))
            #expect(try reader.cell(sheet, "A\(heading + 1)") == .string(locale.statementWord(.checkTheseNote)))
            #expect(try (0..<3).map { try reader.cell(sheet, "A\(heading + 2 + $0)")?.string } == sentences)
            let text = StatementText.render(s, locale: locale)
            #expect(text.contains(([locale.statementWord(.checkThese), "  " + locale.statementWord(.checkTheseNote)]
                                   + sentences.map { "  " + $0 }).joined(separator: "\n") + "\n\n"), "\(locale)")
        }
        // Nothing to check, no section.
        s.auditNotes = []
        #expect(!StatementText.render(s, locale: .ptBR).contains("Vale conferir"))
        let none = try write(s, name: "audit-none.xlsx")
        #expect(try !(1...80).contains { try none.cell("Extrato", "A\($0)")?.string == "Vale conferir" })
    }

    @Test func splitsInWords() {
        let ids = ["m1", "m2"], names = ["m1": "Ana", "m2": "Bia"]
        let percent = SplitRule(type: .percentage, entries: [SplitEntry(memberId: "m2", value: Decimal10(mantissa: 375, scale: 1)),
                                                             SplitEntry(memberId: "m1", value: Decimal10(mantissa: 6250, scale: 2))])
        let shares = SplitRule(type: .shares, entries: [SplitEntry(memberId: "m1", value: Decimal10(mantissa: 3, scale: 0)),
                                                        SplitEntry(memberId: "m2", value: Decimal10(mantissa: 2, scale: 0))])
        let exact = SplitRule(type: .exact, entries: [SplitEntry(memberId: "m1", value: Decimal10(mantissa: 100, scale: 2))])
        let full = SplitRule(type: .full, entries: [SplitEntry(memberId: "m2", value: nil)])
        let words = { (locale: ReportLocale) in
            [SplitRule.equal, percent, shares, exact, full].map { locale.splitWords($0, memberIds: ids, names: names) }
        }
        #expect(words(.ptBR) == ["igual", "62,5/37,5", "partes 3/2", "exato", "integral (Bia)"])
        #expect(words(.enUS) == ["equal", "62.5/37.5", "shares 3/2", "exact", "in full (Bia)"])
        #expect(words(.esES) == ["igual", "62,5/37,5", "partes 3/2", "exacto", "íntegro (Bia)"])
    }

    @Test func theTextListsTheMonthLineByLine() throws {
        let s = statement()
        let text = StatementText.render(s, locale: .ptBR)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let expenses = try #require(lines.firstIndex(of: "Despesas do mês"))
        #expect(lines[expenses + 1].hasPrefix("  Data        Descrição"))
        let month = try #require(s.itemised)
        for (i, item) in month.expenses.enumerated() {
            let row = lines[expenses + 3 + i]
            let e = item.expense
            #expect(row.hasPrefix("  " + ReportLocale.ptBR.formatDate(e.date)), "\(row)")
            #expect(row.contains(ReportLocale.ptBR.formatMoney(minor: e.amount, currency: brl)) && row.hasSuffix("igual"), "\(row)")
        }
        #expect(lines.contains { $0.contains("Faxina quinzenal") })   // on one line
        #expect(lines.contains { $0.contains("Despesa e3 (reembolso)") })
        let settlements = try #require(lines.firstIndex(of: "Acertos"))
        #expect(lines[settlements + 3].hasPrefix("  15/10/2026  Bia  Ana") && lines[settlements + 3].hasSuffix("R$ 123,45"))
        // A statement without its lines has no such sections.
        var bare = s
        bare.itemised = nil
        #expect(!StatementText.render(bare, locale: .ptBR).contains("Despesas do mês"))
    }

    @Test func theTrendSparklineIsScaledFromZero() {
        var s = statement()
        // 66% of the largest month draws about two thirds high, not as the lowest bar.
        s.trend = [(october2026.adding(months: -1), 66_00), (october2026, 100_00)]
        let trendLine = StatementText.render(s, locale: .ptBR).split(separator: "\n").first { $0.hasPrefix("Gastos nos últimos meses") }
        #expect(trendLine?.contains("): ▆█  ") == true, "\(trendLine ?? "")")
        s.trend = [(october2026.adding(months: -1), 0), (october2026, 0)]
        let flat = StatementText.render(s, locale: .ptBR).split(separator: "\n").first { $0.hasPrefix("Gastos nos últimos meses") }
        #expect(flat?.contains("): ▁▁  ") == true, "\(flat ?? "")")
    }

    @Test func chartsOverlapNothing() throws {
        // A couple and a group of four (a column per member in the categories table).
        for var s in [statement(), statement(members: 4, name: "República Aurora das Flores")] {
            // Every section: a note worth checking, the agreement in force, the exchange rates.
            s.auditNotes = [.settlementOverBalance(id: "s1", date: LocalDate(year: 2026, month: 10, day: 15)!, from: "m2", to: "m1",
                                                   amount: 12_345, owedBefore: 0)]
            #expect(!s.agreementsInForce.isEmpty && !s.conversions.isEmpty)
            let reader = try write(s, name: "charts-\(s.balances.count).xlsx")
            let anchors = try reader.anchors(onSheet: "Extrato")
            #expect(anchors.count == 2)
            for (i, a) in anchors.enumerated() {
                for b in anchors[(i + 1)...] { #expect(!a.intersects(b), "\(a) \(b)") }
                // Below every filled cell of the sheet.
                let lastFilledRow = try (1...200).last { try !reader.row("Extrato", $0).allSatisfy { $0 == nil } } ?? 0
                #expect(a.from.row >= lastFilledRow, "\(a)")
            }
        }
    }

    @Test func itemisedRowsAddUpToTheShares() throws {
        let s = statement(members: 3, name: "República Aurora")
        let reader = try write(s)
        #expect(try reader.cell("Despesas", "H2") == .string("Parte de cada membro"))
        #expect(try reader.strings("Despesas", 3) == ["Data", "Descrição", "Categoria", "Pago por", "Valor", "Valor original",
                                                      "Câmbio", "Ana", "Bia", "Caio", "Divisão", "Observação"])
        let lines = try #require(s.itemised).expenses
        #expect(lines.count == 5)
        var sums = [Int64](repeating: 0, count: 3)
        for (i, line) in lines.enumerated() {
            let row = try reader.row("Despesas", 4 + i)
            #expect(row[0] == .number(excelSerial(line.expense.date)))
            #expect(row[4] == money(line.expense.amount))
            for m in 0..<3 {
                let cell = try #require(row[7 + m]?.number)
                sums[m] += Int64((cell * 100).rounded())
            }
            #expect(row[10] == .string("igual"))
        }
        #expect(sums == s.balances.map(\.share))
        // The split after the last share is indented, heading and cells, so it never touches the amount before it.
        #expect(try reader.indent("Despesas", "K3") == 1 && reader.indent("Despesas", "K4") == 1)
        #expect(try reader.indent("Despesas", "J3") == 0)
        // The total row repeats the balances' share column.
        for m in 0..<3 { #expect(try reader.cell("Despesas", XLSXReader.columnName(7 + m) + "9") == money(s.balances[m].share)) }
        // The dinner: 100.00 USD at 5.4321; the refund and the agreement's month are marked.
        #expect(try reader.row("Despesas", 5).prefix(7) == [
            .number(excelSerial(LocalDate(year: 2026, month: 10, day: 5)!)), .string("Despesa e2"), .string("Jantar"),
            .string("Bia"), money(54_321), .number(100), .number(5.4321),
        ])
        #expect(try reader.numberFormat("Despesas", "F5") == ReportLocale.ptBR.excelMoneyFormat(for: usd))
        #expect(try reader.cell("Despesas", "L6") == .string("reembolso"))
        #expect(try reader.cell("Despesas", "L8") == .string("acordo recorrente (automático)"))
        #expect(try reader.cell("Despesas", "D8") == .string("Ana"))
        #expect(try reader.cell("Despesas", "B7") == .string("Faxina quinzenal"))   // on one line
        // The settlements under the expenses.
        #expect(try reader.cell("Despesas", "A11") == .string("Acertos"))
        #expect(try reader.row("Despesas", 13) == [
            .number(excelSerial(LocalDate(year: 2026, month: 10, day: 15)!)), .string("Bia"), .string("Ana"), nil, money(12_345),
        ])
    }

    @Test func expensesLongerThanASheetContinueOnSheetsThatRepeatTheTitleAndHeader() throws {
        // 108 expenses at 37 a sheet (40 rows: the title, the shares' label, the header and 37 expenses).
        var s = statement(members: 3, name: "República Aurora", extraExpenses: 103)
        // The statement sheet of 40 rows has no room for the agreements and exchange rates: this test is about the expenses.
        s.agreementsInForce = []
        s.conversions = []
        let lines = try #require(s.itemised).expenses
        #expect(lines.count == 108)
        let url = folder.appendingPathComponent("spill.xlsx")
        try CoupleWorkbook.write(s, to: url.path, locale: .ptBR, maxRowsPerSheet: 40)
        let reader = try XLSXReader(url: url)
        let sheets = ["Despesas", "Despesas (2)", "Despesas (3)", "Despesas (4)"]
        #expect(reader.sheetNames == ["Extrato"] + sheets)
        let title = "Despesas do grupo República Aurora — outubro de 2026"
        let titles = [title, "\(title) (continuação, linhas 38–74)", "\(title) (continuação, linhas 75–108)", "\(title) (continuação)"]
        var descriptions: [String?] = []
        for (sheet, heading) in zip(sheets, titles) {
            #expect(try reader.cell(sheet, "A1") == .string(heading))
            #expect(try reader.cell(sheet, "H2") == .string("Parte de cada membro"))
            #expect(try reader.strings(sheet, 3) == ["Data", "Descrição", "Categoria", "Pago por", "Valor", "Valor original",
                                                     "Câmbio", "Ana", "Bia", "Caio", "Divisão", "Observação"])
            #expect(try reader.sheetXML(sheet).contains("<pane ySplit=\"3\" topLeftCell=\"A4\""), "\(sheet)")
            for row in 4...40 where try reader.cell(sheet, "A\(row)")?.number != nil && reader.cell(sheet, "E\(row)") != nil {
                if sheet != "Despesas (4)" { descriptions.append(try reader.cell(sheet, "B\(row)")?.string) }
            }
        }
        // Every expense once, in order.
        #expect(descriptions == lines.map { $0.expense.description.split(whereSeparator: \.isNewline).joined(separator: " ") })
        #expect(try reader.sheetXML("Despesas").contains("<autoFilter ref=\"A3:L40\"/>"))
        #expect(try reader.sheetXML("Despesas (3)").contains("<autoFilter ref=\"A3:L37\"/>"))
        #expect(try !reader.sheetXML("Despesas (4)").contains("<autoFilter"))
        // The total under the last expense, then the settlements, continuing on the next sheet.
        #expect(try reader.cell("Despesas (3)", "A38") == .string("Total"))
        for m in 0..<3 { #expect(try reader.cell("Despesas (3)", XLSXReader.columnName(7 + m) + "38") == money(s.balances[m].share)) }
        #expect(try reader.cell("Despesas (3)", "A40") == .string("Acertos"))
        #expect(try reader.strings("Despesas (4)", 4).prefix(3) == ["Data", "De", "Para"])
        #expect(try reader.row("Despesas (4)", 5) == [
            .number(excelSerial(LocalDate(year: 2026, month: 10, day: 15)!)), .string("Bia"), .string("Ana"), nil, money(12_345),
        ])
    }

    @Test func categoriesPastTheStatementSheetAreAddedUpOnOneLine() throws {
        let s = statement()
        #expect(s.categories.count == 4)
        let url = folder.appendingPathComponent("folded.xlsx")
        // 58 rows: the statement sheet fits one category, a line adding up the other three, the total, the trend, the
        // agreement in force (4 rows), the exchange rates (5 rows) and the charts (the trend's below the categories').
        try CoupleWorkbook.write(s, to: url.path, locale: .ptBR, maxRowsPerSheet: 58)
        let reader = try XLSXReader(url: url)
        let column = try (1...58).map { try reader.cell("Extrato", "A\($0)")?.string }
        let other = try #require(column.firstIndex(of: "Outras 3 categorias")) + 1
        #expect(column[other - 2] == ReportLocale.ptBR.tagName(s.categories[0].tag))
        #expect(column[other] == "Total")
        let rest = s.categories.dropFirst()
        #expect(try reader.cell("Extrato", "B\(other)") == money(rest.reduce(0) { $0 + $1.amount }))
        for (i, line) in s.balances.enumerated() {
            let share = rest.reduce(Int64(0)) { $0 + ($1.shareByMember[line.memberId] ?? 0) }
            #expect(try reader.cell("Extrato", XLSXReader.columnName(2 + i) + "\(other)") == money(share))
        }
        #expect(try reader.cell("Extrato", "B\(other + 1)") == money(s.categories.reduce(0) { $0 + $1.amount }))
        #expect(try reader.chartPaths(onSheet: "Extrato").count == 2)
    }

    @Test func moneyIsTheExactDecimal() throws {
        let reader = try write(statement())
        // 936.43 (which %.16G spells 936.4299999999999) and -20.50 are stored as their exact decimals.
        #expect(try reader.rawValue("Despesas", "E4") == "936.43")
        #expect(try reader.rawValue("Despesas", "E6") == "-20.5")
        #expect(try reader.rawValue("Despesas", "E5") == "543.21")
        #expect(try reader.rawValue("Despesas", "G5") == "5.4321")
        // Every number on both sheets is spelled as its shortest round-trip decimal.
        for sheet in reader.sheetNames {
            let xml = try reader.sheetXML(sheet)
            #expect(!xml.contains("99999999"), "\(sheet)")
            #expect(!xml.contains("00000001<"), "\(sheet)")
        }
    }

    @Test func groupsOfMoreThanTwoAreCalledGroups() throws {
        let reader = try write(statement(members: 3, name: "República Aurora"))
        #expect(try reader.cell("Extrato", "A1") == .string("Extrato do grupo República Aurora — outubro de 2026"))
        #expect(try reader.cell("Despesas", "A1") == .string("Despesas do grupo República Aurora — outubro de 2026"))
        let english = try write(statement(members: 4, name: "Viagem Chile 🇨🇱"), locale: .enUS, name: "en.xlsx")
        #expect(english.sheetNames == ["Statement", "Expenses"])
        #expect(try english.cell("Statement", "A1") == .string("Group statement Viagem Chile 🇨🇱 — October 2026"))
        #expect(try english.sheetNames.allSatisfy { try english.paperSize($0) == 1 }, "an en-US statement prints on Letter")
        #expect(try reader.sheetNames.allSatisfy { try reader.paperSize($0) == 9 }, "a pt-BR statement prints on A4")
        let text = StatementText.render(statement(members: 3, name: "República Aurora"), locale: .ptBR)
        #expect(text.hasPrefix("Extrato do grupo República Aurora — outubro de 2026\n"))
        #expect(StatementText.render(statement(), locale: .ptBR).hasPrefix("Extrato do casal Ana & Bia"))
    }

    @Test func chartsAndPrintSetup() throws {
        let reader = try write(statement())
        let charts = try reader.chartPaths(onSheet: "Extrato")
        #expect(charts.count == 2)
        let categories = try reader.text(charts[0])
        #expect(categories.contains("<c:barChart>"))
        #expect(categories.contains("Gastos por categoria"))
        #expect(try reader.text(charts[1]).contains("<c:lineChart>"))
        // Cached values, so previews that do not recalculate draw the charts.
        for chart in charts {
            let caches = try reader.seriesCaches(ofChart: chart)
            #expect(!caches.isEmpty && caches.allSatisfy { !$0.values.isEmpty && $0.values.allSatisfy { $0 != nil } }, "\(chart)")
            #expect(caches.allSatisfy { $0.categories.count == $0.values.count }, "\(chart)")
        }
        // The workbooks' common print setup: landscape; one page wide, or (a sheet
        // whose charts a page break would cut) a fixed scale with the breaks above them.
        for sheet in ["Extrato", "Despesas"] {
            let xml = try reader.sheetXML(sheet)
            #expect(xml.contains("orientation=\"landscape\""), "\(sheet)")
            #expect(xml.contains("<pageSetUpPr fitToPage=\"1\"/>") || xml.contains(" scale=\""), "\(sheet)")
        }
        #expect(try reader.sheetXML("Despesas").contains("<pageSetUpPr fitToPage=\"1\"/>"))
        #expect(try reader.sheetXML("Despesas").contains("state=\"frozen\""))
    }

    @Test func sameStatementSameBytes() throws {
        let a = folder.appendingPathComponent("a.xlsx"), b = folder.appendingPathComponent("b.xlsx")
        try CoupleWorkbook.write(statement(), to: a.path, locale: .ptBR)
        try CoupleWorkbook.write(statement(), to: b.path, locale: .ptBR)
        #expect(try Data(contentsOf: a) == Data(contentsOf: b))
    }

    @Test func aStatementWithoutItsLinesIsRefused() throws {
        var s = statement()
        s.itemised = nil
        #expect(throws: XLSXError.self) { try CoupleWorkbook.write(s, to: self.folder.appendingPathComponent("x.xlsx").path, locale: .ptBR) }
    }

    @Test func aCoupleNamedLikeTheOverviewGetsItsOwnFile() {
        #expect(CoupleFileName.stem(for: "cpl-1") == "cpl-1")
        #expect(CoupleFileName.stem(for: "statements").hasPrefix("statements-"))
        #expect(CoupleFileName.stem(for: "Statements") != "Statements")
        #expect(CoupleFileName.stem(for: "../x") == SafeFileName.stem(for: "../x"))
    }

    @Test func numbersAreRespelledNotChanged() {
        let xml = Data(#"<c r="A1" t="s"><v>12</v></c><c r="B1"><v>936.4299999999999</v></c><c r="C1"><v>-77.59999999999999</v></c><c r="D1"><v>0.5</v></c><c r="E1"><v>1E+20</v></c>"#.utf8)
        let out = String(decoding: XLSXExactNumbers.shortestNumbers(in: Array(xml)), as: UTF8.self)
        #expect(out == #"<c r="A1" t="s"><v>12</v></c><c r="B1"><v>936.43</v></c><c r="C1"><v>-77.6</v></c><c r="D1"><v>0.5</v></c><c r="E1"><v>1E+20</v></c>"#)
    }

    @Test func theOverviewStoresExactDecimalsToo() throws {
        let url = folder.appendingPathComponent("statements.xlsx")
        let book = try StatementsWorkbook(path: url.path, locale: .ptBR, period: october2026)
        try book.add(statement())
        try book.close()
        let reader = try XLSXReader(url: url)
        // Categorias: mercado is 936.43 − 20.50 = 915.93, which %.16G spells 915.9299999999999.
        #expect(try reader.strings("Categorias", 3)[3] == "Mercado")
        #expect(try reader.rawValue("Categorias", "E3") == "915.93")
        for sheet in reader.sheetNames {
            let xml = try reader.sheetXML(sheet)
            #expect(!xml.contains("99999999") && !xml.contains("00000001<"), "\(sheet)")
        }
    }

    @Test func respellingKeepsEveryOtherPartAsItIs() throws {
        let url = folder.appendingPathComponent("c1.xlsx")
        try CoupleWorkbook.write(statement(), to: url.path, locale: .ptBR)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["c1.xlsx"])   // rewritten in place
        let package = Array(try Data(contentsOf: url))
        #expect(try XLSXExactNumbers.respelled(package, file: url.path) == nil)   // already exact: nothing to do
        let reader = try XLSXReader(url: url)
        #expect(reader.entryPaths.contains("xl/styles.xml") && reader.entryPaths.contains("xl/charts/chart1.xml"))
        #expect(try reader.text("docProps/core.xml").contains("2026-10-01T00:00:00Z"))
        // Not a zip: left alone.
        #expect(try XLSXExactNumbers.respelled(Array("not a zip".utf8), file: "x") == nil)
    }

    @Test func sheetsLargerThanAChunkAreRespelledAcrossChunks() throws {
        // ~4,000 couples: the Saldos sheet is megabytes of XML, inflated and respelled 256 KiB at a time.
        let url = folder.appendingPathComponent("large.xlsx")
        let book = try StatementsWorkbook(path: url.path, locale: .ptBR, period: october2026)
        let base = statement()
        for i in 0..<4_000 {
            var s = base
            s.couple = Couple(id: "c\(i)", name: "Casal \(i)", currency: brl)
            try book.add(s)
        }
        try book.close()
        let reader = try XLSXReader(url: url)
        let xml = try reader.sheetXML("Categorias")
        #expect(xml.utf8.count > 1 << 20)
        #expect(!xml.contains("99999999") && !xml.contains("00000001<"))
        #expect(xml.components(separatedBy: "<v>915.93</v>").count - 1 == 4_000)
        #expect(try reader.rowCount("Saldos") == 8_001)
    }
}
