import TallyCore

/// Renders one couple's monthly statement as text (`statements/<coupleId>.txt`):
/// balances table, suggested transfers as sentences, spending by category as
/// bars, and the spending trend as a sparkline; in the configured locale.
public enum StatementText {
    public static func render(_ s: CoupleStatement, locale: ReportLocale) -> String {
        let w = { (word: ReportLocale.StatementWord) in locale.statementWord(word) }
        let money = { (minor: Int64) in locale.formatMoney(minor: minor, currency: s.couple.currency) }
        // One string, each line appended with its newline: a statement is
        // rendered per couple, and lines gathered then joined cost an array
        // and a copy of every line.
        var out = ""
        out.reserveCapacity(1024)
        func line(_ text: String) {
            out += text
            out += "\n"
        }
        let title = locale.statementTitle(spaceName: s.couple.name.isEmpty ? s.couple.id : s.couple.name,
                                          members: s.balances.count, period: s.period)
        line(title)
        line(String(repeating: "═", count: DisplayWidth.of(title)))
        line("\(locale.label(.currency)): \(s.couple.currency.code) · \(w(.expenseCount)): \(s.expenseCount)")
        line("")

        // Balances.
        line(locale.label(.balancesSheet))
        let headers = [locale.label(.member), locale.label(.opening), locale.label(.paid), locale.label(.share),
                       locale.label(.settlementsSent), locale.label(.settlementsReceived), locale.label(.closing)]
        var rows = [headers]
        for b in s.balances {
            rows.append([b.displayName, money(b.opening), money(b.paid), money(b.share), money(b.settlementsSent),
                         money(b.settlementsReceived), money(b.closing)])
        }
        appendTable(rows, to: &out)
        line("")

        // Transfers.
        line(w(.suggestedTransfers))
        let names = Dictionary(uniqueKeysWithValues: s.balances.map { ($0.memberId, $0.displayName) })
        if s.transfers.isEmpty {
            line("  " + w(.allSettled))
        } else {
            for t in s.transfers {
                line("  " + locale.owesSentence(from: names[t.from] ?? t.from, to: names[t.to] ?? t.to,
                                                amount: Money(minor: t.amount, currency: s.couple.currency)))
            }
            if s.method == .greedy { line("  (\(w(.greedyNote)))") }
        }
        line("")

        // Spending by category.
        line(locale.label(.spendingByCategory))
        if s.categories.isEmpty {
            line("  " + w(.noSpending))
        } else {
            let bars = s.categories.map {
                TextChart.Bar(label: locale.tagName($0.tag), value: Double($0.amount), shown: money($0.amount))
            }
            for bar in TextChart.bars(bars) { line("  " + bar) }
            for c in s.categories where c.shareByMember.values.contains(where: { $0 != 0 }) && s.balances.count > 1 {
                let parts = s.balances.map { "\($0.displayName) \(money(c.shareByMember[$0.memberId] ?? 0))" }
                line("    \(locale.tagName(c.tag)): " + parts.joined(separator: " · "))
            }
        }
        line("")

        // Trend.
        if let first = s.trend.first, let last = s.trend.last {
            let spark = TextChart.sparkline(s.trend.map { Double($0.amount) })
            line("\(w(.trend)) (\(locale.formatShortMonth(first.month)) – \(locale.formatShortMonth(last.month))): \(spark)  "
                 + s.trend.map { money($0.amount) }.joined(separator: " · "))
        }
        return out
    }

    /// Appends `rows` as lines (each with its newline), indented two spaces,
    /// columns padded to their widest cell and two spaces apart: the first
    /// column left-aligned, the rest right-aligned; the first row is the
    /// header, underlined as wide as the table. Every row has the header's cells.
    static func appendTable(_ rows: [[String]], to out: inout String) {
        guard let first = rows.first else { return }
        let columns = first.count
        var widths = [Int](repeating: 0, count: columns)
        var cellWidths: [Int] = []
        cellWidths.reserveCapacity(rows.count * columns)
        for row in rows {
            for c in 0..<columns {
                let width = DisplayWidth.of(row[c])
                cellWidths.append(width)
                widths[c] = max(widths[c], width)
            }
        }
        func spaces(_ count: Int) {
            var left = count
            while left > 0 {
                let run = min(left, blanks.count)
                out.append(contentsOf: blanks.prefix(run))
                left -= run
            }
        }
        for (r, row) in rows.enumerated() {
            out += "  "
            for c in 0..<columns {
                let pad = widths[c] - cellWidths[r * columns + c]
                if c == 0 {
                    out += row[c]
                    spaces(pad)
                } else {
                    out += "  "
                    spaces(pad)
                    out += row[c]
                }
            }
            out += "\n"
            if r == 0 {
                out += "  "
                out += String(repeating: "─", count: widths.reduce(0, +) + 2 * (columns - 1))
                out += "\n"
            }
        }
    }

    /// Spaces for padding, appended a slice at a time.
    private static let blanks = String(repeating: " ", count: 64)
}
