/// A 64-bit FNV-1a hash of UTF-8 bytes: stable across runs and processes
/// (Swift's `Hasher` is seeded per process), cheap for the short ids of
/// swipe exports, and good enough for a Bloom filter and a hash index whose
/// hits are always checked against the bytes.
enum ByteHash {
    static func fnv1a(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        // FNV's low bits mix poorly for short keys; a final avalanche
        // (the murmur3 finaliser) spreads them before bits are taken.
        hash ^= hash >> 33
        hash &*= 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash &*= 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return hash
    }

    static func fnv1a(_ string: String) -> UInt64 {
        var copy = string
        return copy.withUTF8 { fnv1a($0) }
    }
}
