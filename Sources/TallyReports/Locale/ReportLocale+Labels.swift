import TallyCore

extension ReportLocale {
    /// Every fixed piece of text a statement report shows: sheet names,
    /// column headings, headings and words. Translate with ``ReportLocale/label(_:)``.
    public enum Label: String, Sendable, Hashable, CaseIterable {
        // Sheets.
        case summarySheet, balancesSheet, transfersSheet, categoriesSheet
        // Columns.
        case coupleId, couple, period, memberId, member, displayName, currency
        case opening, paid, share, settlementsSent, settlementsReceived, closing
        case from, fromName, to, toName, amount, method, tag, shareOfTotal, couples
        // Values and words.
        case untagged, total, owes, methodExact, methodGreedy
        // Headings.
        case statementTitle, spendingByCategory
    }

    /// The text of `label` in this locale (`.balancesSheet` → `Saldos` in pt-BR).
    public func label(_ label: Label) -> String {
        switch self {
        case .ptBR: return Self.portuguese(label)
        case .enUS: return Self.english(label)
        case .esES: return Self.spanish(label)
        }
    }

    private static func portuguese(_ label: Label) -> String {
        switch label {
        case .summarySheet: return "Resumo"
        case .balancesSheet: return "Saldos"
        case .transfersSheet: return "Transferências"
        case .categoriesSheet: return "Categorias"
        case .coupleId: return "ID do casal"
        case .couple: return "Casal"
        case .period: return "Período"
        case .memberId: return "ID do membro"
        case .member: return "Membro"
        case .displayName: return "Nome"
        case .currency: return "Moeda"
        case .opening: return "Saldo inicial"
        case .paid: return "Pago"
        case .share: return "Parte"
        case .settlementsSent: return "Acertos enviados"
        case .settlementsReceived: return "Acertos recebidos"
        case .closing: return "Saldo final"
        case .from: return "De (ID)"
        case .fromName: return "De"
        case .to: return "Para (ID)"
        case .toName: return "Para"
        case .amount: return "Valor"
        case .method: return "Método"
        case .tag: return "Categoria"
        case .shareOfTotal: return "% do total"
        case .couples: return "Casais"
        case .untagged: return "Sem categoria"
        case .total: return "Total"
        case .owes: return "deve"
        case .methodExact: return "exato"
        case .methodGreedy: return "aproximado"
        case .statementTitle: return "Extrato do casal"
        case .spendingByCategory: return "Gastos por categoria"
        }
    }

    private static func english(_ label: Label) -> String {
        switch label {
        case .summarySheet: return "Summary"
        case .balancesSheet: return "Balances"
        case .transfersSheet: return "Transfers"
        case .categoriesSheet: return "Categories"
        case .coupleId: return "Couple ID"
        case .couple: return "Couple"
        case .period: return "Period"
        case .memberId: return "Member ID"
        case .member: return "Member"
        case .displayName: return "Name"
        case .currency: return "Currency"
        case .opening: return "Opening"
        case .paid: return "Paid"
        case .share: return "Share"
        case .settlementsSent: return "Settlements sent"
        case .settlementsReceived: return "Settlements received"
        case .closing: return "Closing"
        case .from: return "From (ID)"
        case .fromName: return "From"
        case .to: return "To (ID)"
        case .toName: return "To"
        case .amount: return "Amount"
        case .method: return "Method"
        case .tag: return "Category"
        case .shareOfTotal: return "% of total"
        case .couples: return "Couples"
        case .untagged: return "Untagged"
        case .total: return "Total"
        case .owes: return "owes"
        case .methodExact: return "exact"
        case .methodGreedy: return "greedy"
        case .statementTitle: return "Couple statement"
        case .spendingByCategory: return "Spending by category"
        }
    }

    private static func spanish(_ label: Label) -> String {
        switch label {
        case .summarySheet: return "Resumen"
        case .balancesSheet: return "Saldos"
        case .transfersSheet: return "Transferencias"
        case .categoriesSheet: return "Categorías"
        case .coupleId: return "ID de la pareja"
        case .couple: return "Pareja"
        case .period: return "Período"
        case .memberId: return "ID del miembro"
        case .member: return "Miembro"
        case .displayName: return "Nombre"
        case .currency: return "Moneda"
        case .opening: return "Saldo inicial"
        case .paid: return "Pagado"
        case .share: return "Parte"
        case .settlementsSent: return "Liquidaciones enviadas"
        case .settlementsReceived: return "Liquidaciones recibidas"
        case .closing: return "Saldo final"
        case .from: return "De (ID)"
        case .fromName: return "De"
        case .to: return "Para (ID)"
        case .toName: return "Para"
        case .amount: return "Importe"
        case .method: return "Método"
        case .tag: return "Categoría"
        case .shareOfTotal: return "% del total"
        case .couples: return "Parejas"
        case .untagged: return "Sin categoría"
        case .total: return "Total"
        case .owes: return "debe"
        case .methodExact: return "exacto"
        case .methodGreedy: return "aproximado"
        case .statementTitle: return "Extracto de la pareja"
        case .spendingByCategory: return "Gastos por categoría"
        }
    }

    /// The label for how transfers were found (`exato` / `aproximado`).
    public func label(for method: TransferMethod) -> String {
        switch method {
        case .exact: return label(.methodExact)
        case .greedy: return label(.methodGreedy)
        }
    }

    /// A tag as people read it, with this locale's built-in labels (``CategoryLabels``):
    /// `saude` → `Saúde`, and ``Label/untagged`` for the empty tag.
    public func tagName(_ tag: String) -> String {
        CategoryLabels(locale: self).name(tag)
    }

    /// The line that adds up the categories a sheet has no room for:
    /// `Outras 1.204 categorias`, `1,204 other categories`, `Otras 1.204 categorías`.
    public func otherCategories(_ count: Int) -> String {
        let number = formatInteger(Int64(count))
        switch self {
        case .ptBR: return "Outras \(number) categorias"
        case .enUS: return "\(number) other categories"
        case .esES: return "Otras \(number) categorías"
        }
    }

    /// The heading of a couple's statement: `Extrato do casal Ana & Bia — outubro de 2026`.
    public func statementTitle(coupleName: String, period: YearMonth) -> String {
        "\(label(.statementTitle)) \(coupleName) — \(formatMonth(period))"
    }

    /// One suggested transfer as a sentence:
    /// `Ana deve R$ 10,00 a Bia` / `Ana owes Bia $10.00` / `Ana debe 10,00 € a Bia`.
    public func owesSentence(from: String, to: String, amount: Money) -> String {
        let money = formatMoney(amount)
        switch self {
        case .ptBR: return "\(from) \(label(.owes)) \(money) a \(to)"
        case .enUS: return "\(from) \(label(.owes)) \(to) \(money)"
        case .esES: return "\(from) \(label(.owes)) \(money) a \(to)"
        }
    }
}
