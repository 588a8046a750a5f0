import TallyCore

/// Renders one couple's monthly statement as text (`statements/<coupleId>.txt`):
/// who owes whom as sentences first (with what a balance's sign means and the
/// month's net per member), the month's rows that did not count and why, what
/// is worth checking (``AuditNote``), the balances table, spending by category
/// as bars (categories named by ``CategoryLabels``), the spending trend as a
/// sparkline scaled from zero, the recurring agreements in force with their
/// next date and what remains, the month's exchange rates with the date of each
/// rate, and (for a statement built with `itemised: true`) every expense of the
/// month with its payer and split, then the settlements; in the configured locale.
///
/// ```swift
/// let text = StatementText.render(statement, locale: .ptBR)
/// // "Extrato do casal Ana & Bia — outubro de 2026\n…\nQuem deve a quem\n  Bia deve R$ 10,00 a Ana\n…"
/// ```
public enum StatementText {
    /// `s` as text in `locale`, its categories named by `categories` (the locale's built-in labels when nil).
    public static func render(_ s: CoupleStatement, locale: ReportLocale, categories: CategoryLabels? = nil) -> String {
        String(decoding: renderUTF8(s, locale: locale, categories: categories), as: UTF8.self)
    }

    /// ``render(_:locale:categories:)``'s text as UTF-8 bytes, as the couple's file holds it.
    public static func renderUTF8(_ s: CoupleStatement, locale: ReportLocale, categories: CategoryLabels? = nil) -> [UInt8] {
        let labels = categories ?? CategoryLabels(locale: locale)
        let w = { (word: ReportLocale.StatementWord) in locale.statementWord(word) }
        let money = { (minor: Int64) in locale.formatMoney(minor: minor, currency: s.couple.currency) }
        // One buffer of bytes, each line appended with its newline
        // (``TextBuffer``): a statement is rendered per couple.
        var out = TextBuffer(capacity: 4096)
        func line(_ text: String) { out.line(text) }
        func indented(_ text: String) {
            out.append("  ")
            out.line(text)
        }
        let title = locale.statementTitle(spaceName: s.couple.name.isEmpty ? s.couple.id : s.couple.name,
                                          members: s.balances.count, period: s.period)
        line(title)
        out.line(run: "═", count: DisplayWidth.of(title))
        var facts = "\(locale.label(.currency)): \(s.couple.currency.code) · \(w(.expenseCount)): \(s.expenseCount)"
        if s.notCounted > 0 { facts += " · \(w(.leftOutCount)): \(s.notCounted)" }
        line(facts)
        line("")

        // Who owes whom first, in words; what the sign of a balance means; the month's net per member.
        line(w(.whoOwesWhom))
        for sentence in locale.owesLines(s) { indented(sentence) }
        if s.method == .greedy, !s.transfers.isEmpty { indented("(\(w(.greedyNote)))") }
        indented(w(.balanceSign))
        line("")
        var nets = [[locale.label(.member), w(.monthNet)]]
        for b in s.balances {
            let net = b.paid - b.share
            nets.append([b.displayName, (net > 0 ? "+" : "") + money(net)])
        }
        appendTable(nets, to: &out)
        line("")

        // What did not count: each row with its date, amount as entered (as written, for a row that
        // could not be read), and why.
        if s.notCounted > 0 {
            line(w(.leftOut))
            indented(w(.leftOutNote))
            let rows = s.notCountedRows
            let dates = rows.map(locale.notCountedDate)
            let amounts = rows.map(locale.notCountedAmount)
            let lines = rows.map(locale.notCountedLine)
            let dateWidth = dates.map(DisplayWidth.of).max() ?? 0
            let amountWidth = amounts.map(DisplayWidth.of).max() ?? 0
            for i in lines.indices {
                out.append("  ")
                out.append(dates[i])
                out.append(spaces: dateWidth - DisplayWidth.of(dates[i]) + 2)
                out.append(spaces: amountWidth - DisplayWidth.of(amounts[i]))
                out.append(amounts[i])
                out.append("  ")
                out.line(lines[i])
            }
            line("")
        }

        // What looks like a mistake, to check.
        if !s.auditNotes.isEmpty {
            let names = Dictionary(s.balances.map { ($0.memberId, $0.displayName) }, uniquingKeysWith: { a, _ in a })
            line(w(.checkThese))
            indented(w(.checkTheseNote))
            for note in s.auditNotes { indented(locale.auditSentence(note, currency: s.couple.currency, names: names)) }
            line("")
        }

        // Opening balances that differ from the closing balances sent the month before, and why.
        if let restated = s.restated {
            line(locale.restatedHeading)
            indented(locale.restatedNote(restated.month))
            var rows = [locale.restatedHeadings(restated.month)]
            for b in restated.balances {
                rows.append([b.displayName, money(b.published), money(b.now), (b.difference > 0 ? "+" : "") + money(b.difference)])
            }
            appendTable(rows, to: &out)
            line("")
            if restated.rows.isEmpty {
                indented(locale.restatedNoRows)
            } else {
                indented(locale.restatedRowsHeading)
                appendTable([locale.restatedRowHeadings] + restated.rows.map(locale.restatedRowCells), to: &out, rightAligned: [4])
            }
            line("")
        }

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

        // Spending by category.
        line(locale.label(.spendingByCategory))
        if s.categories.isEmpty {
            indented(w(.noSpending))
        } else {
            let bars = s.categories.map {
                TextChart.Bar(label: labels.name($0.tag), value: Double($0.amount), shown: money($0.amount))
            }
            for bar in TextChart.bars(bars) { indented(bar) }
            for c in s.categories where c.shareByMember.values.contains(where: { $0 != 0 }) && s.balances.count > 1 {
                out.append("    ")
                out.append(labels.name(c.tag))
                out.append(": ")
                for (i, b) in s.balances.enumerated() {
                    if i > 0 { out.append(" · ") }
                    out.append(b.displayName)
                    out.append(" ")
                    out.append(money(c.shareByMember[b.memberId] ?? 0))
                }
                out.newline()
            }
        }
        line("")

        // Trend, scaled from zero: a month of 66% of the largest draws about two thirds high.
        if let first = s.trend.first, let last = s.trend.last {
            let amounts = s.trend.map { Double($0.amount) }
            let spark = TextChart.sparkline(amounts, range: 0...max(amounts.max() ?? 0, 1))
            line("\(w(.trend)) (\(locale.formatShortMonth(first.month)) – \(locale.formatShortMonth(last.month))): \(spark)  "
                 + s.trend.map { money($0.amount) }.joined(separator: " · "))
        }

        // The agreements in force: what comes next and what remains.
        if !s.agreementsInForce.isEmpty {
            let names = Dictionary(s.balances.map { ($0.memberId, $0.displayName) }, uniquingKeysWith: { a, _ in a })
            let memberIds = s.balances.map(\.memberId)
            line("")
            line(w(.agreementsInForce))
            // What remains only when some agreement has an end date.
            let ends = s.agreementsInForce.contains { $0.remainingOccurrences != nil }
            var rows = [[w(.description), locale.label(.amount), w(.paidBy), w(.split), w(.nextDate), w(.endDate)]
                        + (ends ? [w(.remaining), w(.remainingAmount)] : [])]
            for item in s.agreementsInForce {
                let a = item.agreement
                rows.append([TextLines.oneLine(a.description),
                             locale.formatMoney(minor: a.amount, currency: a.currency), names[a.paidBy] ?? a.paidBy,
                             locale.splitWords(a.split, memberIds: memberIds, names: names), locale.agreementNext(item),
                             locale.agreementEnd(item)]
                            + (ends ? [item.remainingOccurrences.map { locale.formatInteger(Int64($0)) } ?? "",
                                       item.remainingAmount.map { locale.formatMoney(minor: $0, currency: a.currency) } ?? ""] : []))
            }
            appendTable(rows, to: &out, rightAligned: [1, 6, 7])
        }

        // The month's exchange rates: each rate with the date of its fx row.
        if !s.conversions.isEmpty {
            line("")
            line(w(.exchangeRates))
            indented(w(.exchangeRatesNote))
            var rows = [[locale.label(.currency), w(.originalAmount), w(.rate), w(.rateDate), w(.expensesColumn), w(.convertedAmount)]]
            for c in s.conversions {
                for use in c.rates {
                    rows.append([c.currency.code, locale.formatMoney(minor: use.original, currency: c.currency), locale.formatRate(use.rate),
                                 locale.formatDate(use.rateDate), locale.formatInteger(Int64(use.count)), money(use.converted)])
                }
                if c.rates.count > 1 {
                    rows.append(["\(locale.label(.total)) \(c.currency.code)", locale.formatMoney(minor: c.original, currency: c.currency),
                                 "", "", locale.formatInteger(Int64(c.count)), money(c.converted)])
                }
            }
            appendTable(rows, to: &out, rightAligned: [1, 2, 4, 5])
        }

        // The month line by line (a statement built with `itemised: true`): every expense, then the settlements.
        if let month = s.itemised {
            let names = Dictionary(s.balances.map { ($0.memberId, $0.displayName) }, uniquingKeysWith: { a, _ in a })
            let memberIds = s.balances.map(\.memberId)
            line("")
            line(w(.monthExpenses))
            if month.expenses.isEmpty {
                indented(w(.noExpenses))
            } else {
                var rows = [[w(.date), w(.description), locale.label(.amount), w(.paidBy), w(.split)]]
                for item in month.expenses {
                    let e = item.expense
                    var description = TextLines.oneLine(e.description)
                    if item.isRefund { description += " (\(w(.refund)))" }
                    rows.append([locale.formatDate(e.date), description, money(e.amount), names[e.paidBy] ?? e.paidBy,
                                 locale.splitWords(e.split, memberIds: memberIds, names: names)])
                }
                appendTable(rows, to: &out, rightAligned: [2])
            }
            line("")
            line(w(.settlements))
            if month.settlements.isEmpty {
                indented(w(.noSettlements))
            } else {
                var rows = [[w(.date), w(.fromMember), w(.toMember), locale.label(.amount)]]
                for t in month.settlements {
                    rows.append([locale.formatDate(t.date), names[t.fromMember] ?? t.fromMember, names[t.toMember] ?? t.toMember,
                                 money(t.amount)])
                }
                appendTable(rows, to: &out, rightAligned: [3])
            }
        }
        return out.bytes
    }

    /// Appends `rows` as lines (each with its newline), indented two spaces,
    /// columns padded to their widest cell and two spaces apart: the columns
    /// in `rightAligned` right-aligned (all but the first unless given), the
    /// others left-aligned; the first row is the header, underlined as wide as
    /// the table. Every row has the header's cells; no line ends in spaces.
    static func appendTable(_ rows: [[String]], to out: inout TextBuffer, rightAligned: [Int]? = nil) {
        guard let first = rows.first else { return }
        let columns = first.count
        let right = (0..<columns).map { rightAligned?.contains($0) ?? ($0 > 0) }
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
        for (r, row) in rows.enumerated() {
            out.append("  ")
            for c in 0..<columns {
                let pad = widths[c] - cellWidths[r * columns + c]
                if c > 0 { out.append("  ") }
                if right[c] {
                    out.append(spaces: pad)
                    out.append(row[c])
                } else {
                    out.append(row[c])
                    out.append(spaces: pad)
                }
            }
            // Padding after the last cell, or empty right-aligned cells at the end, leave spaces.
            out.dropTrailingSpaces()
            out.newline()
            if r == 0 {
                out.append("  ")
                out.line(run: "─", count: widths.reduce(0, +) + 2 * (columns - 1))
            }
        }
    }
}
