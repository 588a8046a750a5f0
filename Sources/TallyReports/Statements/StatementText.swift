import TallyCore

/// Renders one couple's monthly statement as text (`statements/<coupleId>.txt`):
/// balances table, suggested transfers as sentences, spending by category as
/// bars, and the spending trend as a sparkline; in the configured locale.
public enum StatementText {
    public static func render(_ s: CoupleStatement, locale: ReportLocale) -> String {
        let w = { (word: ReportLocale.StatementWord) in locale.statementWord(word) }
        let money = { (minor: Int64) in locale.formatMoney(minor: minor, currency: s.couple.currency) }
        var out: [String] = []
        let title = locale.statementTitle(spaceName: s.couple.name.isEmpty ? s.couple.id : s.couple.name,
                                          members: s.balances.count, period: s.period)
        out.append(title)
        out.append(String(repeating: "═", count: DisplayWidth.of(title)))
        out.append("\(locale.label(.currency)): \(s.couple.currency.code) · \(w(.expenseCount)): \(s.expenseCount)")
        out.append("")

        // Balances.
        out.append(locale.label(.balancesSheet))
        let headers = [locale.label(.member), locale.label(.opening), locale.label(.paid), locale.label(.share),
                       locale.label(.settlementsSent), locale.label(.settlementsReceived), locale.label(.closing)]
        var rows = [headers]
        for b in s.balances {
            rows.append([b.displayName, money(b.opening), money(b.paid), money(b.share), money(b.settlementsSent),
                         money(b.settlementsReceived), money(b.closing)])
        }
        out += table(rows)
        out.append("")

        // Transfers.
        out.append(w(.suggestedTransfers))
        let names = Dictionary(uniqueKeysWithValues: s.balances.map { ($0.memberId, $0.displayName) })
        if s.transfers.isEmpty {
            out.append("  " + w(.allSettled))
        } else {
            for t in s.transfers {
                out.append("  " + locale.owesSentence(from: names[t.from] ?? t.from, to: names[t.to] ?? t.to,
                                                      amount: Money(minor: t.amount, currency: s.couple.currency)))
            }
            if s.method == .greedy { out.append("  (\(w(.greedyNote)))") }
        }
        out.append("")

        // Spending by category.
        out.append(locale.label(.spendingByCategory))
        if s.categories.isEmpty {
            out.append("  " + w(.noSpending))
        } else {
            let bars = s.categories.map {
                TextChart.Bar(label: locale.tagName($0.tag), value: Double($0.amount), shown: money($0.amount))
            }
            out += TextChart.bars(bars).map { "  " + $0 }
            for c in s.categories where c.shareByMember.values.contains(where: { $0 != 0 }) && s.balances.count > 1 {
                let parts = s.balances.map { "\($0.displayName) \(money(c.shareByMember[$0.memberId] ?? 0))" }
                out.append("    \(locale.tagName(c.tag)): " + parts.joined(separator: " · "))
            }
        }
        out.append("")

        // Trend.
        if let first = s.trend.first, let last = s.trend.last {
            let spark = TextChart.sparkline(s.trend.map { Double($0.amount) })
            out.append("\(w(.trend)) (\(locale.formatShortMonth(first.month)) – \(locale.formatShortMonth(last.month))): \(spark)  "
                       + s.trend.map { money($0.amount) }.joined(separator: " · "))
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// Columns padded to their widest cell; the first column left-aligned, the rest right-aligned.
    static func table(_ rows: [[String]]) -> [String] {
        guard let first = rows.first else { return [] }
        let widths = (0..<first.count).map { c in rows.map { DisplayWidth.of($0[c]) }.max() ?? 0 }
        return rows.enumerated().flatMap { index, row -> [String] in
            let line = row.enumerated().map { c, cell in
                c == 0 ? TextChart.pad(cell, widths[c]) : TextChart.padLeft(cell, widths[c])
            }.joined(separator: "  ")
            let text = "  " + line
            return index == 0 ? [text, "  " + String(repeating: "─", count: DisplayWidth.of(line))] : [text]
        }
    }
}
