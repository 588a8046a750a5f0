/// Exact integer division with the rounding money needs.
///
/// tally rounds money half away from zero (`2.5 → 3`, `-2.5 → -3`); these
/// helpers do it on `Int128`, wide enough for a 64-bit amount times a 64-bit
/// rate mantissa.
public enum Rounding {
    /// `numerator / denominator` rounded half away from zero.
    ///
    /// - Precondition: `denominator != 0`.
    public static func divideHalfAwayFromZero(_ numerator: Int128, by denominator: Int128) -> Int128 {
        precondition(denominator != 0, "division by zero")
        let n = numerator.magnitude
        let d = denominator.magnitude
        var quotient = n / d
        let remainder = n % d
        // remainder ≥ d/2, written without halving d (which would lose the odd bit).
        if remainder >= d - remainder { quotient += 1 }
        let negative = (numerator < 0) != (denominator < 0)
        // quotient ≤ |numerator| ≤ 2^127 (only Int128.min / ±1 reaches 2^127).
        return negative ? Int128(truncatingIfNeeded: 0 &- quotient) : Int128(truncatingIfNeeded: quotient)
    }

    /// 10^exponent as `Int128`, or nil when it does not fit (exponent > 38) or exponent < 0.
    public static func pow10(_ exponent: Int) -> Int128? {
        guard exponent >= 0, exponent <= 38 else { return nil }
        var value: Int128 = 1
        for _ in 0..<exponent { value *= 10 }
        return value
    }
}
