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

        // Lines are in date order, so a day's lines are together: each day
        // of two or more lines has its positions sorted by amount, payer and
        // position, and each run of one amount and payer is a group. Groups
        // are noted in the order of their first line.
        var groups: [ArraySlice<Int>] = []
        var dayStart = 0
        while dayStart < lines.count {
            var dayEnd = dayStart + 1
            while dayEnd < lines.count, lines[dayEnd].expense.date == lines[dayStart].expense.date { dayEnd += 1 }
            if dayEnd - dayStart > 1 {
                let positions = (dayStart..<dayEnd).filter { lines[$0].expense.amount != 0 }.sorted { a, b in
                    let x = lines[a].expense, y = lines[b].expense
                    if x.amount != y.amount { return x.amount < y.amount }
                    if x.paidBy != y.paidBy { return ByteOrder.precedes(x.paidBy, y.paidBy) }
                    return a < b
                }
                var first = 0
                while first < positions.count {
                    let e = lines[positions[first]].expense
                    var end = first + 1
                    while end < positions.count, lines[positions[end]].expense.amount == e.amount,
                          lines[positions[end]].expense.paidBy == e.paidBy { end += 1 }
                    if end - first > 1 { groups.append(positions[first..<end]) }
                    first = end
                }
            }
            dayStart = dayEnd
        }
        for group in groups.sorted(by: { $0.first! < $1.first! }) {
            let e = lines[group.first!].expense
            notes.append(.repeatedExpense(date: e.date, paidBy: e.paidBy, amount: e.amount,
                                          ids: group.map { lines[$0].expense.id },
                                          descriptions: group.map { lines[$0].expense.description }))
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
