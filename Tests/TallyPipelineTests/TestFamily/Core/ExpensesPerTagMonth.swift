import TallyCore

/// A report family defined outside tally's modules, to show what adding one
/// takes: live expenses (their winning version, neither deleted nor failed)
/// counted and summed per tag and month, one partition per (tag, month).
/// An expense of a couple tally does not know counts here too: the family
/// reads expenses, not statements.
///
/// ```swift
/// families.register(ExpensesPerTagMonth(), renderer: ExpensesPerTagMonthCSV())
/// ```
struct ExpensesPerTagMonth: RecordsFamily {
    /// One tag's month: per currency, its expenses and their sum (minor units).
    struct Rows: Codable, Sendable, Equatable {
        var tag: String
        var month: String
        var counts: [String: Int]
        var amounts: [String: Int64]
    }

    struct Summary: Mergeable, Codable {
        var partitions = 0
        var expenses = 0

        mutating func merge(_ other: Summary) {
            partitions += other.partitions
            expenses += other.expenses
        }
    }

    struct Report: Sendable, Equatable {
        var partitions: Int
        var expenses: Int
    }

    var name: String { "tags" }

    /// The family's rule: a live, valid expense counts under its tag and its date's month.
    func partitionKey(of record: CoupleRows.WinningExpense) -> PartitionKey? {
        guard !record.deleted, record.error == nil, let fact = record.fact else { return nil }
        return PartitionKey([fact.tag, fact.date.yearMonth.description])
    }

    func compute(_ partition: RecordGroup<CoupleRows.WinningExpense>) -> PartitionResult<Rows, Summary> {
        let facts = partition.records.compactMap(\.fact)
        var counts: [String: Int] = [:]
        var amounts: [String: Int64] = [:]
        for fact in facts {
            counts[fact.currency.code, default: 0] += 1
            amounts[fact.currency.code, default: 0] += fact.amount
        }
        let rows = Rows(tag: facts.first?.tag ?? "", month: facts.first?.date.yearMonth.description ?? "",
                        counts: counts, amounts: amounts)
        return PartitionResult(key: partition.key, rows: rows, summary: Summary(partitions: 1, expenses: facts.count))
    }

    func emptySummary() -> Summary { Summary() }

    func finalise(_ summary: Summary) -> Report { Report(partitions: summary.partitions, expenses: summary.expenses) }
}
