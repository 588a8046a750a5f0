import TallyCore
import TallyIngest
import TallyWarehouse

/// Loaders of the `expenses/` tables (ContaCasal).
enum ExpensesLoaders {
    static let tables: [TableID: TableLoader] = [
        .couples: .keyed(decode: ExpenseDecoders.couple) { r, s, file, line in try s.insert(r, file: file, line: line) },
        .members: .keyed(decode: ExpenseDecoders.member) { r, s, file, line in try s.insert(r, file: file, line: line) },
        .cards: .keyed(decode: ExpenseDecoders.card) { r, s, file, line in try s.insert(r, file: file, line: line) },
        .fx: .keyed(keyDescription: "rate (same date, currency and base)", decode: ExpenseDecoders.fx) { r, s, file, line in
            try s.insert(r, file: file, line: line)
        },
        .agreements: .keyed(decode: ExpenseDecoders.agreement) { r, s, file, line in try s.insert(r, file: file, line: line) },
        .settlements: .keyed(decode: ExpenseDecoders.settlement) { r, s, file, line in try s.insert(r, file: file, line: line) },
        // Every version is stored; the winner per id is derived when the ingest ends.
        .expenses: .staged(stage: { f, rows throws(FieldError) in
            IngestSession.stage(try ExpenseDecoders.expenseVersion(f), line: f.line, into: &rows)
        }, store: { rows, s, file in try s.store(expenseVersions: rows, file: file) }),
    ]
}
