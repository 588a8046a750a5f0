/// UTF-8 well-formedness checks over raw bytes (no overlong forms, no
/// surrogates, nothing above U+10FFFF).
enum UTF8Validation {
    /// Whether the `count` bytes at `p` are all ASCII (below 0x80).
    @inline(__always)
    static func isASCII(_ p: UnsafePointer<UInt8>, count: Int) -> Bool {
        var i = 0
        let raw = UnsafeRawPointer(p)
        while i + 8 <= count {
            if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            i += 8
        }
        while i < count {
            if p[i] & 0x80 != 0 { return false }
            i += 1
        }
        return true
    }

    /// The offset of the first byte of the first ill-formed sequence among the
    /// `count` bytes at `p`, or nil when they are all well-formed UTF-8.
    static func firstInvalidOffset(_ p: UnsafePointer<UInt8>, count: Int) -> Int? {
        var i = 0
        let raw = UnsafeRawPointer(p)
        while i < count {
            while i + 8 <= count, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
            }
            guard i < count else { break }
            if p[i] < 0x80 {
                i += 1
                continue
            }
            let length = sequenceLength(p, at: i, end: count)
            if length == 0 { return i }
            i += length
        }
        return nil
    }

    /// The length (2–4) of the well-formed multi-byte sequence starting at
    /// `p[i]` and ending before `end`, or 0 when it is ill-formed or cut short.
    /// `p[i]` must be 0x80 or above.
    @inline(__always)
    static func sequenceLength(_ p: UnsafePointer<UInt8>, at i: Int, end: Int) -> Int {
        let lead = p[i]
        @inline(__always) func continuation(_ k: Int) -> Bool { k < end && p[k] & 0xC0 == 0x80 }
        switch lead {
        case 0xC2...0xDF:
            return continuation(i + 1) ? 2 : 0
        case 0xE0...0xEF:
            guard i + 1 < end else { return 0 }
            let second = p[i + 1]
            let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
            let high: UInt8 = lead == 0xED ? 0x9F : 0xBF
            guard second >= low, second <= high, continuation(i + 2) else { return 0 }
            return 3
        case 0xF0...0xF4:
            guard i + 1 < end else { return 0 }
            let second = p[i + 1]
            let low: UInt8 = lead == 0xF0 ? 0x90 : 0x80
            let high: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
            guard second >= low, second <= high, continuation(i + 2), continuation(i + 3) else { return 0 }
            return 4
        default:
            return 0
        }
    }
}
