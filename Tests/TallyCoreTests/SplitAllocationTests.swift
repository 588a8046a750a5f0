import Testing
@testable import TallyCore

@Suite struct SplitAllocationTests {
    let three = ["m1", "m2", "m3"]

    func split(_ amount: Int64, _ rule: SplitRule, _ members: [String], id: String = "e1") -> [Int64] {
        SplitCalculator.allocate(amount, rule: rule, memberIds: members, expenseId: id)
    }

    @Test func equalSplitsAmongEveryMember() {
        #expect(split(10_000, .equal, ["m1", "m2"]) == [5000, 5000])
        #expect(split(99, .equal, three) == [33, 33, 33])
        #expect(split(7, .equal, ["solo"]) == [7])
        #expect(split(0, .equal, three) == [0, 0, 0])
        // equal ignores entries: still every member.
        #expect(split(90, rule(.equal, "m1:1"), three) == [30, 30, 30])
    }

    @Test func tiedRemaindersRotateByExpenseId() {
        // "e1": 101 + 49 = 150, 150 % 3 = 0 → the first tied member by id gets the extra cent.
        #expect(split(100, .equal, three, id: "e1") == [34, 33, 33])
        // "e2": 151 % 3 = 1 → the second.
        #expect(split(100, .equal, three, id: "e2") == [33, 34, 33])
        // "e3": 152 % 3 = 2 → the third.
        #expect(split(100, .equal, three, id: "e3") == [33, 33, 34])
        // Two leftover units start at the rotated position and wrap around.
        #expect(split(101, .equal, three, id: "e1") == [34, 34, 33])
        #expect(split(101, .equal, three, id: "e3") == [34, 33, 34])
        // The empty id sums to 0.
        #expect(split(100, .equal, three, id: "") == [34, 33, 33])
    }

    @Test func tieOrderIsByIdNotByPosition() {
        // Members passed out of order: the tie list is still m1, m2, m3 (shares aligned with the input).
        #expect(split(100, .equal, ["m3", "m1", "m2"], id: "e1") == [33, 34, 33])
        #expect(split(100, .equal, ["m3", "m1", "m2"], id: "e3") == [34, 33, 33])
        // Byte order: "B" (0x42) before "a" (0x61).
        #expect(split(1, .equal, ["a", "B"], id: "") == [0, 1])
    }

    @Test func onlyTheTiedMembersRotate() {
        // 33.5 / 33.5 / 33: m1 and m2 tie on .5, m3 has no remainder.
        let r = rule(.percentage, "m1:33.5;m2:33.5;m3:33")
        // "e1": 150 % 2 = 0 → m1; "e2": 151 % 2 = 1 → m2.
        #expect(split(100, r, three, id: "e1") == [34, 33, 33])
        #expect(split(100, r, three, id: "e2") == [33, 34, 33])
    }

    @Test func largestRemainderWinsBeforeRotation() {
        // 10 by 1:2 → 3.33 and 6.67: m2's remainder is larger, whatever the id.
        for id in ["e1", "e2", "x", ""] {
            #expect(split(10, rule(.shares, "m1:1;m2:2"), ["m1", "m2"], id: id) == [3, 7])
        }
        // 100 by 1:1:1:4 → 14.28 ×3 and 57.14: floors 14,14,14,57 = 99; remainders 2/7,2/7,2/7,1/7:
        // the leftover unit goes among the three tied at 2/7 ("e1" → 150 % 3 = 0 → a).
        #expect(split(100, rule(.shares, "a:1;b:1;c:1;d:4"), ["a", "b", "c", "d"], id: "e1") == [15, 14, 14, 57])
    }

    @Test func sharesAndPercentages() {
        #expect(split(1000, rule(.shares, "m1:2;m2:1"), ["m1", "m2"]) == [667, 333])
        #expect(split(1000, rule(.percentage, "m1:60;m2:40"), ["m1", "m2"]) == [600, 400])
        #expect(split(1000, rule(.percentage, "m1:60.5;m2:39.5"), ["m1", "m2"]) == [605, 395])
        #expect(split(1000, rule(.shares, "m1:0.5;m2:1.50"), ["m1", "m2"]) == [250, 750])
        // A member the split does not name gets 0.
        #expect(split(1000, rule(.shares, "m1:1;m3:1"), three) == [500, 0, 500])
        #expect(split(1000, rule(.shares, "m1:0;m2:1"), ["m1", "m2"]) == [0, 1000])
    }

    @Test func fullGoesToTheNamedMember() {
        #expect(split(12_345, rule(.full, "m2"), three) == [0, 12_345, 0])
        #expect(split(-500, rule(.full, "m3"), three) == [0, 0, -500])
    }

    @Test func exactGivesTheWrittenAmounts() {
        #expect(split(10_000, rule(.exact, "m1:30.00;m2:70.00"), ["m1", "m2"]) == [3000, 7000])
        #expect(split(10_001, rule(.exact, "m1:0.01;m3:100.00"), three) == [1, 0, 10_000])
        #expect(split(3500, rule(.exact, "m1:3000;m2:500"), ["m1", "m2"]) == [3000, 500])
    }

    @Test func exactOfAConvertedAmountSplitsInProportion() {
        // Written as 30.00 / 70.00 USD; converted to 123.45 BRL: 37.035 and 86.415 tie on .5.
        // "x1": 120 + 49 = 169, 169 % 2 = 1 → m2 gets the extra centavo.
        #expect(split(12_345, rule(.exact, "m1:30.00;m2:70.00"), ["m1", "m2"], id: "x1") == [3703, 8642])
        #expect(split(12_345, rule(.exact, "m1:30.00;m2:70.00"), ["m1", "m2"], id: "x2") == [3704, 8641])
    }

    @Test func refundsSplitTheMagnitudeThenNegate() {
        #expect(split(-100, .equal, three, id: "e1") == [-34, -33, -33])
        #expect(split(-100, .equal, three, id: "e2") == [-33, -34, -33])
        #expect(split(-1000, rule(.shares, "m1:2;m2:1"), ["m1", "m2"]) == [-667, -333])
        #expect(split(-10_000, rule(.exact, "m1:30.00;m2:70.00"), ["m1", "m2"]) == [-3000, -7000])
        #expect(split(-10_000, rule(.exact, "m1:-30.00;m2:-70.00"), ["m1", "m2"]) == [-3000, -7000])
    }

    @Test func extremeAmountsStayExact() {
        #expect(split(Int64.min, .equal, ["m1"]) == [Int64.min])
        let halves = split(Int64.min, .equal, ["m1", "m2"])
        #expect(halves == [Int64.min / 2, Int64.min / 2])
        let thirds = split(Int64.max, rule(.shares, "m1:1;m2:1;m3:1"), three, id: "e1")
        #expect(thirds.reduce(Int128(0)) { $0 + Int128($1) } == Int128(Int64.max))
        // Weights with many decimals still divide exactly.
        let fine = split(Int64.max, rule(.percentage, "m1:33.333333333333;m2:66.666666666667"), ["m1", "m2"])
        #expect(fine.reduce(Int128(0)) { $0 + Int128($1) } == Int128(Int64.max))
    }

    @Test func invalidRulesStillAddUp() {
        // Weights total 0 (refused by validate): divided equally instead.
        #expect(split(100, rule(.shares, "m1:0;m2:0"), ["m1", "m2"]) == [50, 50])
        // Unknown members are ignored.
        #expect(split(100, rule(.shares, "zz:5;m2:1"), ["m1", "m2"]) == [0, 100])
        #expect(SplitCalculator.allocate(100, rule: .equal, memberIds: [], expenseId: "e") == [])
    }
}
