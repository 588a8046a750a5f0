import Foundation
import Testing
import TallyCore
import TallyTestSupport
@testable import TallyReports

@Suite final class StatementsWorkbookTests {
    /// A fresh folder per test (Swift Testing makes one instance per test), removed afterwards.
    private let folder: URL

    init() throws { folder = try temporaryFolder() }
    deinit { try? FileManager.default.removeItem(at: folder) }

    private func write(_ statements: [CoupleStatement], locale: ReportLocale = .ptBR, to url: URL,
                       options: StatementsWorkbook.Options = .init()) throws {
        let book = try StatementsWorkbook(path: url.path, locale: locale, period: october2026, options: options)
        for statement in statements { try book.add(statement) }
        #expect(book.statementCount == statements.count)
        try book.close()
    }

    @Test func writesEverySheetInPortuguese() throws {
        let url = folder.appendingPathComponent("statements.xlsx")
        try write(sampleStatements(), to: url)
        let reader = try XLSXReader(url: url)
        #expect(reader.sheetNames == ["Resumo", "Saldos", "Transferências", "Categorias"])

        // Balances: headers, a money value as a number, the period as a real date.
        #expect(try reader.strings("Saldos", 1) == [
            "ID do casal", "Casal", "Período", "ID do membro", "Nome", "Moeda", "Saldo inicial", "Pago", "Parte",
            "Acertos enviados", "Acertos recebidos", "Saldo final",
        ])
        #expect(try reader.row("Saldos", 2) == [
            .string("c1"), .string("Ana & Bia"), .number(excelSerial(october2026.firstDay)), .string("m1"), .string("Ana"),
            .string("BRL"), .number(1234.56), .number(500), .number(300), .number(0), .number(100), .number(1334.56),
        ])
        #expect(try reader.numberFormat("Saldos", "C2") == "mm/yyyy")
        #expect(try reader.numberFormat("Saldos", "G2") == ReportLocale.ptBR.excelMoneyFormat(for: brl))
        #expect(try reader.cell("Saldos", "G3") == .number(-1234.56))
        #expect(try reader.cell("Saldos", "A6") == .string("c3"))
        #expect(try reader.cell("Saldos", "H6") == .number(3500))
        #expect(try reader.numberFormat("Saldos", "H6") == "[$¥-416] #,##0;-[$¥-416] #,##0")
        #expect(try reader.rowCount("Saldos") == 7)
        let balancesXML = try reader.sheetXML("Saldos")
        #expect(balancesXML.contains("<pane ySplit=\"1\" topLeftCell=\"A2\" activePane=\"bottomLeft\" state=\"frozen\"/>"))
        #expect(balancesXML.contains("<autoFilter ref=\"A1:L7\"/>"))

        // Transfers: names looked up from the balances; no currency column (the format carries it);
        // a note only for a large group's greedy transfers.
        #expect(try reader.strings("Transferências", 1) == [
            "ID do casal", "Casal", "Período", "De (ID)", "De", "Para (ID)", "Para", "Valor", "Observação",
        ])
        #expect(try reader.row("Transferências", 2) == [
            .string("c1"), .string("Ana & Bia"), .number(excelSerial(october2026.firstDay)), .string("m2"), .string("Bia"),
            .string("m1"), .string("Ana"), .number(1334.56),
        ])
        #expect(try reader.cell("Transferências", "I3") == .string("grupo grande: transferências aproximadas, talvez não as mínimas"))
        #expect(try reader.rowCount("Transferências") == 3)

        // Categories: one row per couple and tag, named for people (the empty tag labelled).
        #expect(try reader.strings("Categorias", 1) == ["ID do casal", "Casal", "Período", "Categoria", "Valor", "Moeda"])
        #expect(try reader.cell("Categorias", "D3") == .string("Sem categoria"))
        #expect(try reader.cell("Categorias", "E3") == .number(150))
        #expect(try reader.rowCount("Categorias") == 7)

        // Summary: per currency, largest first, with totals and one chart per currency.
        #expect(try reader.cell("Resumo", "A1") == .string("Gastos por categoria — outubro de 2026"))
        #expect(try reader.strings("Resumo", 3) == ["Moeda", "Categoria", "Valor", "% do total", "Casais"])
        #expect(try reader.row("Resumo", 4) == [.string("BRL"), .string("Mercado"), .number(600), .number(600.0 / 790.0), .number(2)])
        #expect(try reader.row("Resumo", 5) == [.string("BRL"), .string("Sem categoria"), .number(150), .number(150.0 / 790.0), .number(1)])
        #expect(try reader.row("Resumo", 6) == [.string("BRL"), .string("Lazer"), .number(40), .number(40.0 / 790.0), .number(2)])
        #expect(try reader.row("Resumo", 7) == [.string("BRL"), .string("Total"), .number(790), nil, .number(2)])
        #expect(try reader.row("Resumo", 9) == [.string("JPY"), .string("Ramen"), .number(3500), .number(1), .number(1)])
        #expect(try reader.row("Resumo", 10) == [.string("JPY"), .string("Total"), .number(3500), nil, .number(1)])
        #expect(try reader.numberFormat("Resumo", "D4") == "0.0%")
        #expect(try reader.sheetXML("Resumo").contains("state=\"frozen\""))
        let charts = try reader.chartPaths(onSheet: "Resumo")
        #expect(charts.count == 2)
        let brlChart = try reader.text(charts[0])
        #expect(brlChart.contains("<c:barChart>"))
        #expect(brlChart.contains("Gastos por categoria (BRL)"))
        #expect(brlChart.contains("<c:f>Resumo!$B$4:$B$6</c:f>"))
        #expect(brlChart.contains("<c:f>Resumo!$C$4:$C$6</c:f>"))
        #expect(try reader.text(charts[1]).contains("<c:f>Resumo!$C$9</c:f>"))

        let core = try reader.text("docProps/core.xml")
        #expect(core.contains("2026-10-01T00:00:00Z"), "the creation date is the period's first day")
    }

    @Test func writesHeadingsInEnglishAndSpanish() throws {
        let english = folder.appendingPathComponent("en.xlsx"), spanish = folder.appendingPathComponent("es.xlsx")
        try write(sampleStatements(), locale: .enUS, to: english)
        try write(sampleStatements(), locale: .esES, to: spanish)
        let en = try XLSXReader(url: english), es = try XLSXReader(url: spanish)
        #expect(en.sheetNames == ["Summary", "Balances", "Transfers", "Categories"])
        #expect(es.sheetNames == ["Resumen", "Saldos", "Transferencias", "Categorías"])
        #expect(try en.cell("Balances", "L1") == .string("Closing"))
        #expect(try en.sheetNames.allSatisfy { try en.paperSize($0) == 1 }, "an en-US overview prints on Letter")
        #expect(try es.sheetNames.allSatisfy { try es.paperSize($0) == 9 }, "an es-ES overview prints on A4")
        #expect(try en.numberFormat("Balances", "G2") == "[$R$-409]#,##0.00;-[$R$-409]#,##0.00")
        #expect(try en.cell("Categories", "D3") == .string("Untagged"))
        #expect(try es.numberFormat("Saldos", "G2") == "#,##0.00 [$R$-C0A];-#,##0.00 [$R$-C0A]")
        #expect(try es.cell("Resumen", "A1") == .string("Gastos por categoría — octubre de 2026"))
    }

    @Test func sameStatementsGiveByteIdenticalFiles() throws {
        let first = folder.appendingPathComponent("1.xlsx"), second = folder.appendingPathComponent("2.xlsx")
        try write(sampleStatements(), to: first)
        try write(sampleStatements(), to: second)
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))
    }

    @Test func continuesLongSheetsOnNewSheets() throws {
        let url = folder.appendingPathComponent("spill.xlsx")
        // 36 couples: 72 balance rows, 24 transfers, 72 category rows; 25 rows per sheet (24 data rows).
        var statements: [CoupleStatement] = []
        for copy in 0..<12 {
            for var statement in sampleStatements() {
                statement.couple.id += "-\(copy)"
                statements.append(statement)
            }
        }
        try write(statements, to: url, options: .init(maxRowsPerSheet: 25))
        let reader = try XLSXReader(url: url)
        #expect(reader.sheetNames == ["Resumo", "Saldos", "Transferências", "Categorias",
                                      "Saldos (2)", "Categorias (2)", "Saldos (3)", "Categorias (3)"])
        for sheet in ["Saldos", "Saldos (2)", "Saldos (3)", "Transferências", "Categorias (3)"] {
            #expect(try reader.cell(sheet, "A1") == .string("ID do casal"))
            #expect(try reader.rowCount(sheet) == 25)
        }
        #expect(try reader.cell("Saldos (2)", "A2") == .string("c1-4"), "rows continue where the first sheet stopped")
        #expect(try reader.cell("Saldos (3)", "A25") == .string("c3-11"))
        #expect(try reader.cell("Categorias (3)", "D25") == .string("Ramen"))
        #expect(try reader.cell("Resumo", "C4") == .number(7200), "the summary still covers every couple")
    }

    @Test func aSummaryLongerThanItsSheetAddsUpTheSmallestTagsOnOneLine() throws {
        let url = folder.appendingPathComponent("folded.xlsx")
        // A fourth couple spends R$ 1.00 on t01, R$ 2.00 on t02, … R$ 20.00 on t20: BRL has 23 tags, JPY one.
        let many = CoupleStatement(
            couple: Couple(id: "c4", name: "Muitas", currency: brl), period: october2026,
            balances: [MemberBalance(memberId: "m7", displayName: "Eva", opening: 0, paid: 21_000, share: 21_000,
                                     settlementsSent: 0, settlementsReceived: 0, closing: 0)],
            transfers: [], method: .exact,
            categories: (1...20).map { CategoryTotal(tag: $0 < 10 ? "t0\($0)" : "t\($0)", amount: Int64($0) * 100, shareByMember: ["m7": Int64($0) * 100]) },
            trend: [(october2026, 21_000)], expenseCount: 20, rejects: [])
        // 24 rows: the title, a blank row, the header, then per currency its tags, a total and a blank row.
        // All would take 30: BRL lists its 16 largest tags and adds up the other 7.
        try write(sampleStatements() + [many], to: url, options: .init(maxRowsPerSheet: 24))
        let reader = try XLSXReader(url: url)
        #expect(try reader.row("Resumo", 4) == [.string("BRL"), .string("Mercado"), .number(600), .number(0.6), .number(2)])
        #expect(try reader.strings("Resumo", 19).prefix(2) == ["BRL", "T08"])
        #expect(try reader.row("Resumo", 20) == [.string("BRL"), .string("Outras 7 categorias"), .number(28), .number(0.028)],
                "t07 to t01 added up, their couples not counted")
        #expect(try reader.strings("Resumo", 21).prefix(2) == ["BRL", "Total"])
        #expect(try reader.cell("Resumo", "C21") == .number(1000))
        #expect(try reader.strings("Resumo", 23).prefix(2) == ["JPY", "Ramen"])
        #expect(try reader.strings("Resumo", 24).prefix(2) == ["JPY", "Total"])
        #expect(XLSXRowBudget.cap(counts: [3, 1], extraRowsEach: 2, within: 7) == 1)
        #expect(XLSXRowBudget.cap(counts: [3, 1], extraRowsEach: 2, within: 8) == 3)
        #expect(XLSXRowBudget.cap(counts: [3, 1], extraRowsEach: 2, within: 5) == nil)
        #expect(XLSXRowBudget.cap(counts: [], extraRowsEach: 2, within: 0) == 0)
    }

    @Test func writesAnEmptyWorkbookWhenThereAreNoStatements() throws {
        let url = folder.appendingPathComponent("empty.xlsx")
        try write([], to: url)
        let reader = try XLSXReader(url: url)
        #expect(reader.sheetNames.count == 4)
        #expect(reader.chartPaths.isEmpty)
        #expect(try reader.rowCount("Saldos") == 1)
    }

    @Test func refusesAStatementOfAnotherPeriod() throws {
        let url = folder.appendingPathComponent("period.xlsx")
        let book = try StatementsWorkbook(path: url.path, period: october2026.adding(months: 1))
        #expect(throws: XLSXError.self) { try book.add(sampleStatements()[0]) }
    }
}
