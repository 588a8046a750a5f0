import TallyCore

extension ReportLocale {
    /// The fixed words of a couple's own statement (`statements/<coupleId>.xlsx`
    /// and the titles of its `.txt`) beyond the shared ``Label``s.
    /// Translate with ``ReportLocale/statementWord(_:)``.
    public enum StatementWord: String, Sendable, Hashable, CaseIterable {
        case statementSheet, expensesSheet
        case coupleStatement, groupStatement, coupleExpenses, groupExpenses
        case allSettled, greedyNote, noSpending, noExpenses, noSettlements
        case trend, month, date, description, paidBy, originalAmount, rate, note, settlements
        case refund, agreement, agreementMonth, members, expenseCount, sharesByMember
        case whoOwesWhom, balanceSign, monthNet
        case leftOut, leftOutNote, leftOutCount, settlement, noDescription, unreadableDate
        case split, splitEqual, splitShares, splitExact, splitFull, monthExpenses, fromMember, toMember
        case agreementsInForce, nextDate, endDate, noEndDate, endsThisMonth, remaining, remainingAmount
        case exchangeRates, exchangeRatesNote, rateDate, convertedAmount, expensesColumn
        case checkThese, checkTheseNote
    }

    /// The text of `word` in this locale.
    public func statementWord(_ word: StatementWord) -> String {
        let words = Self.statementWords[word]!
        switch self {
        case .ptBR: return words.pt
        case .enUS: return words.en
        case .esES: return words.es
        }
    }

    private static let statementWords: [StatementWord: (pt: String, en: String, es: String)] = [
        .statementSheet: ("Extrato", "Statement", "Extracto"),
        .expensesSheet: ("Despesas", "Expenses", "Gastos"),
        .coupleStatement: ("Extrato do casal", "Couple statement", "Extracto de la pareja"),
        .groupStatement: ("Extrato do grupo", "Group statement", "Extracto del grupo"),
        .coupleExpenses: ("Despesas do casal", "Couple expenses", "Gastos de la pareja"),
        .groupExpenses: ("Despesas do grupo", "Group expenses", "Gastos del grupo"),
        .allSettled: ("Tudo acertado: nenhuma transferência.", "All settled: nothing to transfer.",
                      "Todo saldado: ninguna transferencia."),
        .greedyNote: ("grupo grande: transferências aproximadas, talvez não as mínimas",
                      "large group: transfers found greedily, possibly not the fewest",
                      "grupo grande: transferencias aproximadas, quizá no las mínimas"),
        .noSpending: ("Nenhum gasto no mês.", "No spending this month.", "Ningún gasto en el mes."),
        .noExpenses: ("Nenhuma despesa no mês.", "No expenses this month.", "Ningún gasto en el mes."),
        .noSettlements: ("Nenhum acerto no mês.", "No settlements this month.", "Ninguna liquidación en el mes."),
        .trend: ("Gastos nos últimos meses", "Spending in recent months", "Gastos de los últimos meses"),
        .month: ("Mês", "Month", "Mes"),
        .date: ("Data", "Date", "Fecha"),
        .description: ("Descrição", "Description", "Descripción"),
        .paidBy: ("Pago por", "Paid by", "Pagado por"),
        .originalAmount: ("Valor original", "Original amount", "Importe original"),
        .rate: ("Câmbio", "Rate", "Cambio"),
        .note: ("Observação", "Note", "Nota"),
        .settlements: ("Acertos", "Settlements", "Liquidaciones"),
        .refund: ("reembolso", "refund", "reembolso"),
        .agreement: ("acordo recorrente", "recurring agreement", "acuerdo recurrente"),
        .agreementMonth: ("acordo recorrente (automático)", "recurring agreement (automatic)",
                          "acuerdo recurrente (automático)"),
        .members: ("membros", "members", "miembros"),
        .expenseCount: ("despesas", "expenses", "gastos"),
        .sharesByMember: ("Parte de cada membro", "Each member's share", "Parte de cada miembro"),
        .whoOwesWhom: ("Quem deve a quem", "Who owes whom", "Quién debe a quién"),
        .balanceSign: ("Saldo positivo: o membro tem a receber; saldo negativo: o membro deve.",
                       "A positive balance: the member is owed; a negative balance: the member owes.",
                       "Saldo positivo: al miembro le deben; saldo negativo: el miembro debe."),
        .monthNet: ("Resultado do mês (pago − parte)", "This month (paid − share)", "Resultado del mes (pagado − parte)"),
        .leftOut: ("Não contado neste extrato", "Not counted on this statement", "No contado en este extracto"),
        .leftOutNote: ("Linhas enviadas que ficaram fora dos saldos: corrija-as e envie de novo.",
                       "Rows sent that are not in the balances: correct them and send them again.",
                       "Filas enviadas que quedaron fuera de los saldos: corríjalas y envíelas de nuevo."),
        .leftOutCount: ("fora do extrato", "not counted", "fuera del extracto"),
        .settlement: ("Acerto", "Settlement", "Liquidación"),
        .noDescription: ("sem descrição", "no description", "sin descripción"),
        .unreadableDate: ("data ilegível", "unreadable date", "fecha ilegible"),
        .split: ("Divisão", "Split", "Reparto"),
        .splitEqual: ("igual", "equal", "igual"),
        .splitShares: ("partes", "shares", "partes"),
        .splitExact: ("exato", "exact", "exacto"),
        .splitFull: ("integral", "in full", "íntegro"),
        .monthExpenses: ("Despesas do mês", "The month's expenses", "Gastos del mes"),
        .fromMember: ("De", "From", "De"),
        .toMember: ("Para", "To", "Para"),
        .agreementsInForce: ("Acordos recorrentes em vigor", "Recurring agreements in force", "Acuerdos recurrentes vigentes"),
        .nextDate: ("Próxima data", "Next date", "Próxima fecha"),
        .endDate: ("Término", "Ends", "Fin"),
        .noEndDate: ("sem data de término", "no end date", "sin fecha de fin"),
        .endsThisMonth: ("termina neste mês", "ends this month", "termina este mes"),
        .remaining: ("Restantes", "Remaining", "Restantes"),
        .remainingAmount: ("Valor restante", "Amount remaining", "Importe restante"),
        .exchangeRates: ("Câmbio do mês", "Exchange rates this month", "Tipos de cambio del mes"),
        .exchangeRatesNote: ("Cada despesa em outra moeda é convertida pelo câmbio mais recente até a data dela.",
                             "Each expense in another currency is converted at the latest rate on or before its date.",
                             "Cada gasto en otra moneda se convierte al tipo de cambio más reciente hasta su fecha."),
        .rateDate: ("Data do câmbio", "Rate date", "Fecha del cambio"),
        .convertedAmount: ("Valor convertido", "Converted amount", "Importe convertido"),
        .expensesColumn: ("Despesas", "Expenses", "Gastos"),
        .checkThese: ("Vale conferir", "Worth checking", "Conviene revisar"),
        .checkTheseNote: ("Possíveis enganos do mês: nada foi mudado; confira e corrija o que estiver errado.",
                          "Possible mistakes this month: nothing was changed; check them and correct what is wrong.",
                          "Posibles errores del mes: no se cambió nada; revíselos y corrija lo que esté mal."),
    ]

    /// Who owes whom on `statement`, one sentence per suggested transfer, or the one line saying all
    /// is settled: `Nicole deve R$ 2.261,36 a Mateus`, `Nicole owes Mateus $2,261.36`,
    /// `Tudo acertado: nenhuma transferência.`
    public func owesLines(_ statement: CoupleStatement) -> [String] {
        guard !statement.transfers.isEmpty else { return [statementWord(.allSettled)] }
        let names = Dictionary(statement.balances.map { ($0.memberId, $0.displayName) }, uniquingKeysWith: { a, _ in a })
        return statement.transfers.map { transfer in
            owesSentence(from: names[transfer.from] ?? transfer.from, to: names[transfer.to] ?? transfer.to,
                         amount: Money(minor: transfer.amount, currency: statement.couple.currency))
        }
    }

    /// The facts under a statement's title: currency, members, expenses counted and, when some rows
    /// of the month do not count, how many: `BRL · 2 membros · 16 despesas · 1 fora do extrato`.
    public func statementFacts(_ statement: CoupleStatement) -> String {
        var facts = "\(statement.couple.currency.code) · \(statement.balances.count) \(statementWord(.members)) · "
            + "\(statement.expenseCount) \(statementWord(.expenseCount))"
        if statement.notCounted > 0 { facts += " · \(statement.notCounted) \(statementWord(.leftOutCount))" }
        return facts
    }

    /// The line under a list a couple's workbook cuts short, counting the rest and saying where the
    /// whole list is (`file`, the couple's text statement, which lists everything):
    /// `… e mais 3 linhas, todas no extrato em texto c1.txt`; for one, `… e mais 1 linha, no extrato em texto c1.txt`.
    public func otherRows(_ count: Int, allIn file: String) -> String {
        let n = formatInteger(Int64(count))
        switch self {
        case .ptBR: return count == 1 ? "… e mais 1 linha, no extrato em texto \(file)"
                                      : "… e mais \(n) linhas, todas no extrato em texto \(file)"
        case .enUS: return count == 1 ? "… and 1 more row, in the text statement \(file)"
                                      : "… and \(n) more rows, all in the text statement \(file)"
        case .esES: return count == 1 ? "… y 1 fila más, en el extracto de texto \(file)"
                                      : "… y \(n) filas más, todas en el extracto de texto \(file)"
        }
    }

    /// How an expense is split, in words, the values in the order of `memberIds` (the statement's
    /// members): `igual`; `62,5/37,5` (percentages); `partes 3/2`; `exato`; `integral (Ana)` (`names`
    /// gives a member's name). en-US: `equal`, `62.5/37.5`, `shares 3/2`, `exact`, `in full (Ana)`.
    public func splitWords(_ rule: SplitRule, memberIds: [String], names: [String: String]) -> String {
        func values() -> String {
            var byMember: [String: Decimal10] = [:]
            for entry in rule.entries where byMember[entry.memberId] == nil { byMember[entry.memberId] = entry.value }
            return memberIds.map { id in
                guard let value = byMember[id] else { return "0" }
                var mantissa = value.mantissa, scale = value.scale
                while scale > 0, mantissa % 10 == 0 { mantissa /= 10; scale -= 1 }
                return formatDecimal(mantissa, scale: scale, grouping: false)
            }.joined(separator: "/")
        }
        switch rule.type {
        case .equal: return statementWord(.splitEqual)
        case .percentage: return values()
        case .shares: return "\(statementWord(.splitShares)) \(values())"
        case .exact: return statementWord(.splitExact)
        case .full:
            let who = rule.entries.first.map { names[$0.memberId] ?? $0.memberId }
            return statementWord(.splitFull) + (who.map { " (\($0))" } ?? "")
        }
    }

    /// Whether a space is a couple's (two members or fewer) or a group's.
    static func isGroup(members: Int) -> Bool { members > 2 }

    /// The heading of a space's statement, "grupo"/"group" wording for more
    /// than two members: `Extrato do casal Ana & Bia — outubro de 2026`,
    /// `Extrato do grupo República Aurora — outubro de 2026`.
    public func statementTitle(spaceName: String, members: Int, period: YearMonth) -> String {
        let kind = statementWord(Self.isGroup(members: members) ? .groupStatement : .coupleStatement)
        return "\(kind) \(spaceName) — \(formatMonth(period))"
    }

    /// The heading of the itemised sheet: `Despesas do casal Ana & Bia — outubro de 2026`.
    public func expensesTitle(spaceName: String, members: Int, period: YearMonth) -> String {
        let kind = statementWord(Self.isGroup(members: members) ? .groupExpenses : .coupleExpenses)
        return "\(kind) \(spaceName) — \(formatMonth(period))"
    }

    /// An fx rate as people read it: 5.4321 → `5,4321` (pt-BR), `5.4321` (en-US); at least 2 decimals.
    public func formatRate(_ rate: Decimal10) -> String {
        var mantissa = rate.mantissa
        var scale = rate.scale
        while scale > 2, mantissa % 10 == 0 { mantissa /= 10; scale -= 1 }
        if scale < 2, let widened = rate.rescaled(to: 2) { mantissa = widened; scale = 2 }
        return formatDecimal(mantissa, scale: scale, grouping: false)
    }
}
