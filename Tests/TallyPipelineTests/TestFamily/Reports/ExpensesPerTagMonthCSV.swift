import TallyCore
import TallyReports

/// ``ExpensesPerTagMonth``'s renderer: `tags/tags.csv`, one line per tag,
/// month and currency, and one line of the terminal summary.
struct ExpensesPerTagMonthCSV: RecordsFamilyCSV {
    typealias Family = ExpensesPerTagMonth
    let folder = "tags"
    let layout = CSVLayout("tags.csv", ["tag", "month", "currency", "expenses", "amountMinor"])

    func rows(_ rows: ExpensesPerTagMonth.Rows) -> [[String]] {
        rows.amounts.keys.sorted().map { currency in
            [rows.tag, rows.month, currency, String(rows.counts[currency]!), String(rows.amounts[currency]!)]
        }
    }

    func summary(_ report: ExpensesPerTagMonth.Report) -> [String] {
        ["tags: \(report.expenses) expenses in \(report.partitions) tag-months"]
    }
}
