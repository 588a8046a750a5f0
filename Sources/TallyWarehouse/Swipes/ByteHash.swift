/// A 64-bit hash of UTF-8 bytes for tally's in-memory tables (the swipe
/// person index, the swipe id filter, string caches): stable across runs and
/// processes (Swift's `Hasher` is seeded per process). The swipe id filter
/// kept in the warehouse is made of it, and the key hashes kept beside the
/// logs are its values: a change here changes ``SwipeIdFilter/layout`` and
/// ``KeyHashRuns/layout``.
///
/// Eight bytes per step, not one (as FNV-1a): a swipe's ids are ~76 bytes,
/// hashed on every row of a swipes load. Hand-written for that reason (the
/// package mirror has no byte hash); every user of it
/// checks hits against the bytes, so only spread matters, not strength.
enum ByteHash {
    static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0x9e37_79b9_7f4a_7c15 ^ UInt64(truncatingIfNeeded: bytes.count)
        guard let base = bytes.baseAddress.map(UnsafeRawPointer.init) else { return finish(hash) }
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = mix(hash, base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        if offset < bytes.count {
            var tail: UInt64 = 0, shift: UInt64 = 0
            while offset < bytes.count {
                tail |= UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) << shift
                shift += 8
                offset += 1
            }
            hash = mix(hash, tail)
        }
        return finish(hash)
    }

    static func of(_ string: String) -> UInt64 {
        var copy = string
        return copy.withUTF8 { of($0) }
    }

    @inline(__always)
    private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        let mixed = (hash ^ word) &* 0xff51_afd7_ed55_8ccd
        return mixed ^ (mixed >> 29)
    }

    /// The murmur3 finaliser: every input bit reaches every output bit.
    @inline(__always)
    private static func finish(_ hash: UInt64) -> UInt64 {
        var hash = hash
        hash ^= hash >> 33
        hash &*= 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash &*= 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return hash
    }
}
