/// SplitMix64: a small seeded generator that gives the same numbers for the
/// same seed on every machine (Foundation's random sources are never used
/// where a run or a test must replay): the shuffles of the in-process
/// schedules, the generator's seeding, the tests' random inputs.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// [1, 2, 3].shuffled(using: &random)   // the same order every time
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 { Self.step(&state) }

    /// One step from `state`: advances it and returns the next number.
    public static func step(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
