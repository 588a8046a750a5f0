import Foundation
import Testing
import TallyCore
import TallyTestSupport
@testable import TallyReports

/// A couple's rows that could not be read (``RefusedRow``), listed on its
/// statement beside the rows its checks left out: read back from the
/// workbook and the text, in every locale.
@Suite final class NotCountedRowsTests {
    private let folder: URL

    init() throws { folder = try temporaryFolder() }
    deinit { try? FileManager.default.removeItem(at: folder) }

    static func d(_ day: Int) -> LocalDate { LocalDate(year: 2026, month: 10, day: day)! }

    /// One expense counted; a payer who is not a member (left out, the 17th); an amount written `73,73`
    /// (the 12th); a date `2026-10-32` (its month read, its day not); a row with no readable date.
    func statement() -> CoupleStatement {
        let couple = Couple(id: "c1", name: "Ana & Bia", currency: brl)
        let source = SourceRef(file: "expenses/expenses.csv", line: 2)
        let resolution = LedgerResolver.resolve(
            couple: couple, members: [Member(id: "m1", coupleId: "c1", displayName: "Ana"), Member(id: "m2", coupleId: "c1", displayName: "Bia")],
            expenses: [ExpenseFact(id: "e1", coupleId: "c1", paidBy: "m1", amount: 10_000, currency: brl, date: Self.d(3),
                                   description: "Padaria", tag: "", agreementId: nil, split: .equal, source: source),
                       ExpenseFact(id: "e2", coupleId: "c1", paidBy: "m9", amount: 11_236, currency: brl, date: Self.d(17),
                                   description: "Feira de domingo", tag: "", agreementId: nil, split: .equal, source: source)],
            settlements: [], agreements: [], fx: FxTable())
        var s = StatementBuilder.build(resolution.ledger, period: october2026, fx: FxTable(), itemised: true)
        s.leftOut = resolution.leftOut
        func written(_ date: String?, _ description: String?, _ amount: String?) -> WrittenRow {
            WrittenRow(coupleId: "c1", date: date, description: description, amount: amount, currency: "BRL")
        }
        s.refused = RefusedRow.listed([
            RefusedRow(kind: .expense, id: "e5", written: written(nil, "Cinema", "40.00"), reason: .fieldEmpty),
            RefusedRow(kind: .expense, id: "e3", written: written("2026-10-12", "Mercado", "73,73"), reason: .amountNotDecimal),
            RefusedRow(kind: .expense, id: "e4", written: written("2026-10-32", nil, "10.005"), reason: .amountTooManyDecimals),
            RefusedRow(kind: .expense, id: "e6", written: written("2026-09-12", "Setembro", "1,00"), reason: .amountNotDecimal),
        ], in: october2026)
        return s
    }

    @Test func theStatementListsItsRowsThatCouldNotBeReadAsWrittenByDate() throws {
        let s = statement()
        #expect(s.refused.map(\.id) == ["e3", "e4", "e5"])   // September's row is September's
        #expect(s.notCountedRows.map(\.id) == ["e3", "e2", "e4", "e5"])
        let expected: [(ReportLocale, String, [String], [String])] = [
            (.ptBR, "BRL · 2 membros · 1 despesas · 4 fora do extrato",
             ["data ilegível: 2026-10-32", "data ilegível"],
             ["Mercado: o valor não está escrito como 1234.56", "Feira de domingo: quem pagou não é membro",
              "sem descrição: o valor tem casas decimais demais para a moeda", "Cinema: falta um campo obrigatório"]),
            (.enUS, "BRL · 2 members · 1 expenses · 4 not counted",
             ["unreadable date: 2026-10-32", "unreadable date"],
             ["Mercado: the amount is not written like 1234.56", "Feira de domingo: the payer is not a member",
              "no description: the amount has more decimals than its currency", "Cinema: a required field is empty"]),
            (.esES, "BRL · 2 miembros · 1 gastos · 4 fuera del extracto",
             ["fecha ilegible: 2026-10-32", "fecha ilegible"],
             ["Mercado: el importe no está escrito como 1234.56", "Feira de domingo: quien pagó no es miembro",
              "sin descripción: el importe tiene más decimales que su moneda", "Cinema: falta un campo obligatorio"]),
        ]
        for (locale, facts, undated, lines) in expected {
            let url = folder.appendingPathComponent("c1-\(locale).xlsx")
            try CoupleWorkbook.write(s, to: url.path, locale: locale)
            let reader = try XLSXReader(url: url)
            let sheet = locale.statementWord(.statementSheet)
            #expect(try reader.cell(sheet, "A2") == .string(facts))
            let column = try (1...40).map { try reader.cell(sheet, "A\($0)")?.string }
            let first = try #require(column.firstIndex(of: locale.statementWord(.leftOut))) + 4
            // A readable date is a date cell; an amount as written is text, right-aligned as amounts are.
            #expect(try reader.row(sheet, first) == [.number(excelSerial(Self.d(12))), .string("73,73 BRL"), .string(lines[0])])
            #expect(try reader.numberFormat(sheet, "A\(first)") == locale.excelDateFormat)
            #expect(try reader.isRightAligned(sheet, "B\(first)"))
            #expect(try reader.row(sheet, first + 1) == [.number(excelSerial(Self.d(17))), .number(112.36), .string(lines[1])])
            #expect(try reader.row(sheet, first + 2) == [.string(undated[0]), .string("10.005 BRL"), .string(lines[2])])
            #expect(try reader.row(sheet, first + 3) == [.string(undated[1]), .string("40.00 BRL"), .string(lines[3])])
            #expect(try reader.cell(sheet, "A\(first + 4)") == nil)

            let text = StatementText.render(s, locale: locale).split(separator: "\n").map(String.init)
            let heading = try #require(text.firstIndex(of: locale.statementWord(.leftOut)))
            let listed = Array(text[(heading + 2)...(heading + 5)])
            let dates = [locale.formatDate(Self.d(12)), locale.formatDate(Self.d(17))] + undated
            for (i, row) in listed.enumerated() {
                #expect(row.hasPrefix("  " + dates[i]) && row.hasSuffix(lines[i]), "\(locale) \(row)")
            }
            #expect(listed[0].contains("73,73 BRL") && listed[3].contains("40.00 BRL"))
        }
    }

    @Test func aStatementWithNothingLeftOutHasNoSuchSection() throws {
        var s = statement()
        s.leftOut = []
        s.refused = []
        let text = StatementText.render(s, locale: .ptBR)
        #expect(!text.contains(ReportLocale.ptBR.statementWord(.leftOut)))
        #expect(ReportLocale.ptBR.statementFacts(s) == "BRL · 2 membros · 1 despesas")
    }
}
