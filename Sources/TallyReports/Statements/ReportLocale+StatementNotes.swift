import TallyCore

extension ReportLocale {
    /// A note of the statement's "check these" section as a sentence, `names` giving members' names:
    /// `03/10/2026: 2 despesas de R$ 50,00 pagas por Ana no mesmo dia (Feira · Feira): lançada em dobro?`,
    /// `15/10/2026: Bia enviou R$ 300,00 a Ana, mas devia R$ 120,00 antes do acerto.`
    public func auditSentence(_ note: AuditNote, currency: Currency, names: [String: String]) -> String {
        let date = formatDate(note.date)
        let name = { (id: String) in names[id] ?? id }
        let money = { (minor: Int64) in self.formatMoney(minor: minor, currency: currency) }
        switch note {
        case .repeatedExpense(_, let paidBy, let amount, let ids, let descriptions):
            let count = formatInteger(Int64(ids.count))
            let what = descriptions.map(TextLines.oneLine).joined(separator: " · ")
            switch self {
            case .ptBR: return "\(date): \(count) despesas de \(money(amount)) pagas por \(name(paidBy)) no mesmo dia (\(what)): lançada em dobro?"
            case .enUS: return "\(date): \(count) expenses of \(money(amount)) paid by \(name(paidBy)) on the same day (\(what)): entered twice?"
            case .esES: return "\(date): \(count) gastos de \(money(amount)) pagados por \(name(paidBy)) el mismo día (\(what)): ¿registrado dos veces?"
            }
        case .settlementOverBalance(_, _, let from, let to, let amount, let owed):
            switch self {
            case .ptBR:
                let before = owed == 0 ? "não devia nada" : "devia \(money(owed))"
                return "\(date): \(name(from)) enviou \(money(amount)) a \(name(to)), mas \(before) antes do acerto."
            case .enUS:
                let before = owed == 0 ? "owed nothing" : "owed \(money(owed))"
                return "\(date): \(name(from)) sent \(name(to)) \(money(amount)) but \(before) before it."
            case .esES:
                let before = owed == 0 ? "no debía nada" : "debía \(money(owed))"
                return "\(date): \(name(from)) envió \(money(amount)) a \(name(to)), pero \(before) antes de la liquidación."
            }
        }
    }

    /// The end of an agreement in force: its end date, or `sem data de término`.
    public func agreementEnd(_ item: AgreementInForce) -> String {
        item.agreement.endDate.map(formatDate) ?? statementWord(.noEndDate)
    }

    /// The next date of an agreement in force, or `termina neste mês` when it ends in the month.
    public func agreementNext(_ item: AgreementInForce) -> String {
        item.nextDate.map(formatDate) ?? statementWord(.endsThisMonth)
    }
}
