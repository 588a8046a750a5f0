/// Suggests the payments that settle a couple's closing balances.
///
/// The fewest transfers that zero n non-zero balances is n − g, where g is the
/// largest number of disjoint groups of members whose balances each sum to
/// zero: each group settles with (its size − 1) transfers and no group can do
/// with fewer. Finding g is a subset search (O(2ⁿ·n)), exact up to
/// `exactLimit` non-zero members; beyond it the planner falls back to greedy
/// matching (largest debtor pays largest creditor), which may use more.
///
/// The output depends only on the balances, never on their order: members
/// are taken in id byte order, ties broken by id, and transfers are returned
/// sorted by payer then payee id.
public enum SettlementPlanner {
    /// The transfers that zero `balances` (positive: the member is owed;
    /// negative: the member owes), and how they were found.
    ///
    /// Each transfer is positive and goes from a member with a negative
    /// balance to one with a positive balance; applying them all zeroes every
    /// balance. Members with a zero balance take no part.
    ///
    /// - Precondition: the balances sum to zero (every member id appears once).
    public static func plan(_ balances: [(memberId: String, amount: Int64)], exactLimit: Int = 20)
        -> (transfers: [Transfer], method: TransferMethod)
    {
        let members = balances.filter { $0.amount != 0 }
            .sorted { ByteOrder.precedes($0.memberId, $1.memberId) }
        let total = members.reduce(Int128(0)) { $0 + Int128($1.amount) }
        precondition(total == 0, "balances to settle must sum to zero, not \(total)")
        guard !members.isEmpty else { return ([], .exact) }

        let ids = members.map(\.memberId)
        let amounts = members.map { Int128($0.amount) }
        var transfers: [Transfer] = []
        let method: TransferMethod
        if members.count <= exactLimit {
            method = .exact
            for group in zeroSumGroups(amounts) {
                transfers += greedy(group.map { (ids[$0], amounts[$0]) })
            }
        } else {
            method = .greedy
            transfers = greedy(Array(zip(ids, amounts)))
        }
        transfers.sort { a, b in
            a.from != b.from ? ByteOrder.precedes(a.from, b.from) : ByteOrder.precedes(a.to, b.to)
        }
        return (transfers, method)
    }

    /// The fewest transfers that settle `balances` (summing to zero), by the exact
    /// search. Time and memory grow as 2ⁿ in the non-zero count: keep n ≤ ~22.
    public static func minimumTransferCount(_ balances: [Int64]) -> Int {
        let nonZero = balances.filter { $0 != 0 }.map { Int128($0) }
        return nonZero.count - zeroSumGroups(nonZero).count
    }

    /// A partition of `amounts` (summing to zero) into the largest number of
    /// zero-sum groups, as lists of indices (each ascending; groups in a fixed order).
    ///
    /// `best[mask]` is the most zero-sum groups that a prefix-closed build-up
    /// of `mask` passes through: adding members one at a time, each time the
    /// running set sums to zero a group is closed. For the full set that is g.
    static func zeroSumGroups(_ amounts: [Int128]) -> [[Int]] {
        let n = amounts.count
        guard n > 0 else { return [] }
        precondition(n <= 30, "exact settlement search is limited to 30 members")
        let size = 1 << n
        var sums = [Int128](repeating: 0, count: size)
        var best = [UInt8](repeating: 0, count: size)
        for mask in 1..<size {
            let low = mask.trailingZeroBitCount
            sums[mask] = sums[mask & (mask - 1)] + amounts[low]
            var most: UInt8 = 0
            var rest = mask
            while rest != 0 {
                let i = rest.trailingZeroBitCount
                rest &= rest - 1
                most = max(most, best[mask ^ (1 << i)])
            }
            best[mask] = most + (sums[mask] == 0 ? 1 : 0)
        }

        // Walk back from the full set, removing the lowest member that keeps the
        // best count; the members removed between two zero-sum sets form a group.
        var groups: [[Int]] = []
        var current: [Int] = []
        var mask = size - 1
        while mask != 0 {
            let target = best[mask] - (sums[mask] == 0 ? 1 : 0)
            var rest = mask
            var chosen = -1
            while rest != 0 {
                let i = rest.trailingZeroBitCount
                rest &= rest - 1
                if best[mask ^ (1 << i)] == target { chosen = i; break }
            }
            current.append(chosen)
            mask ^= 1 << chosen
            if sums[mask] == 0 {
                groups.append(current.sorted())
                current = []
            }
        }
        return groups
    }

    /// Greedy matching over members whose balances sum to zero: repeatedly the
    /// largest debtor pays the largest creditor (ties by id byte order) the
    /// smaller of the two amounts. At most (count − 1) transfers.
    static func greedy(_ members: [(id: String, amount: Int128)]) -> [Transfer] {
        var debtors = members.filter { $0.amount < 0 }.map { (id: $0.id, owes: -$0.amount) }
        var creditors = members.filter { $0.amount > 0 }.map { (id: $0.id, owed: $0.amount) }
        var transfers: [Transfer] = []
        while true {
            guard let d = largest(debtors.map { ($0.id, $0.owes) }),
                  let c = largest(creditors.map { ($0.id, $0.owed) }) else { break }
            let amount = min(debtors[d].owes, creditors[c].owed)
            transfers.append(Transfer(from: debtors[d].id, to: creditors[c].id, amount: Int64(amount)))
            debtors[d].owes -= amount
            creditors[c].owed -= amount
            if debtors[d].owes == 0 { debtors.remove(at: d) }
            if creditors[c].owed == 0 { creditors.remove(at: c) }
        }
        return transfers
    }

    /// The index of the largest amount, the lowest id (byte order) among equals.
    private static func largest(_ entries: [(String, Int128)]) -> Int? {
        guard !entries.isEmpty else { return nil }
        var best = 0
        for i in entries.indices.dropFirst() {
            let (id, amount) = entries[i]
            if amount > entries[best].1 || (amount == entries[best].1 && ByteOrder.precedes(id, entries[best].0)) {
                best = i
            }
        }
        return best
    }
}
