import TallyCore

/// The statements' lines of the terminal summary (English, whatever the
/// statements' locale): counts, then one line per currency with its
/// spending and the top three categories; the bars are in the statements.
///
/// ```
/// statements: 40 couples, 93 members, 1502 expenses, 51 suggested transfers
///   spent 48210.55 BRL; top: groceries 9120.10, rent 8000.00, dining 5210.40
/// ```
public enum StatementsSummary {
    public static func lines(_ totals: StatementTotals) -> [String] {
        var out = ["statements: \(totals.couples) couples, \(totals.members) members, \(totals.expenses) expenses, \(totals.transfers) suggested transfers"
                   + (totals.greedyStatements > 0 ? " (\(totals.greedyStatements) large groups settled greedily)" : "")]
        for currency in totals.currencies {
            let top = totals.spendingByTag(in: currency).prefix(3)
            guard !top.isEmpty else { continue }
            out.append("  spent \(Money.plain(totals.spending(in: currency), currency)) \(currency.code); top: "
                       + top.map { "\($0.tag.isEmpty ? "untagged" : $0.tag) \(Money.plain($0.amount, currency))" }.joined(separator: ", "))
        }
        return out
    }
}
