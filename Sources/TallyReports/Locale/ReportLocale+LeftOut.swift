import TallyCore

extension ReportLocale {
    /// Why a row was rejected, in this locale, from its stable code: what a couple's statement and a
    /// leaderboard show a reader (`.amountNotDecimal` → `o valor não está escrito como 1234.56`,
    /// `.workoutTooShort` → `treino mais curto que o mínimo`).
    public func rejectReason(_ code: RejectCode) -> String {
        let words = Self.rejectWords(code)
        switch self {
        case .ptBR: return words.pt
        case .enUS: return words.en
        case .esES: return words.es
        }
    }

    // swiftlint:disable:next cyclomatic_complexity function_body_length
    private static func rejectWords(_ code: RejectCode) -> (pt: String, en: String, es: String) {
        switch code {
        case .fieldCount: ("a linha tem campos a mais ou a menos", "the row has too many or too few fields",
                           "la fila tiene campos de más o de menos")
        case .recordMalformed: ("a linha não pôde ser lida", "the row could not be read", "la fila no se pudo leer")
        case .recordTooLong: ("a linha é longa demais", "the row is too long", "la fila es demasiado larga")
        case .idEmpty: ("a linha não tem id", "the row has no id", "la fila no tiene id")
        case .fieldEmpty: ("falta um campo obrigatório", "a required field is empty", "falta un campo obligatorio")
        case .amountNotDecimal: ("o valor não está escrito como 1234.56", "the amount is not written like 1234.56",
                                 "el importe no está escrito como 1234.56")
        case .amountTooManyDecimals: ("o valor tem casas decimais demais para a moeda",
                                      "the amount has more decimals than its currency",
                                      "el importe tiene más decimales que su moneda")
        case .amountOutOfRange: ("o valor é grande demais", "the amount is too large", "el importe es demasiado grande")
        case .currencyUnknown: ("moeda desconhecida", "unknown currency", "moneda desconocida")
        case .dateInvalid: ("a data não existe ou não está como AAAA-MM-DD", "the date does not exist or is not YYYY-MM-DD",
                            "la fecha no existe o no está como AAAA-MM-DD")
        case .timestampNoOffset: ("o horário não tem fuso", "the time has no time zone", "la hora no tiene zona horaria")
        case .timestampInvalid: ("o horário não pôde ser lido", "the time could not be read", "la hora no se pudo leer")
        case .numberInvalid: ("um número não pôde ser lido", "a number could not be read", "un número no se pudo leer")
        case .numberOutOfRange: ("um número está fora do permitido", "a number is out of range", "un número está fuera de rango")
        case .valueNotAllowed: ("um valor não é um dos aceitos", "a value is not one of those accepted",
                                "un valor no es uno de los aceptados")
        case .valueNegative: ("um valor é negativo", "a value is negative", "un valor es negativo")
        case .valueNotPositive: ("o valor não é positivo", "the amount is not positive", "el importe no es positivo")
        case .fieldsEqual: ("dois campos que devem diferir são iguais", "two fields that must differ are equal",
                            "dos campos que deben diferir son iguales")
        case .endBeforeStart: ("o fim é antes do início", "the end is before the start", "el fin es antes del inicio")
        case .productIdMissing: ("falta o produto", "the product is missing", "falta el producto")
        case .splitTypeUnknown: ("tipo de divisão desconhecido", "unknown split type", "tipo de reparto desconocido")
        case .idRepeated: ("id repetido no mesmo arquivo", "id repeated in the same file", "id repetido en el mismo archivo")
        case .unknownCouple: ("casal desconhecido", "unknown couple", "pareja desconocida")
        case .unknownChallenge: ("desafio desconhecido", "unknown challenge", "reto desconocido")
        case .unknownProduct: ("produto sem preço", "product without a price", "producto sin precio")
        case .payerNotMember: ("quem pagou não é membro", "the payer is not a member", "quien pagó no es miembro")
        case .splitMemberNotMember: ("a divisão cita alguém que não é membro", "the split names someone who is not a member",
                                     "el reparto nombra a alguien que no es miembro")
        case .splitPercentagesNot100: ("as porcentagens da divisão não somam 100", "the split's percentages do not add up to 100",
                                       "los porcentajes del reparto no suman 100")
        case .splitExactNotAmount: ("os valores da divisão não somam o valor da despesa",
                                    "the split's amounts do not add up to the expense",
                                    "los importes del reparto no suman el importe del gasto")
        case .splitInvalid: ("a divisão não pode ser aplicada", "the split cannot be applied", "el reparto no se puede aplicar")
        case .noFxRate: ("sem câmbio para a moeda nessa data", "no exchange rate for its currency on that date",
                         "sin tipo de cambio para su moneda en esa fecha")
        case .coupleTotalOverLimit: ("o total passa do limite que o tally acompanha", "the total passes the limit tally follows",
                                     "el total supera el límite que tally sigue")
        case .settlementPartyNotMember: ("o acerto cita alguém que não é membro", "the settlement names someone who is not a member",
                                         "la liquidación nombra a alguien que no es miembro")
        case .settlementToSelf: ("o acerto é de um membro para ele mesmo", "the settlement is from a member to the same member",
                                 "la liquidación es de un miembro a sí mismo")
        case .agreementTooLong: ("o acordo recorrente dura mais meses do que o tally acompanha",
                                 "the recurring agreement runs more months than tally follows",
                                 "el acuerdo recurrente dura más meses de los que tally sigue")
        case .checkinWrongGroup: ("check-in de outro grupo", "check-in from another group", "check-in de otro grupo")
        case .checkinNoPhoto: ("check-in sem foto", "check-in without a photo", "check-in sin foto")
        case .workoutTooShort: ("treino mais curto que o mínimo", "workout shorter than the minimum",
                                "entrenamiento más corto que el mínimo")
        case .checkinNotMember: ("não era membro do grupo nesse momento", "not a member of the group at the time",
                                 "no era miembro del grupo en ese momento")
        case .checkinOutsideDates: ("fora das datas do desafio", "outside the challenge's dates", "fuera de las fechas del reto")
        case .checkinDuplicateWorkout: ("treino já usado em outro check-in", "workout already used by another check-in",
                                        "entrenamiento ya usado en otro check-in")
        case .fileRefused: ("o arquivo não pôde ser lido", "the file could not be read", "el archivo no se pudo leer")
        case .unclassified: ("linha recusada", "row refused", "fila rechazada")
        }
    }

    /// What a left-out row was, as the couple entered it: its description (a settlement's word when it
    /// has none), then why it does not count: `Feira de domingo: quem pagou não é membro`.
    public func leftOutLine(_ row: LeftOutRow) -> String {
        let description = TextLines.oneLine(row.description)
        let what = row.kind == .settlement ? statementWord(.settlement)
            : row.kind == .agreementMonth ? "\(description) (\(statementWord(.agreement)))" : description
        return "\(what): \(rejectReason(row.reason))"
    }

    /// What a row that could not be read was, as written, then why, from its code:
    /// `Mercado: o valor não está escrito como 1234.56` (a settlement's word, or "sem descrição", when it has none).
    public func refusedLine(_ row: RefusedRow) -> String {
        let description = TextLines.oneLine(row.written.description ?? "")
        let what = row.kind == .settlement ? statementWord(.settlement)
            : description.isEmpty ? statementWord(.noDescription) : description
        return "\(what): \(rejectReason(row.reason))"
    }

    /// A refused row's amount as written, with its currency as written (`73,73 BRL`), or `—` when it wrote none.
    public func refusedAmount(_ row: RefusedRow) -> String {
        let parts = [row.written.amount, row.written.currency].compactMap { $0 }
        return parts.isEmpty ? "—" : parts.joined(separator: " ")
    }

    /// A not-counted row's date, in this locale (``refusedDate(_:)`` for a row that could not be read).
    public func notCountedDate(_ row: NotCountedRow) -> String {
        switch row {
        case .leftOut(let left): formatDate(left.date)
        case .refused(let refused): refusedDate(refused)
        }
    }

    /// A not-counted row's amount: in its currency, or as written for a row that could not be read.
    public func notCountedAmount(_ row: NotCountedRow) -> String {
        switch row {
        case .leftOut(let left): formatMoney(minor: left.amount, currency: left.currency)
        case .refused(let refused): refusedAmount(refused)
        }
    }

    /// What a not-counted row was and why (``leftOutLine(_:)``, ``refusedLine(_:)``).
    public func notCountedLine(_ row: NotCountedRow) -> String {
        switch row {
        case .leftOut(let left): leftOutLine(left)
        case .refused(let refused): refusedLine(refused)
        }
    }

    /// A refused row's date: in this locale when it reads as one, else the words for an unreadable date
    /// and the date as written (`data ilegível: 2026-09-31`; `data ilegível` when it wrote none).
    public func refusedDate(_ row: RefusedRow) -> String {
        if let date = row.date { return formatDate(date) }
        return [statementWord(.unreadableDate), row.written.date].compactMap { $0 }.joined(separator: ": ")
    }
}
