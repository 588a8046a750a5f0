import TallyCore

/// How a generated instant is spelled. Exports mix several spellings of the
/// same ISO 8601 instant; the generator rotates between them.
enum TimestampStyle {
    /// `2026-10-03T21:15:00-03:00` (São Paulo offset).
    case saoPaulo
    /// `2026-10-04T00:15:00Z`.
    case utc
    /// `2026-10-04T00:15:00.123Z` (milliseconds).
    case utcMillis
    /// `2026-10-03T21:15:00.123456-03:00` (microseconds with an offset).
    case saoPauloMicros
    /// `2026-10-03T21:15:00` — no offset: a deliberately bad spelling.
    case missingOffset
    /// Apple Health's `2026-10-03 21:15:00 -0300`.
    case appleHealth
    /// PostgreSQL's `timestamptz` text as Supabase exports it: `2026-10-04 00:15:00.123456+00`.
    case supabase
}

/// A growable byte buffer with the appends the table writers need, written so
/// that no row goes through `String` interpolation or Foundation formatting.
struct ByteBuffer {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    var count: Int { bytes.count }

    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    @inline(__always)
    mutating func byte(_ b: UInt8) { bytes.append(b) }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }

    mutating func append(_ other: ArraySlice<UInt8>) { bytes.append(contentsOf: other) }

    /// A signed integer in decimal.
    mutating func int(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = bytes.count
        repeat {
            bytes.append(UInt8(truncatingIfNeeded: magnitude % 10) + 48)
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }

    mutating func int(_ value: Int) { int(Int64(value)) }

    /// A non-negative integer left-padded with zeros to `width` digits.
    mutating func padded(_ value: Int, width: Int) {
        var digits = 1
        var limit = 10
        while value >= limit, digits < 19 { digits += 1; limit &*= 10 }
        for _ in digits..<max(digits, width) { bytes.append(48) }
        int(Int64(value))
    }

    /// `minor × 10^-scale` with exactly `scale` digits after the point (`-12.50`, JPY `3500`).
    mutating func decimal(_ minor: Int64, scale: Int) {
        if scale == 0 { int(minor); return }
        if minor < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = minor.magnitude
        let divisor = UInt64(Decimal10.pow10(scale))
        int(Int64(magnitude / divisor))
        bytes.append(UInt8(ascii: "."))
        padded(Int(magnitude % divisor), width: scale)
    }

    /// `YYYY-MM-DD`.
    mutating func date(_ date: LocalDate) {
        padded(date.year, width: 4)
        bytes.append(UInt8(ascii: "-"))
        padded(date.month, width: 2)
        bytes.append(UInt8(ascii: "-"))
        padded(date.day, width: 2)
    }

    /// An instant given as UTC epoch seconds plus a sub-second part in microseconds.
    mutating func timestamp(_ utcSeconds: Int64, micros: Int = 0, style: TimestampStyle) {
        let offset: Int64
        switch style {
        case .saoPaulo, .saoPauloMicros, .missingOffset, .appleHealth: offset = -3 * 3600
        case .utc, .utcMillis, .supabase: offset = 0
        }
        let local = utcSeconds + offset
        let days = local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400)
        let secondOfDay = Int(local - days * 86_400)
        date(LocalDate(daysSinceEpoch: days))
        bytes.append(style == .appleHealth || style == .supabase ? UInt8(ascii: " ") : UInt8(ascii: "T"))
        padded(secondOfDay / 3600, width: 2)
        bytes.append(UInt8(ascii: ":"))
        padded(secondOfDay % 3600 / 60, width: 2)
        bytes.append(UInt8(ascii: ":"))
        padded(secondOfDay % 60, width: 2)
        switch style {
        case .saoPaulo: append("-03:00")
        case .saoPauloMicros:
            bytes.append(UInt8(ascii: "."))
            padded(micros, width: 6)
            append("-03:00")
        case .utc: bytes.append(UInt8(ascii: "Z"))
        case .utcMillis:
            bytes.append(UInt8(ascii: "."))
            padded(micros / 1000, width: 3)
            bytes.append(UInt8(ascii: "Z"))
        case .missingOffset: break
        case .appleHealth: append(" -0300")
        case .supabase:
            bytes.append(UInt8(ascii: "."))
            padded(micros, width: 6)
            append("+00")
        }
    }

    /// A CSV field, quoted (RFC 4180) only when it holds a comma, quote, CR or LF.
    mutating func csvField(_ text: String) {
        var needsQuotes = false
        for b in text.utf8 where b == 44 || b == 34 || b == 10 || b == 13 {
            needsQuotes = true
            break
        }
        guard needsQuotes else { bytes.append(contentsOf: text.utf8); return }
        bytes.append(34)
        for b in text.utf8 {
            if b == 34 { bytes.append(34) }
            bytes.append(b)
        }
        bytes.append(34)
    }

    /// A JSON string literal. Non-ASCII text stays raw UTF-8 unless
    /// `escapeNonASCII`, which writes `\uXXXX` (with surrogate pairs) instead.
    mutating func jsonString(_ text: String, escapeNonASCII: Bool = false) {
        bytes.append(34)
        if escapeNonASCII {
            for scalar in text.unicodeScalars {
                if scalar.value < 0x80 {
                    jsonASCII(UInt8(scalar.value))
                } else if scalar.value < 0x10000 {
                    unicodeEscape(UInt16(scalar.value))
                } else {
                    let v = scalar.value - 0x10000
                    unicodeEscape(UInt16(0xD800 + (v >> 10)))
                    unicodeEscape(UInt16(0xDC00 + (v & 0x3FF)))
                }
            }
        } else {
            for b in text.utf8 { if b < 0x80 { jsonASCII(b) } else { bytes.append(b) } }
        }
        bytes.append(34)
    }

    private mutating func jsonASCII(_ b: UInt8) {
        switch b {
        case 34: append("\\\"")
        case 92: append("\\\\")
        case 10: append("\\n")
        case 13: append("\\r")
        case 9: append("\\t")
        case 0..<32: unicodeEscape(UInt16(b))
        default: bytes.append(b)
        }
    }

    private mutating func unicodeEscape(_ unit: UInt16) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        append("\\u")
        for shift in stride(from: 12, through: 0, by: -4) {
            bytes.append(hex[Int((unit >> UInt16(shift)) & 0xF)])
        }
    }

    /// XML attribute text with `&`, `<`, `>` and `"` escaped.
    mutating func xmlAttribute(_ text: String) {
        for b in text.utf8 {
            switch b {
            case 38: append("&amp;")
            case 60: append("&lt;")
            case 62: append("&gt;")
            case 34: append("&quot;")
            default: bytes.append(b)
            }
        }
    }
}
