import TallyCore
import TallyIngest
import TallyWarehouse

/// Loaders of the `expenses/` tables (ContaCasal).
enum ExpensesLoaders {
    static let tables: [TableID: TableLoader] = [
        .couples: TableLoader { f, s, file in try s.insert(ExpenseDecoders.couple(f), file: file, line: f.line) },
        .members: TableLoader { f, s, file in try s.insert(ExpenseDecoders.member(f), file: file, line: f.line) },
        .cards: TableLoader { f, s, file in try s.insert(ExpenseDecoders.card(f), file: file, line: f.line) },
        .fx: TableLoader(store: { f, s, file in try s.insert(ExpenseDecoders.fx(f), file: file, line: f.line) },
                         keyDescription: "rate (same date, currency and base)"),
        .agreements: TableLoader { f, s, file in try s.insert(ExpenseDecoders.agreement(f), file: file, line: f.line) },
        .settlements: TableLoader { f, s, file in try s.insert(ExpenseDecoders.settlement(f), file: file, line: f.line) },
        // Every version is stored; the winner per id is derived when the ingest ends.
        .expenses: .staged(stage: { f, rows throws(FieldError) in
            IngestSession.stage(try ExpenseDecoders.expenseVersion(f), line: f.line, into: &rows)
        }, store: { rows, s, file in try s.store(expenseVersions: rows, file: file) }),
    ]
}
