import TallyCore

extension ReportLocale {
    /// Why a couple's row does not count, in this locale, from its stable code (never from the
    /// English reason of `rejects.csv`): `.payerNotMember` → `quem pagou não é membro`,
    /// `the payer is not a member`, `quien pagó no es miembro`.
    public func leftOutReason(_ reason: LeftOutReason) -> String {
        let words = Self.leftOutReasons[reason]!
        switch self {
        case .ptBR: return words.pt
        case .enUS: return words.en
        case .esES: return words.es
        }
    }

    private static let leftOutReasons: [LeftOutReason: (pt: String, en: String, es: String)] = [
        .payerNotMember: ("quem pagou não é membro", "the payer is not a member", "quien pagó no es miembro"),
        .splitMemberNotMember: ("a divisão cita alguém que não é membro", "the split names someone who is not a member",
                                "el reparto nombra a alguien que no es miembro"),
        .splitPercentagesNot100: ("as porcentagens da divisão não somam 100", "the split's percentages do not add up to 100",
                                  "los porcentajes del reparto no suman 100"),
        .splitExactNotAmount: ("os valores da divisão não somam o valor da despesa",
                               "the split's amounts do not add up to the expense",
                               "los importes del reparto no suman el importe del gasto"),
        .splitInvalid: ("a divisão não pode ser aplicada", "the split cannot be applied", "el reparto no se puede aplicar"),
        .noFxRate: ("sem câmbio para a moeda nessa data", "no exchange rate for its currency on that date",
                    "sin tipo de cambio para su moneda en esa fecha"),
        .amountOutOfRange: ("o valor convertido é grande demais", "the converted amount is too large",
                            "el importe convertido es demasiado grande"),
        .coupleTotalOverLimit: ("o total passa do limite que o tally acompanha", "the total passes the limit tally follows",
                                "el total supera el límite que tally sigue"),
        .settlementPartyNotMember: ("o acerto cita alguém que não é membro", "the settlement names someone who is not a member",
                                    "la liquidación nombra a alguien que no es miembro"),
        .settlementToSelf: ("o acerto é de um membro para ele mesmo", "the settlement is from a member to the same member",
                            "la liquidación es de un miembro a sí mismo"),
        .agreementTooLong: ("o acordo recorrente dura mais meses do que o tally acompanha",
                            "the recurring agreement runs more months than tally follows",
                            "el acuerdo recurrente dura más meses de los que tally sigue"),
    ]

    /// What a left-out row was, as the couple entered it: its description (a settlement's word when it
    /// has none), then why it does not count: `Feira de domingo: quem pagou não é membro`.
    public func leftOutLine(_ row: LeftOutRow) -> String {
        let description = row.description.split(whereSeparator: \.isNewline).joined(separator: " ")
        let what = row.kind == .settlement ? statementWord(.settlement)
            : row.kind == .agreementMonth ? "\(description) (\(statementWord(.agreement)))" : description
        return "\(what): \(leftOutReason(row.reason))"
    }
}
