/// A set of 64-bit keys asked about far more often than it holds keys, most
/// answers being no: the swipes' derivation asks, for every row of the
/// whole log, whether its id hash is a candidate repeat and whether its
/// pair of users is one a month's swipes touched (``SwipeLogSchema``).
///
/// A bit per slot of a table of at least 16 slots per key (a power of two),
/// indexed by a multiplicative hash, answers "no" for most keys from a table
/// that stays in the cache; only the rest are looked up in the set, whose
/// hashing (`Hasher`, SipHash) and probe miss the cache once it holds
/// hundreds of thousands of keys. The answer is always the set's: the bits
/// only skip look-ups that would miss.
///
/// ```swift
/// let touched = SparseKeySet([0x1_0000_0002, 0x3_0000_0004])
/// touched.contains(0x1_0000_0002)   // true
/// touched.contains(0x1_0000_0003)   // false
/// ```
struct SparseKeySet {
    let keys: Set<UInt64>
    private let bits: [UInt64]
    /// 64 − log2(the number of slots): the hash's top bits pick the slot.
    private let shift: UInt64

    init(_ keys: Set<UInt64>) {
        self.keys = keys
        var slots = 64
        while slots < keys.count * 16 { slots <<= 1 }
        shift = UInt64(64 - slots.trailingZeroBitCount)
        var bits = [UInt64](repeating: 0, count: slots / 64)
        for key in keys {
            let slot = Self.slot(key, shift)
            bits[Int(slot >> 6)] |= 1 << (slot & 63)
        }
        self.bits = bits
    }

    var isEmpty: Bool { keys.isEmpty }

    @inline(__always)
    private static func slot(_ key: UInt64, _ shift: UInt64) -> UInt64 { (key &* 0x9e37_79b9_7f4a_7c15) >> shift }

    @inline(__always)
    func contains(_ key: UInt64) -> Bool {
        let slot = Self.slot(key, shift)
        return bits[Int(slot >> 6)] & (1 << (slot & 63)) != 0 && keys.contains(key)
    }
}
