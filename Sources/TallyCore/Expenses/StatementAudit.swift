/// Something in a couple's month that looks like a mistake, for the
/// statement's "check these" note: nothing is changed, the couple is asked
/// to look.
public enum AuditNote: Hashable, Sendable {
    /// Two or more counted expenses of the month on the same day, paid by the
    /// same member, of the same (non-zero) amount: entered twice? `ids` and
    /// `descriptions` in date-then-id order.
    case repeatedExpense(date: LocalDate, paidBy: String, amount: Int64, ids: [String], descriptions: [String])
    /// A settlement larger than what its payer owed just before it:
    /// `owedBefore` is what `from` owed then (0 when they owed nothing or were owed).
    case settlementOverBalance(id: String, date: LocalDate, from: String, to: String, amount: Int64, owedBefore: Int64)

    /// The day the note is about.
    public var date: LocalDate {
        switch self {
        case .repeatedExpense(let date, _, _, _, _): return date
        case .settlementOverBalance(_, let date, _, _, _, _): return date
        }
    }
}

/// Finds the month's likely mistakes (``AuditNote``) from the very figures
/// the balances use.
///
/// - Repeated expenses: the month's counted expenses (real ones and
///   agreements' months) grouped by day, payer and amount; each group of two
///   or more is one note. An amount of zero is never a note.
/// - Settlements over the balance: for each settlement of the month, its
///   payer's balance just before it is the opening balance plus every
///   expense of the month dated on or before the settlement's day (paid −
///   share; an expense of the same day is taken to come first) plus the
///   settlements before it (by date, then id in byte order). A settlement of
///   more than the payer then owed is a note.
///
/// Notes come by date, repeated expenses before settlements on the same day,
/// then by id.
///
/// ```swift
/// StatementAudit.notes(memberIds: ["m1", "m2"], opening: [0, 0], expenses: month.expenses, settlements: month.settlements)
/// // [.settlementOverBalance(id: "s1", date: 2026-10-15, from: "m2", to: "m1", amount: 30000, owedBefore: 12000)]
/// ```
public enum StatementAudit {
    /// The notes of a month: `memberIds` in the order of `opening` and of each expense's shares.
    public static func notes(memberIds: [String], opening: [Int64], expenses: [ItemisedExpense],
                             settlements: [Settlement]) -> [AuditNote] {
        let lines = DateThenId.sorted(expenses) { DateThenId($0.expense.date, id: $0.expense.id) }
        var notes: [AuditNote] = []

        struct Key: Hashable {
            var date: LocalDate
            var paidBy: String
            var amount: Int64
        }
        var groups: [Key: [Expense]] = [:]
        var order: [Key] = []
        for line in lines where line.expense.amount != 0 {
            let e = line.expense
            let key = Key(date: e.date, paidBy: e.paidBy, amount: e.amount)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(e)
        }
        for key in order {
            let group = groups[key]!
            guard group.count > 1 else { continue }
            notes.append(.repeatedExpense(date: key.date, paidBy: key.paidBy, amount: key.amount,
                                          ids: group.map(\.id), descriptions: group.map(\.description)))
        }

        var index: [String: Int] = [:]
        for (i, id) in memberIds.enumerated() where index[id] == nil { index[id] = i }
        var balance = opening
        var next = 0
        for settlement in DateThenId.sorted(settlements, by: { DateThenId($0.date, id: $0.id) }) {
            // Every expense up to the settlement's day, in.
            while next < lines.count, lines[next].expense.date <= settlement.date {
                let line = lines[next]
                if let payer = index[line.expense.paidBy] { balance[payer] += line.expense.amount }
                for (i, share) in line.shares.enumerated() where i < balance.count { balance[i] -= share }
                next += 1
            }
            guard let from = index[settlement.fromMember], let to = index[settlement.toMember] else { continue }
            let owed = max(0, -balance[from])
            if settlement.amount > owed {
                notes.append(.settlementOverBalance(id: settlement.id, date: settlement.date, from: settlement.fromMember,
                                                    to: settlement.toMember, amount: settlement.amount, owedBefore: owed))
            }
            balance[from] += settlement.amount
            balance[to] -= settlement.amount
        }

        // By date; on one day, repeated expenses (already in date order) before settlements (in their order).
        return notes.enumerated().sorted { a, b in
            a.element.date != b.element.date ? a.element.date < b.element.date : a.offset < b.offset
        }.map(\.element)
    }
}
