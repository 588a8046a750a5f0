/// The reconciliation of one couple's statement: its members' closing
/// balances sum to zero, and applying the suggested transfers brings every
/// balance to zero. A statement that fails either is named, with its
/// figures, in the run's check "statements: nets sum to zero and transfers
/// settle them".
///
/// ```swift
/// StatementReconciliation.problem(statement)   // nil when it adds up
/// // "couple c1: closing balances sum to 3.00 BRL, not 0 (m1 5.00, m2 -2.00)"
/// ```
public enum StatementReconciliation {
    /// What does not add up in `statement`, or nil.
    public static func problem(_ statement: CoupleStatement) -> String? {
        let code = statement.couple.currency
        let id = statement.couple.id
        let sum = statement.balances.reduce(Int128(0)) { $0 + Int128($1.closing) }
        if sum != 0 {
            let nets = statement.balances.map { "\($0.memberId) \(Money.plain($0.closing, code))" }
            let total = Int64(exactly: sum).map { Money.plain($0, code) } ?? "\(sum) minor units of"
            return "couple \(id): closing balances sum to \(total) \(code.code), not 0 (\(nets.joined(separator: ", ")))"
        }
        var balance: [String: Int128] = [:]
        for line in statement.balances { balance[line.memberId, default: 0] += Int128(line.closing) }
        for t in statement.transfers {
            balance[t.from, default: 0] += Int128(t.amount)
            balance[t.to, default: 0] -= Int128(t.amount)
        }
        let left = balance.filter { $0.value != 0 }.sorted { ByteOrder.precedes($0.key, $1.key) }
        guard left.isEmpty else {
            let shown = left.map { "\($0.key) \(Money.plain(Int64(clamping: $0.value), code))" }
            return "couple \(id): the suggested transfers leave \(shown.joined(separator: ", ")) \(code.code) unsettled"
        }
        return nil
    }
}
