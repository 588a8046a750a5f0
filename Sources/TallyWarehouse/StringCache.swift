import Foundation

/// Strings made once for bytes that repeat across rows (product ids, paywall
/// contexts): the same bytes give the same String, with no allocation after
/// the first. Holds at most `limit` distinct values; past that, Strings are
/// made afresh (memory stays bounded whatever the data).
struct StringCache {
    private var slots: [(hash: UInt64, value: String)?]
    private var count = 0

    init(limit: Int = 512) {
        var size = 16
        while size < 2 * limit { size *= 2 }
        slots = Array(repeating: nil, count: size)
    }

    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325   // FNV-1a
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
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

    static func equal(_ string: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var copy = string
        return copy.withUTF8 { utf8 in
            utf8.count == bytes.count && (bytes.isEmpty || memcmp(utf8.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
    }
}
