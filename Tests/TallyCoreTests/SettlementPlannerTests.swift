import Testing
@testable import TallyCore

@Suite struct SettlementPlannerTests {
    typealias Balances = [(memberId: String, amount: Int64)]

    /// Applies `transfers` to `balances` and returns what is left, by member.
    func remaining(_ balances: Balances, after transfers: [Transfer]) -> [String: Int64] {
        var left = Dictionary(uniqueKeysWithValues: balances.map { ($0.memberId, $0.amount) })
        for t in transfers {
            left[t.from, default: 0] += t.amount
            left[t.to, default: 0] -= t.amount
        }
        return left
    }

    @Test func twoMembers() {
        let plan = SettlementPlanner.plan([("m1", 5000), ("m2", -5000)])
        #expect(plan.method == .exact)
        #expect(plan.transfers == [Transfer(from: "m2", to: "m1", amount: 5000)])
    }

    @Test func nothingToSettle() {
        #expect(SettlementPlanner.plan([]).transfers.isEmpty)
        let plan = SettlementPlanner.plan([("m1", 0), ("m2", 0)])
        #expect(plan.transfers.isEmpty)
        #expect(plan.method == .exact)
    }

    @Test func disjointZeroSumGroupsSettleSeparately() {
        // A+3, B+4, C−3, D−4: {A, C} and {B, D} → 2 transfers.
        let balances: Balances = [("A", 3), ("B", 4), ("C", -3), ("D", -4)]
        let plan = SettlementPlanner.plan(balances)
        #expect(plan.method == .exact)
        #expect(plan.transfers == [Transfer(from: "C", to: "A", amount: 3), Transfer(from: "D", to: "B", amount: 4)])
    }

    @Test func exactSearchBeatsGreedy() {
        // A+5, B+4, C−3, D−2, E−4. Zero-sum groups {A, C, D} and {B, E}: 5 − 2 = 3 transfers.
        let balances: Balances = [("A", 5), ("B", 4), ("C", -3), ("D", -2), ("E", -4)]
        let exact = SettlementPlanner.plan(balances)
        #expect(exact.method == .exact)
        #expect(exact.transfers == [
            Transfer(from: "C", to: "A", amount: 3),
            Transfer(from: "D", to: "A", amount: 2),
            Transfer(from: "E", to: "B", amount: 4),
        ])
        // Greedy: E→A 4, C→B 3, then D owes 2 to A (1) and B (1): 4 transfers.
        let greedy = SettlementPlanner.plan(balances, exactLimit: 0)
        #expect(greedy.method == .greedy)
        #expect(greedy.transfers == [
            Transfer(from: "C", to: "B", amount: 3),
            Transfer(from: "D", to: "A", amount: 1),
            Transfer(from: "D", to: "B", amount: 1),
            Transfer(from: "E", to: "A", amount: 4),
        ])
        #expect(remaining(balances, after: greedy.transfers).values.allSatisfy { $0 == 0 })
        #expect(SettlementPlanner.minimumTransferCount(balances.map(\.amount)) == 3)
    }

    @Test func zeroBalancesTakeNoPart() {
        let plan = SettlementPlanner.plan([("m1", 0), ("m2", 700), ("m3", -700), ("m4", 0)])
        #expect(plan.transfers == [Transfer(from: "m3", to: "m2", amount: 700)])
    }

    @Test func oneCreditorManyDebtors() {
        let balances: Balances = [("m1", 900), ("m2", -300), ("m3", -200), ("m4", -400)]
        let plan = SettlementPlanner.plan(balances)
        #expect(plan.transfers.count == 3)
        #expect(plan.transfers.allSatisfy { $0.to == "m1" && $0.amount > 0 })
        #expect(remaining(balances, after: plan.transfers).values.allSatisfy { $0 == 0 })
    }

    @Test func outputDoesNotDependOnInputOrder() {
        let balances: Balances = [("b", 5), ("a", 4), ("e", -3), ("c", -2), ("d", -4)]
        let expected = SettlementPlanner.plan(balances)
        var rng = SplitMix64(seed: 7)
        for _ in 0..<20 {
            let shuffled = balances.shuffled(using: &rng)
            #expect(SettlementPlanner.plan(shuffled).transfers == expected.transfers)
        }
    }

    @Test func largeGroupsFallBackToGreedy() {
        // 21 non-zero members: past the default exact limit of 20.
        var balances: Balances = (1...20).map { (memberId: "m\($0)", amount: Int64($0 * 100)) }
        balances.append((memberId: "z", amount: -balances.reduce(0) { $0 + $1.amount }))
        let plan = SettlementPlanner.plan(balances)
        #expect(plan.method == .greedy)
        #expect(plan.transfers.count == 20)
        #expect(plan.transfers.allSatisfy { $0.from == "z" && $0.amount > 0 })
        #expect(remaining(balances, after: plan.transfers).values.allSatisfy { $0 == 0 })
    }

    @Test func exactSearchAtTheLimit() {
        // 12 members in 4 zero-sum triples (+a, +b, −(a+b)): 12 − 4 = 8 transfers.
        var balances: Balances = []
        for k in 0..<4 {
            let a = Int64(10 + 7 * k), b = Int64(1 + 3 * k)
            balances += [("p\(k)a", a), ("p\(k)b", b), ("q\(k)", -(a + b))]
        }
        let plan = SettlementPlanner.plan(balances, exactLimit: 12)
        #expect(plan.method == .exact)
        #expect(plan.transfers.count == 8)
        #expect(remaining(balances, after: plan.transfers).values.allSatisfy { $0 == 0 })
    }
}

@Suite struct SettlementPlannerLimitTests {
    @Test func twentyNonZeroMembersAreSearchedExactly() {
        // Ten zero-sum pairs (+k, −k) among 20 members: 10 transfers, found by the exact search.
        var balances: [(memberId: String, amount: Int64)] = []
        for k in 1...10 {
            balances.append((memberId: "c\(k)", amount: Int64(k * 1000 + 1)))
            balances.append((memberId: "d\(k)", amount: -Int64(k * 1000 + 1)))
        }
        let plan = SettlementPlanner.plan(balances)
        #expect(plan.method == .exact)
        #expect(plan.transfers.count == 10)
        #expect(plan.transfers.allSatisfy { $0.amount == Int64($0.to.dropFirst())! * 1000 + 1 && $0.from.dropFirst() == $0.to.dropFirst() })
    }
}
