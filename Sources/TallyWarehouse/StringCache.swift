import Foundation

/// Strings made once for bytes that repeat across rows (product ids, paywall
/// contexts, a challenge's group, users and names): the same bytes give the
/// same String, with no allocation after the first. Holds at most `limit`
/// distinct values; past that, Strings are made afresh (memory stays bounded whatever the data).
struct StringCache {
    private var slots: [(hash: UInt64, value: String)?]
    private var count = 0

    init(limit: Int = 512) {
        var size = 16
        while size < 2 * limit { size *= 2 }
        slots = Array(repeating: nil, count: size)
    }

    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let hash = ByteHash.of(bytes)
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        while let slot = slots[i] {
            if slot.hash == hash, StringCache.equal(slot.value, bytes) { return slot.value }
            i = (i + 1) & mask
        }
        let made = String(decoding: bytes, as: UTF8.self)
        if 2 * (count + 1) <= slots.count {
            slots[i] = (hash, made)
            count += 1
        }
        return made
    }

    mutating func string(_ bytes: UnsafeRawBufferPointer) -> String {
        string(bytes.assumingMemoryBound(to: UInt8.self))
    }

    /// Forgets every string (to bound memory between partitions).
    mutating func removeAll() {
        for i in slots.indices { slots[i] = nil }
        count = 0
    }

    static func equal(_ string: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var copy = string
        return copy.withUTF8 { utf8 in
            utf8.count == bytes.count && (bytes.isEmpty || memcmp(utf8.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
    }
}
