@testable import TallyCore

// Small builders that keep the tests readable.

let brl = Currency(code: "BRL")!
let usd = Currency(code: "USD")!
let eur = Currency(code: "EUR")!
let jpy = Currency(code: "JPY")!

/// A decimal from its text (`"60.5"`).
func dec(_ text: String) -> Decimal10 {
    switch Decimal10.parse(text) {
    case .success(let value): return value
    case .failure(let error): fatalError("bad decimal \(text): \(error)")
    }
}

/// A date from `YYYY-MM-DD`.
func day(_ text: String) -> LocalDate {
    guard let date = LocalDate.parse(text) else { fatalError("bad date \(text)") }
    return date
}

/// An instant from ISO 8601 text with an offset (`2026-10-03T21:15:00-03:00`).
func ts(_ text: String) -> Timestamp {
    guard case .success(let value) = Timestamp.parse(text) else { fatalError("bad timestamp \(text)") }
    return value
}

/// A month from `YYYY-MM`.
func month(_ text: String) -> YearMonth {
    guard let value = YearMonth(text) else { fatalError("bad month \(text)") }
    return value
}

/// A split rule from contract text: `rule(.shares, "m1:2;m2:1")`, `rule(.full, "m2")`.
func rule(_ type: SplitType, _ text: String = "") -> SplitRule {
    let entries = text.split(separator: ";").map { pair -> SplitEntry in
        let parts = pair.split(separator: ":", maxSplits: 1)
        return SplitEntry(memberId: String(parts[0]), value: parts.count > 1 ? dec(String(parts[1])) : nil)
    }
    return SplitRule(type: type, entries: entries)
}

func expense(_ id: String, paidBy: String, _ amount: Int64, on date: String, tag: String = "",
             split: SplitRule = .equal, agreementId: String? = nil, couple: String = "c1") -> Expense {
    Expense(id: id, coupleId: couple, paidBy: paidBy, amount: amount, date: day(date), description: "expense \(id)",
            tag: tag, agreementId: agreementId, split: split)
}

func settlement(_ id: String, from: String, to: String, _ amount: Int64, on date: String) -> Settlement {
    Settlement(id: id, coupleId: "c1", fromMember: from, toMember: to, amount: amount, date: day(date))
}

func agreement(_ id: String, paidBy: String, _ amount: Int64, currency: Currency = brl, day dayOfMonth: Int,
               from start: String, to end: String? = nil, split: SplitRule = .equal, tag: String = "rent") -> Agreement {
    Agreement(id: id, coupleId: "c1", description: "agreement \(id)", amount: amount, currency: currency,
              paidBy: paidBy, split: split, tag: tag, dayOfMonth: dayOfMonth, startDate: day(start),
              endDate: end.map(day), sourceFile: "expenses/agreements.csv", sourceLine: 7)
}

func ledger(members ids: [String] = ["m1", "m2"], currency: Currency = brl, expenses: [Expense] = [],
            settlements: [Settlement] = [], agreements: [Agreement] = []) -> CoupleLedger {
    CoupleLedger(couple: Couple(id: "c1", name: "Casa", currency: currency),
                 members: ids.map { Member(id: $0, coupleId: "c1", displayName: "Name \($0)") },
                 expenses: expenses, settlements: settlements, agreements: agreements)
}

extension CoupleStatement {
    /// The balance line of `memberId`.
    func line(_ memberId: String) -> MemberBalance? { balances.first { $0.memberId == memberId } }
}
