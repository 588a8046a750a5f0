import TallyCore

/// The generator's own pseudo-random numbers: xoshiro256** seeded through
/// SplitMix64, so that a seed gives the same sequence on every platform and
/// every run (Foundation's random sources are never used).
struct RandomSource {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// A stream for `seed`; distinct `stream` values give independent sequences,
    /// so each dataset draws from its own and changing one leaves the others alone.
    init(seed: UInt64, stream: UInt64) {
        var state = seed ^ (stream &* 0x9E37_79B9_7F4A_7C15)
        s0 = RandomSource.splitMix(&state)
        s1 = RandomSource.splitMix(&state)
        s2 = RandomSource.splitMix(&state)
        s3 = RandomSource.splitMix(&state)
    }

    /// One SplitMix64 step.
    static func splitMix(_ state: inout UInt64) -> UInt64 {
        SplitMix64.step(&state)
    }

    /// A stateless 64-bit hash of `value` (SplitMix64's finaliser), for values derived from an index.
    static func hash(_ value: UInt64) -> UInt64 {
        var state = value
        return splitMix(&state)
    }

    @inline(__always)
    mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = (s3 << 45) | (s3 >> 19)
        return result
    }

    /// A uniform integer in `0..<bound` (bound > 0), by multiply-high.
    @inline(__always)
    mutating func int(_ bound: Int) -> Int {
        precondition(bound > 0)
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A uniform integer in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + int(range.upperBound - range.lowerBound + 1)
    }

    /// A uniform double in [0, 1).
    @inline(__always)
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// True with probability `p`.
    @inline(__always)
    mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// A roughly bell-shaped value in [-1, 1) (mean of three uniforms, rescaled); no libm involved.
    mutating func bell() -> Double { (unit() + unit() + unit()) / 1.5 - 1 }

    /// A right-skewed positive multiplier with mean near 1 (product of two uniforms, shifted).
    mutating func skewed() -> Double { 0.25 + 3 * unit() * unit() }

    mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }

    /// An index drawn with the given relative weights.
    mutating func weightedIndex(_ weights: [Int]) -> Int {
        let total = weights.reduce(0, +)
        var r = int(total)
        for (i, w) in weights.enumerated() {
            if r < w { return i }
            r -= w
        }
        return weights.count - 1
    }

    /// Shuffles in place (Fisher–Yates).
    mutating func shuffle<T>(_ items: inout [T]) {
        guard items.count > 1 else { return }
        for i in stride(from: items.count - 1, to: 0, by: -1) {
            items.swapAt(i, int(i + 1))
        }
    }
}
