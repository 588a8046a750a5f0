import TallyCore

extension ReportLocale {
    /// The heading of a restated opening (``RestatedOpening``): `Saldo de abertura revisto`.
    public var restatedHeading: String {
        switch self {
        case .ptBR: return "Saldo de abertura revisto"
        case .enUS: return "Opening balance restated"
        case .esES: return "Saldo inicial revisado"
        }
    }

    /// Why the opening balances differ from what was sent: `O extrato de setembro de 2026 foi enviado com …`.
    public func restatedNote(_ month: YearMonth) -> String {
        let sent = formatMonth(month)
        switch self {
        case .ptBR: return "O extrato de \(sent) foi enviado com outros saldos finais: linhas de antes deste mês chegaram, mudaram ou saíram depois."
        case .enUS: return "The \(sent) statement was sent with other closing balances: rows dated before this month arrived, changed or went away since."
        case .esES: return "El extracto de \(sent) se envió con otros saldos finales: filas anteriores a este mes llegaron, cambiaron o se fueron después."
        }
    }

    /// The balance table's headings: member, as sent at the end of `month`, now, difference.
    public func restatedHeadings(_ month: YearMonth) -> [String] {
        let sent = formatShortMonth(month)
        switch self {
        case .ptBR: return [label(.member), "Enviado (\(sent))", "Agora", "Diferença"]
        case .enUS: return [label(.member), "As sent (\(sent))", "Now", "Difference"]
        case .esES: return [label(.member), "Enviado (\(sent))", "Ahora", "Diferencia"]
        }
    }

    /// The heading of the rows delivered since: `Linhas entregues depois do envio`.
    public var restatedRowsHeading: String {
        switch self {
        case .ptBR: return "Linhas de antes deste mês entregues depois do envio"
        case .enUS: return "Rows dated before this month delivered since"
        case .esES: return "Filas anteriores a este mes entregadas después del envío"
        }
    }

    /// Said when no row of the couple dated before the month was delivered since.
    public var restatedNoRows: String {
        switch self {
        case .ptBR: return "Nenhuma despesa, acerto ou acordo do casal de antes deste mês chegou ou mudou depois: mudou um câmbio ou um membro, ou um arquivo foi retirado."
        case .enUS: return "No expense, settlement or agreement of the couple dated before this month arrived or changed since: an exchange rate or a member changed, or a file was withdrawn."
        case .esES: return "No llegó ni cambió después ningún gasto, pago ni acuerdo de la pareja anterior a este mes: cambió un tipo de cambio o un miembro, o se retiró un archivo."
        }
    }

    /// What a delivered row is: `despesa`, `despesa apagada`, `acerto`, `acordo recorrente`.
    public func restatedKind(_ kind: RestatedOpening.Row.Kind) -> String {
        switch (kind, self) {
        case (.expense, .ptBR): return "despesa"
        case (.expense, .enUS): return "expense"
        case (.expense, .esES): return "gasto"
        case (.deletion, .ptBR): return "despesa apagada"
        case (.deletion, .enUS): return "expense deleted"
        case (.deletion, .esES): return "gasto eliminado"
        case (.settlement, _): return statementWord(.settlement).lowercased()
        case (.agreement, _): return statementWord(.agreement).lowercased()
        }
    }

    /// The rows table's headings: date, what, id, description, amount, file.
    public var restatedRowHeadings: [String] {
        [statementWord(.date), restatedWhat, "id", statementWord(.description), label(.amount), restatedFile]
    }

    private var restatedWhat: String {
        switch self {
        case .ptBR: return "O quê"
        case .enUS: return "What"
        case .esES: return "Qué"
        }
    }

    private var restatedFile: String {
        switch self {
        case .ptBR: return "Arquivo"
        case .enUS: return "File"
        case .esES: return "Archivo"
        }
    }

    /// One delivered row's cells, as ``restatedRowHeadings`` names them.
    public func restatedRowCells(_ row: RestatedOpening.Row) -> [String] {
        [row.date.map(formatDate) ?? "", restatedKind(row.kind), row.id, TextLines.oneLine(row.description),
         row.amount.flatMap { amount in row.currency.map { formatMoney(minor: amount, currency: $0) } } ?? "",
         "\(row.source.file):\(row.source.line)"]
    }
}
