import Testing
@testable import TallyCore

@Suite struct RoundingTests {
    @Test func halvesRoundAwayFromZero() {
        #expect(Rounding.divideHalfAwayFromZero(5, by: 2) == 3)
        #expect(Rounding.divideHalfAwayFromZero(-5, by: 2) == -3)
        #expect(Rounding.divideHalfAwayFromZero(5, by: -2) == -3)
        #expect(Rounding.divideHalfAwayFromZero(-5, by: -2) == 3)
        #expect(Rounding.divideHalfAwayFromZero(1, by: 2) == 1)
        #expect(Rounding.divideHalfAwayFromZero(-1, by: 2) == -1)
    }

    @Test func otherFractionsRoundToNearest() {
        #expect(Rounding.divideHalfAwayFromZero(7, by: 3) == 2)
        #expect(Rounding.divideHalfAwayFromZero(8, by: 3) == 3)
        #expect(Rounding.divideHalfAwayFromZero(-7, by: 3) == -2)
        #expect(Rounding.divideHalfAwayFromZero(-8, by: 3) == -3)
        #expect(Rounding.divideHalfAwayFromZero(1, by: 3) == 0)
        #expect(Rounding.divideHalfAwayFromZero(0, by: 7) == 0)
        #expect(Rounding.divideHalfAwayFromZero(12, by: 4) == 3)
    }

    @Test func oddDivisorsNearHalf() {
        // 4/9 = 0.44… and 5/9 = 0.55…: halving 9 must not truncate to 4.
        #expect(Rounding.divideHalfAwayFromZero(4, by: 9) == 0)
        #expect(Rounding.divideHalfAwayFromZero(5, by: 9) == 1)
    }

    @Test func wideValues() {
        let big = Int128(Int64.max) * Int128(Int64.max)
        #expect(Rounding.divideHalfAwayFromZero(big, by: Int128(Int64.max)) == Int128(Int64.max))
        #expect(Rounding.pow10(0) == 1)
        #expect(Rounding.pow10(20) == Int128(10_000_000_000) * Int128(10_000_000_000))
        #expect(Rounding.pow10(38) != nil)
        #expect(Rounding.pow10(39) == nil)
        #expect(Rounding.pow10(-1) == nil)
    }

    @Test func byteOrderIsUTF8Order() {
        #expect(ByteOrder.precedes("B", "a"))
        #expect(ByteOrder.precedes("m10", "m2"))
        #expect(!ByteOrder.precedes("m2", "m2"))
        // Decomposed e + combining acute (65 CC 81) sorts before precomposed é (C3 A9).
        #expect(ByteOrder.precedes("e\u{301}x", "\u{E9}"))
        #expect(ByteOrder.sorted(["b", "a", "C"]) == ["C", "a", "b"])
        #expect(ByteOrder.byteSum("e1") == 150)
        #expect(ByteOrder.byteSum("") == 0)
    }
}
