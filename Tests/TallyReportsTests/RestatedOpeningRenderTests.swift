import Foundation
import Testing
import TallyCore
import TallyTestSupport
@testable import TallyReports

/// A restated opening (``RestatedOpening``) on a couple's statement, in every
/// locale: the text and the workbook say what was sent, what it is now, and
/// which rows arrived since.
@Suite final class RestatedOpeningRenderTests {
    private let folder: URL

    init() throws { folder = try temporaryFolder() }
    deinit { try? FileManager.default.removeItem(at: folder) }

    func statement(restated: Bool) -> CoupleStatement {
        let couple = Couple(id: "c1", name: "Ana & Bia", currency: brl)
        let source = SourceRef(file: "2026-10/expenses/expenses.csv", line: 7)
        let late = ExpenseFact(id: "e9", coupleId: "c1", paidBy: "m1", amount: 25_000, currency: brl,
                               date: LocalDate(year: 2026, month: 9, day: 20)!, description: "Conta atrasada", tag: "casa",
                               agreementId: nil, split: .equal, source: source)
        let resolution = LedgerResolver.resolve(
            couple: couple, members: [Member(id: "m1", coupleId: "c1", displayName: "Ana"), Member(id: "m2", coupleId: "c1", displayName: "Bia")],
            expenses: [late], settlements: [], agreements: [], fx: FxTable())
        var s = StatementBuilder.build(resolution.ledger, period: october2026, fx: FxTable(), itemised: true)
        var rows = CoupleRows(key: "c1", couple: couple)
        rows.expenses = [.init(id: "e9", source: source, fact: late, deleted: false, error: nil)]
        let sent = PublishedClosing(month: YearMonth("2026-09")!, closing: restated ? [:] : ["m1": 12_500, "m2": -12_500],
                                    filesSince: [source.file])
        s.restated = RestatedOpening.of(s, published: sent, rows: rows)
        return s
    }

    @Test func theTextSaysWhatWasSentWhatItIsNowAndWhichRowsArrived() throws {
        #expect(statement(restated: false).restated == nil)
        let s = statement(restated: true)
        let expected: [(ReportLocale, String, String, String)] = [
            (.ptBR, "Saldo de abertura revisto", "O extrato de setembro de 2026 foi enviado com outros saldos finais",
             "20/09/2026  despesa  e9  Conta atrasada  R$ 250,00  2026-10/expenses/expenses.csv:7"),
            (.enUS, "Opening balance restated", "The September 2026 statement was sent with other closing balances",
             "09/20/2026  expense  e9  Conta atrasada  R$250.00  2026-10/expenses/expenses.csv:7"),
            (.esES, "Saldo inicial revisado", "El extracto de septiembre de 2026 se envió con otros saldos finales",
             "20/09/2026  gasto  e9  Conta atrasada  250,00 R$  2026-10/expenses/expenses.csv:7"),
        ]
        for (locale, heading, note, row) in expected {
            let text = StatementText.render(s, locale: locale)
            #expect(text.contains("\n\(heading)\n  \(note)"), "\(locale)")
            #expect(text.contains(row), "\(locale): \(text)")
            // The section comes before the balances it explains.
            #expect(text.range(of: heading)!.lowerBound < text.range(of: locale.label(.balancesSheet) + "\n")!.lowerBound)
        }
    }

    @Test func theWorkbookReadsBackWithTheBalancesAsNumbers() throws {
        let path = folder.appendingPathComponent("c1.xlsx").path
        try CoupleWorkbook.write(statement(restated: true), to: path, locale: .enUS)
        let reader = try XLSXReader(url: URL(fileURLWithPath: path))
        let column = try (1...40).map { try reader.cell("Statement", "A\($0)")?.string }
        let heading = try #require(column.firstIndex(of: "Opening balance restated")) + 1
        #expect(try reader.strings("Statement", heading + 2) == ["Member", "As sent (Sep 2026)", "Now", "Difference"])
        #expect(try reader.row("Statement", heading + 3).map { $0?.number } == [nil, 0, 125, 125])
        #expect(try reader.cell("Statement", "A\(heading + 3)") == .string("Ana"))
    }
}
