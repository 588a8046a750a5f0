import Testing
import TallyCore
@testable import TallyReports

@Suite struct ReportLocaleTests {
    @Test func parsesIdentifiersIgnoringCaseAndUnderscore() {
        #expect(ReportLocale(identifier: "pt-BR") == .ptBR)
        #expect(ReportLocale(identifier: "PT_br") == .ptBR)
        #expect(ReportLocale(identifier: "en-us") == .enUS)
        #expect(ReportLocale(identifier: " es_ES ") == .esES)
        #expect(ReportLocale(identifier: "pt") == nil)
        #expect(ReportLocale(identifier: "fr-FR") == nil)
        #expect(ReportLocale(identifier: "") == nil)
        #expect(ReportLocale.default == .ptBR)
        #expect(ReportLocale.allCases.map(\.identifier) == ["pt-BR", "en-US", "es-ES"])
    }

    @Test func formatsMoneyInPortuguese() {
        let pt = ReportLocale.ptBR
        #expect(pt.formatMoney(minor: 123_456, currency: brl) == "R$ 1.234,56")
        #expect(pt.formatMoney(minor: -123_456, currency: brl) == "-R$ 1.234,56")
        #expect(pt.formatMoney(minor: -5, currency: brl) == "-R$ 0,05")
        #expect(pt.formatMoney(minor: 0, currency: brl) == "R$ 0,00")
        #expect(pt.formatMoney(minor: 100_000_000, currency: brl) == "R$ 1.000.000,00")
        #expect(pt.formatMoney(minor: 123_456, currency: usd) == "US$ 1.234,56")
        #expect(pt.formatMoney(minor: 123_456, currency: eur) == "€ 1.234,56")
        #expect(pt.formatMoney(minor: 1_234_567, currency: jpy) == "¥ 1.234.567")
        #expect(pt.formatMoney(Money(minor: 999, currency: Currency(code: "CHF")!)) == "CHF 9,99")
    }

    @Test func formatsMoneyInEnglish() {
        let en = ReportLocale.enUS
        #expect(en.formatMoney(minor: 123_456, currency: usd) == "$1,234.56")
        #expect(en.formatMoney(minor: -123_456, currency: usd) == "-$1,234.56")
        #expect(en.formatMoney(minor: 123_456, currency: brl) == "R$1,234.56")
        #expect(en.formatMoney(minor: 1_235, currency: jpy) == "¥1,235")
        #expect(en.formatMoney(minor: -1_235, currency: jpy) == "-¥1,235")
        #expect(en.formatMoney(minor: 50, currency: Currency(code: "GBP")!) == "£0.50")
        #expect(en.formatMoney(minor: 123_456, currency: Currency(code: "CHF")!) == "CHF 1,234.56")
        #expect(en.formatMoney(minor: 1_234_567, currency: Currency(code: "KWD")!) == "KWD 1,234.567")
    }

    @Test func formatsMoneyInSpanish() {
        let es = ReportLocale.esES
        #expect(es.formatMoney(minor: 123_456, currency: eur) == "1.234,56 €")
        #expect(es.formatMoney(minor: -123_456, currency: eur) == "-1.234,56 €")
        #expect(es.formatMoney(minor: 123_456, currency: brl) == "1.234,56 R$")
        #expect(es.formatMoney(minor: 123_456, currency: usd) == "1.234,56 US$")
        #expect(es.formatMoney(minor: 1_235, currency: jpy) == "1.235 ¥")
        #expect(es.formatMoney(minor: 999, currency: eur) == "9,99 €")
    }

    @Test func formatsExtremeAmountsWithoutOverflow() {
        #expect(ReportLocale.enUS.formatMoney(minor: .min, currency: usd) == "-$92,233,720,368,547,758.08")
        #expect(ReportLocale.ptBR.formatMoney(minor: .max, currency: jpy) == "¥ 9.223.372.036.854.775.807")
    }

    @Test func formatsNumbersAndPercents() {
        #expect(ReportLocale.ptBR.formatInteger(12_345) == "12.345")
        #expect(ReportLocale.enUS.formatInteger(-12_345) == "-12,345")
        #expect(ReportLocale.enUS.formatDecimal(123, scale: 3) == "0.123")
        #expect(ReportLocale.ptBR.formatDecimal(123_456, scale: 2, grouping: false) == "1234,56")
        #expect(ReportLocale.ptBR.formatPercent(0.1532) == "15,3%")
        #expect(ReportLocale.enUS.formatPercent(0.1532) == "15.3%")
        #expect(ReportLocale.esES.formatPercent(0.1532) == "15,3 %")
        #expect(ReportLocale.enUS.formatPercent(-0.00049, decimals: 2) == "-0.05%")
        #expect(ReportLocale.enUS.formatPercent(.nan) == "")
    }

    @Test func formatsDatesAndMonths() {
        let date = LocalDate(year: 2026, month: 10, day: 3)!
        #expect(ReportLocale.ptBR.formatDate(date) == "03/10/2026")
        #expect(ReportLocale.esES.formatDate(date) == "03/10/2026")
        #expect(ReportLocale.enUS.formatDate(date) == "10/03/2026")
        #expect(ReportLocale.ptBR.formatMonth(october2026) == "outubro de 2026")
        #expect(ReportLocale.enUS.formatMonth(october2026) == "October 2026")
        #expect(ReportLocale.esES.formatMonth(october2026) == "octubre de 2026")
        #expect(ReportLocale.ptBR.monthName(3) == "março")
        #expect(ReportLocale.esES.monthName(9) == "septiembre")
        #expect(ReportLocale.ptBR.formatShortMonth(october2026) == "out/2026")
        #expect(ReportLocale.enUS.formatShortMonth(october2026) == "Oct 2026")
    }

    @Test("money formats place the symbol like the text and carry the locale, as Excel writes them")
    func excelFormatsPlaceTheSymbolLikeTheText() {
        #expect(ReportLocale.ptBR.excelMoneyFormat(for: brl) == "[$R$-416] #,##0.00;-[$R$-416] #,##0.00")
        #expect(ReportLocale.ptBR.excelMoneyFormat(for: usd) == "[$US$-416] #,##0.00;-[$US$-416] #,##0.00")
        #expect(ReportLocale.enUS.excelMoneyFormat(for: usd) == "[$$-409]#,##0.00;-[$$-409]#,##0.00")
        #expect(ReportLocale.enUS.excelMoneyFormat(for: brl) == "[$R$-409]#,##0.00;-[$R$-409]#,##0.00")
        #expect(ReportLocale.enUS.excelMoneyFormat(for: Currency(code: "CHF")!) == "[$CHF-409] #,##0.00;-[$CHF-409] #,##0.00")
        #expect(ReportLocale.esES.excelMoneyFormat(for: eur) == "#,##0.00 [$€-C0A];-#,##0.00 [$€-C0A]")
        #expect(ReportLocale.ptBR.excelMoneyFormat(for: jpy) == "[$¥-416] #,##0;-[$¥-416] #,##0")
        #expect(ReportLocale.ptBR.excelDateFormat == "dd/mm/yyyy")
        #expect(ReportLocale.esES.excelDateFormat == "dd/mm/yyyy")
        #expect(ReportLocale.enUS.excelDateFormat == "mm/dd/yyyy")
    }

    @Test(arguments: ReportLocale.allCases)
    func everyLabelIsTranslatedAndHeadingsAreDistinct(locale: ReportLocale) {
        for label in ReportLocale.Label.allCases {
            #expect(!locale.label(label).isEmpty, "\(locale) \(label)")
        }
        let balanceHeadings: [ReportLocale.Label] = [.coupleId, .couple, .period, .memberId, .displayName, .currency,
                                                      .opening, .paid, .share, .settlementsSent, .settlementsReceived, .closing]
        #expect(Set(balanceHeadings.map(locale.label)).count == balanceHeadings.count)
        let transferHeadings: [ReportLocale.Label] = [.coupleId, .couple, .period, .from, .fromName, .to, .toName, .amount, .currency, .method]
        #expect(Set(transferHeadings.map(locale.label)).count == transferHeadings.count)
        let sheets: [ReportLocale.Label] = [.summarySheet, .balancesSheet, .transfersSheet, .categoriesSheet]
        #expect(Set(sheets.map(locale.label)).count == 4)
        for sheet in sheets { #expect(XLSXSheetName.sanitize(locale.label(sheet)) == locale.label(sheet)) }
    }

    @Test func continuationSheetsSayWhichRowsTheyHoldInEveryLocale() {
        #expect(ReportLocale.ptBR.continuationNote(rows: 1_048_574...1_200_000) == "(continuação, linhas 1.048.574–1.200.000)")
        #expect(ReportLocale.enUS.continuationNote(rows: 1_048_574...1_200_000) == "(continued, rows 1,048,574–1,200,000)")
        #expect(ReportLocale.esES.continuationNote(rows: 4...6) == "(continuación, filas 4–6)")
        #expect(ReportLocale.allCases.map { $0.continuationNote(rows: nil) } == ["(continuação)", "(continued)", "(continuación)"])
        #expect(ReportLocale.allCases.map { $0.sheetCount(3) } == ["3 planilhas", "3 sheets", "3 hojas"])
    }

    @Test func translatesSheetNamesAndSentences() {
        #expect(ReportLocale.ptBR.label(.balancesSheet) == "Saldos")
        #expect(ReportLocale.enUS.label(.balancesSheet) == "Balances")
        #expect(ReportLocale.ptBR.label(.transfersSheet) == "Transferências")
        #expect(ReportLocale.esES.label(.categoriesSheet) == "Categorías")
        #expect(ReportLocale.ptBR.tagName("") == "Sem categoria")
        #expect(ReportLocale.enUS.tagName("food") == "Food")
        #expect(ReportLocale.enUS.tagName("saude") == "Health")
        let amount = Money(minor: 1_000, currency: brl)
        #expect(ReportLocale.ptBR.owesSentence(from: "Ana", to: "Bia", amount: amount) == "Ana deve R$ 10,00 a Bia")
        #expect(ReportLocale.enUS.owesSentence(from: "Ana", to: "Bia", amount: amount) == "Ana owes Bia R$10.00")
        #expect(ReportLocale.esES.owesSentence(from: "Ana", to: "Bia", amount: amount) == "Ana debe 10,00 R$ a Bia")
        #expect(ReportLocale.ptBR.statementTitle(coupleName: "Ana & Bia", period: october2026)
                == "Extrato do casal Ana & Bia — outubro de 2026")
    }

    @Test("A4 in Brazil and Spain, US Letter in the United States")
    func paperFollowsTheLocale() {
        #expect(ReportLocale.ptBR.paper == .a4 && ReportLocale.esES.paper == .a4 && ReportLocale.enUS.paper == .letter)
        #expect(XLSXPrintSetup.Paper.a4.rawValue == 9 && XLSXPrintSetup.Paper.letter.rawValue == 1)
    }
}

@Suite("Decimal formatting over random values")
struct DecimalFormattingPropertyTests {
    /// The digits written out by hand: whole part grouped in threes from the right, then `scale` digits.
    private func reference(_ value: Int64, scale: Int, grouping: Bool, _ locale: ReportLocale) -> String {
        let divisor = (0..<scale).reduce(UInt64(1)) { p, _ in p * 10 }
        var whole = Array(String(value.magnitude / divisor))
        if grouping {
            var grouped: [String] = []
            while whole.count > 3 { grouped.insert(String(whole.suffix(3)), at: 0); whole.removeLast(3) }
            grouped.insert(String(whole), at: 0)
            whole = Array(grouped.joined(separator: locale.groupingSeparator))
        }
        var text = (value < 0 ? "-" : "") + String(whole)
        if scale > 0 {
            let fraction = String(value.magnitude % divisor)
            text += locale.decimalSeparator + String(repeating: "0", count: scale - fraction.count) + fraction
        }
        return text
    }

    @Test("formatDecimal and formatMoney agree with the digits written out, for every locale, scale and sign")
    func randomValues() {
        var rng = SplitMix64(seed: 7)
        let edges: [Int64] = [0, 1, -1, 9, 10, 999, 1_000, -1_000, 999_999, 1_000_000, .max, .min, .min + 1]
        for locale in ReportLocale.allCases {
            for i in 0..<400 {
                let value = i < edges.count ? edges[i] : Int64.random(in: -10_000_000_000...10_000_000_000, using: &rng)
                let scale = Int.random(in: 0...4, using: &rng)
                for grouping in [true, false] {
                    #expect(locale.formatDecimal(value, scale: scale, grouping: grouping) == reference(value, scale: scale, grouping: grouping, locale))
                }
            }
            let brl = Currency(code: "BRL")!
            let unsigned = reference(123_456_7, scale: 2, grouping: true, locale)
            let symbol = locale.currencySymbol(for: brl), space = locale.symbolNeedsSpace(symbol) ? " " : ""
            let expected = locale == .esES ? unsigned + space + symbol : symbol + space + unsigned
            #expect(locale.formatMoney(minor: 123_456_7, currency: brl) == expected)
            #expect(locale.formatMoney(minor: -123_456_7, currency: brl) == "-" + expected)
        }
    }
}
