import PropertyBased
import Testing
@testable import TallyCore

/// Random but reproducible inputs built from one seed.
enum Random {
    static let idPool = ["ana", "bia", "m1", "m10", "m2", "Zed", "\u{E7}a", "x"]

    /// A split rule for `memberIds` and `amount`, of type `typeIndex` (0 equal, 1 shares,
    /// 2 percentage, 3 exact, 4 full); valid for `amount` in BRL.
    static func rule(_ typeIndex: Int, memberIds: [String], amount: Int64, rng: inout SplitMix64) -> SplitRule {
        let named = Array(memberIds.shuffled(using: &rng).prefix(Int.random(in: 1...memberIds.count, using: &rng)))
        switch typeIndex % 5 {
        case 0:
            return .equal
        case 1:
            var weights = named.map { _ in Int64.random(in: 0...9, using: &rng) }
            if weights.allSatisfy({ $0 == 0 }) { weights[0] = 1 }
            let scale = Int.random(in: 0...2, using: &rng)
            return SplitRule(type: .shares, entries: zip(named, weights).map {
                SplitEntry(memberId: $0, value: Decimal10(mantissa: $1 * Decimal10.pow10(scale) + Int64(scale), scale: scale))
            })
        case 2:
            // 100.00 % in hundredths, cut at random points.
            let cuts = (0..<(named.count - 1)).map { _ in Int64.random(in: 0...10_000, using: &rng) }.sorted()
            let bounds = [0] + cuts + [10_000]
            return SplitRule(type: .percentage, entries: named.indices.map {
                SplitEntry(memberId: named[$0], value: Decimal10(mantissa: bounds[$0 + 1] - bounds[$0], scale: 2))
            })
        case 3:
            let total = amount.magnitude
            let cuts = (0..<(named.count - 1)).map { _ in UInt64.random(in: 0...total, using: &rng) }.sorted()
            let bounds = [0] + cuts + [total]
            return SplitRule(type: .exact, entries: named.indices.map {
                SplitEntry(memberId: named[$0], value: Decimal10(mantissa: Int64(bounds[$0 + 1] - bounds[$0]), scale: 2))
            })
        default:
            return SplitRule(type: .full, entries: [SplitEntry(memberId: named[0], value: nil)])
        }
    }

    static func date(_ rng: inout SplitMix64) -> LocalDate {
        LocalDate(daysSinceEpoch: day("2025-10-01").daysSinceEpoch + Int64.random(in: 0..<212, using: &rng))
    }

    /// A couple's ledger over 2025-10 … 2026-04, a statement period and fx rates.
    static func ledger(seed: UInt64) -> (CoupleLedger, YearMonth, FxTable) {
        var rng = SplitMix64(seed: seed)
        let ids = Array(idPool.shuffled(using: &rng).prefix(Int.random(in: 1...6, using: &rng)))
        var expenses: [Expense] = []
        for n in 0..<Int.random(in: 0...25, using: &rng) {
            let amount = Bool.random(using: &rng) && Int.random(in: 0..<5, using: &rng) == 0
                ? -Int64.random(in: 1...20_000, using: &rng) : Int64.random(in: 0...300_000, using: &rng)
            let id = "e\(n)-\(rng.next() % 1000)"
            expenses.append(Expense(
                id: id, coupleId: "c1", paidBy: ids.randomElement(using: &rng)!, amount: amount, date: date(&rng),
                description: "", tag: ["", "food", "rent", "fun"].randomElement(using: &rng)!,
                agreementId: Int.random(in: 0..<6, using: &rng) == 0 ? "a0" : nil,
                split: rule(Int.random(in: 0...4, using: &rng), memberIds: ids, amount: amount, rng: &rng)))
        }
        let settlements = (0..<Int.random(in: 0...5, using: &rng)).map { n in
            Settlement(id: "s\(n)", coupleId: "c1", fromMember: ids.randomElement(using: &rng)!,
                       toMember: ids.randomElement(using: &rng)!, amount: Int64.random(in: 1...50_000, using: &rng),
                       date: date(&rng))
        }
        let agreements = (0..<Int.random(in: 0...2, using: &rng)).map { n in
            let currency = Bool.random(using: &rng) ? brl : usd
            let amount = Int64.random(in: 1...200_000, using: &rng)
            return Agreement(id: "a\(n)", coupleId: "c1", description: "", amount: amount, currency: currency,
                             paidBy: ids.randomElement(using: &rng)!,
                             split: rule(Int.random(in: 0...4, using: &rng), memberIds: ids, amount: amount, rng: &rng),
                             tag: "rent", dayOfMonth: Int.random(in: 1...31, using: &rng), startDate: date(&rng),
                             endDate: Bool.random(using: &rng) ? date(&rng) : nil)
        }
        let fx = FxTable((0..<Int.random(in: 0...4, using: &rng)).map { _ in
            FxRate(date: date(&rng), currency: usd, base: brl,
                   rate: Decimal10(mantissa: Int64.random(in: 40_000...60_000, using: &rng), scale: 4))
        })
        let ledger = CoupleLedger(couple: Couple(id: "c1", name: "", currency: brl),
                                  members: ids.map { Member(id: $0, coupleId: "c1", displayName: $0) },
                                  expenses: expenses, settlements: settlements, agreements: agreements)
        let period = month("2025-10").adding(months: Int.random(in: 0...6, using: &rng))
        return (ledger, period, fx)
    }

    /// The most blocks a partition of `values` into zero-sum blocks can have, by enumerating
    /// every block that holds the first value.
    static func mostZeroSumBlocks(_ values: [Int64]) -> Int {
        guard let first = values.first else { return 0 }
        let rest = Array(values.dropFirst())
        var best = Int.min
        for mask in 0..<(1 << rest.count) {
            var sum = first
            var others: [Int64] = []
            for (i, v) in rest.enumerated() {
                if mask & (1 << i) != 0 { sum += v } else { others.append(v) }
            }
            if sum == 0 { best = max(best, 1 + mostZeroSumBlocks(others)) }
        }
        return best
    }
}

@Suite struct PropertyTests {
    let memberPool = ["m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8"]

    func checkShares(_ amount: Int64, memberCount: Int, typeIndex: Int, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let members = Array(memberPool.shuffled(using: &rng).prefix(memberCount))
        let r = Random.rule(typeIndex, memberIds: members, amount: amount, rng: &rng)
        let expenseId = "e\(seed % 10_000)"
        let shares = SplitCalculator.allocate(amount, rule: r, memberIds: members, expenseId: expenseId)
        #expect(shares.count == members.count)
        #expect(shares.reduce(Int128(0)) { $0 + Int128($1) } == Int128(amount), "\(r) of \(amount)")
        #expect(shares.allSatisfy { amount >= 0 ? $0 >= 0 : $0 <= 0 })
        // Each share is its exact proportion rounded down or up: |share·W − amount·w| < W.
        let weights = SplitCalculator.weights(of: r, memberIds: members)
        let total = Int128(weights.reduce(0, +))
        for (share, weight) in zip(shares, weights) {
            let gap = Int128(share) * total - Int128(amount) * Int128(weight)
            #expect(gap.magnitude < total.magnitude)
        }
        // Negating the amount negates every share (a refund mirrors the expense).
        if amount != Int64.min {
            #expect(SplitCalculator.allocate(-amount, rule: r, memberIds: members, expenseId: expenseId) == shares.map { -$0 })
        }
        // The members' order does not change anyone's share.
        let reordered = members.reversed() as [String]
        let again = SplitCalculator.allocate(amount, rule: r, memberIds: reordered, expenseId: expenseId)
        #expect(Dictionary(uniqueKeysWithValues: zip(reordered, again)) == Dictionary(uniqueKeysWithValues: zip(members, shares)))
        // A valid exact split gives exactly its values.
        if r.type == .exact, amount >= 0 {
            #expect(SplitCalculator.validate(r, memberIds: members, amount: amount, currency: brl) == nil)
            for entry in r.entries {
                #expect(shares[members.firstIndex(of: entry.memberId)!] == entry.value!.mantissa)
            }
        }
    }

    @Test func sharesAlwaysSumToTheAmount() async {
        await propertyCheck(count: 400, input: Gen.int64(in: -1_000_000...1_000_000), Gen.int(in: 1...8),
                            Gen.int(in: 0...4), Gen.uint64()) { amount, count, type, seed in
            checkShares(amount, memberCount: count, typeIndex: type, seed: seed)
        }
        await propertyCheck(count: 200, input: Gen.int64(), Gen.int(in: 1...8),
                            Gen.int(in: 0...4), Gen.uint64()) { amount, count, type, seed in
            checkShares(amount, memberCount: count, typeIndex: type, seed: seed)
        }
    }

    /// The direct division of equal and full splits gives the shares the weights give,
    /// whatever the members' order (sorted, as statements pass them, or not, or repeated).
    @Test func equalAndFullSplitsMatchTheWeightsPath() async {
        await propertyCheck(count: 400, input: Gen.int64(), Gen.int(in: 1...8), Gen.int(in: 0...3), Gen.uint64()) { amount, count, shape, seed in
            var rng = SplitMix64(seed: seed)
            var members = (0..<count).map { _ in Random.idPool.randomElement(using: &rng)! }
            if shape < 2 { members.sort(by: ByteOrder.precedes) }
            if shape == 1 { members = Array(Set(members)).sorted(by: ByteOrder.precedes) }
            let expenseId = "e\(seed % 1000)"
            let named = Random.idPool.randomElement(using: &rng)!
            for r in [SplitRule.equal, SplitRule(type: .full, entries: [SplitEntry(memberId: named, value: nil)])] {
                #expect(SplitCalculator.allocate(amount, rule: r, memberIds: members, expenseId: expenseId)
                        == SplitCalculator.allocateByWeights(amount, rule: r, memberIds: members, expenseId: expenseId),
                        "\(r) of \(amount) among \(members)")
            }
        }
    }

    @Test func generatedSplitsAreValid() async {
        await propertyCheck(count: 300, input: Gen.int64(in: -1_000_000...1_000_000), Gen.int(in: 1...8),
                            Gen.int(in: 0...4), Gen.uint64()) { amount, count, type, seed in
            var rng = SplitMix64(seed: seed)
            let members = Array(memberPool.shuffled(using: &rng).prefix(count))
            let r = Random.rule(type, memberIds: members, amount: amount, rng: &rng)
            #expect(SplitCalculator.validate(r, memberIds: members, amount: amount, currency: brl) == nil, "\(r) of \(amount)")
        }
    }

    @Test func aCouplesNetsSumToZero() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            let (ledger, period, fx) = Random.ledger(seed: seed)
            let s = StatementBuilder.build(ledger, period: period, fx: fx)
            #expect(s.balances.count == ledger.members.count)
            #expect(s.balances.reduce(0) { $0 + $1.opening } == 0, "seed \(seed)")
            #expect(s.balances.reduce(0) { $0 + $1.closing } == 0, "seed \(seed)")
            #expect(s.balances.reduce(0) { $0 + $1.paid } == s.balances.reduce(0) { $0 + $1.share })
            #expect(s.balances.reduce(0) { $0 + $1.settlementsSent } == s.balances.reduce(0) { $0 + $1.settlementsReceived })
            for b in s.balances {
                #expect(b.closing == b.opening + b.paid - b.share + b.settlementsSent - b.settlementsReceived)
            }
            for c in s.categories { #expect(c.shareByMember.values.reduce(0, +) == c.amount) }
            #expect(s.categories.reduce(0) { $0 + $1.amount } == s.balances.reduce(0) { $0 + $1.paid })
            #expect(s.trend.last?.amount == s.categories.reduce(0) { $0 + $1.amount })
            #expect(s.rejects.allSatisfy { $0.id.hasPrefix("agreement:") && $0.id.hasSuffix(":\(period)") })
        }
    }

    @Test func closingIsTheNextOpening() async {
        await propertyCheck(count: 100, input: Gen.uint64()) { seed in
            let (ledger, period, fx) = Random.ledger(seed: seed)
            let this = StatementBuilder.build(ledger, period: period, fx: fx)
            let next = StatementBuilder.build(ledger, period: period.adding(months: 1), fx: fx)
            #expect(this.balances.map(\.closing) == next.balances.map(\.opening), "seed \(seed)")
        }
    }

    @Test func suggestedTransfersZeroTheClosingBalances() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            let (ledger, period, fx) = Random.ledger(seed: seed)
            let s = StatementBuilder.build(ledger, period: period, fx: fx)
            var left = Dictionary(uniqueKeysWithValues: s.balances.map { ($0.memberId, $0.closing) })
            for t in s.transfers {
                #expect(t.amount > 0)
                #expect(left[t.from]! < 0 && left[t.to]! > 0, "pays from a debtor to a creditor")
                left[t.from]! += t.amount
                left[t.to]! -= t.amount
            }
            #expect(left.values.allSatisfy { $0 == 0 }, "seed \(seed)")
            #expect(s.method == .exact)
            #expect(s.transfers.count == SettlementPlanner.minimumTransferCount(s.balances.map(\.closing)))
        }
    }

    @Test func exactPlannerCountIsTheBruteForceMinimum() async {
        await propertyCheck(count: 500, input: Gen.int(in: -6...6).array(of: 1...6)) { values in
            let amounts = values.map(Int64.init) + [-values.reduce(0, +)].map(Int64.init)
            let balances = amounts.enumerated().map { (memberId: "m\($0.offset)", amount: $0.element) }
            let nonZero = amounts.filter { $0 != 0 }
            let minimum = nonZero.count - Random.mostZeroSumBlocks(nonZero)
            let plan = SettlementPlanner.plan(balances)
            #expect(plan.method == .exact)
            #expect(plan.transfers.count == minimum, "\(amounts)")
            var left = Dictionary(uniqueKeysWithValues: balances.map { ($0.memberId, $0.amount) })
            for t in plan.transfers {
                #expect(t.amount > 0)
                left[t.from]! += t.amount
                left[t.to]! -= t.amount
            }
            #expect(left.values.allSatisfy { $0 == 0 })
            // Greedy never does better than the exact search.
            #expect(SettlementPlanner.plan(balances, exactLimit: 0).transfers.count >= minimum)
        }
    }
}
