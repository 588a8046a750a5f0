/// An instant: microseconds since 1970-01-01T00:00:00Z.
public struct Timestamp: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }

    public init(seconds: Int64) { self.microseconds = seconds * 1_000_000 }

    public var seconds: Int64 { microseconds >= 0 ? microseconds / 1_000_000 : -((-microseconds + 999_999) / 1_000_000) }

    public func adding(seconds: Int64) -> Timestamp { Timestamp(microseconds: microseconds + seconds * 1_000_000) }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.microseconds < b.microseconds }

    /// Why a timestamp was refused.
    public enum ParseError: Error, Equatable, Sendable {
        case notISO8601
        case missingOffset
        case impossibleDate
    }

    /// Parses ISO 8601 with an offset or `Z`: `2026-10-03T21:15:00-03:00`,
    /// `2026-10-03T21:15:00.123Z`, `2026-10-03 21:15:00+0000`. Fractional
    /// seconds are kept to the microsecond. A timestamp without an offset is
    /// refused (its instant would depend on where it was read).
    public static func parse<C: Collection<UInt8>>(utf8 text: C) -> Result<Timestamp, ParseError> where C.Index == Int {
        let b = text
        let s = b.startIndex
        let n = b.count
        guard n >= 19 else { return .failure(.notISO8601) }
        func digit(_ i: Int) -> Int? {
            let c = b[s + i]
            return c >= 48 && c <= 57 ? Int(c - 48) : nil
        }
        func number(_ i: Int, _ len: Int) -> Int? {
            var v = 0
            for k in 0..<len { guard let d = digit(i + k) else { return nil }; v = v * 10 + d }
            return v
        }
        guard let year = number(0, 4), b[s + 4] == 45, let month = number(5, 2), b[s + 7] == 45,
              let day = number(8, 2), b[s + 10] == 84 || b[s + 10] == 116 || b[s + 10] == 32,
              let hour = number(11, 2), b[s + 13] == 58, let minute = number(14, 2), b[s + 16] == 58,
              let second = number(17, 2) else { return .failure(.notISO8601) }
        var i = 19
        var micros = 0
        if i < n, b[s + i] == 46 || b[s + i] == 44 {
            i += 1
            var digits = 0
            while i < n, let d = digit(i) {
                if digits < 6 { micros = micros * 10 + d }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return .failure(.notISO8601) }
            for _ in min(digits, 6)..<6 { micros *= 10 }
        }
        guard i < n else { return .failure(.missingOffset) }
        var offsetSeconds = 0
        switch b[s + i] {
        case 90, 122: // Z z
            i += 1
        case 43, 45: // + -
            let sign = b[s + i] == 45 ? -1 : 1
            i += 1
            guard i + 2 <= n, let oh = number(i, 2) else { return .failure(.notISO8601) }
            i += 2
            var om = 0
            if i < n, b[s + i] == 58 { i += 1 }
            if i + 2 <= n, let m = number(i, 2) { om = m; i += 2 }
            guard oh <= 18, om < 60 else { return .failure(.notISO8601) }
            offsetSeconds = sign * (oh * 3600 + om * 60)
        default:
            return .failure(.notISO8601)
        }
        guard i == n else { return .failure(.notISO8601) }
        guard let date = LocalDate(year: year, month: month, day: day), hour < 24, minute < 60, second < 61
        else { return .failure(.impossibleDate) }
        let local = date.daysSinceEpoch * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59))
        let utc = local - Int64(offsetSeconds)
        // An offset can carry the instant out of the years 1...9999, where
        // it would print as a date nothing reads back.
        guard (firstSecond...lastSecond).contains(utc) else { return .failure(.impossibleDate) }
        return .success(Timestamp(microseconds: utc * 1_000_000 + Int64(micros)))
    }

    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, in seconds since the epoch.
    static let firstSecond: Int64 = -62_135_596_800
    static let lastSecond: Int64 = 253_402_300_799

    public static func parse(_ text: String) -> Result<Timestamp, ParseError> {
        parse(utf8: Array(text.utf8))
    }

    /// UTC ISO 8601 with microseconds when present (`2026-10-04T00:15:00Z`).
    public var description: String {
        let secs = seconds
        let micros = microseconds - secs * 1_000_000
        let days = secs >= 0 ? secs / 86_400 : -((-secs + 86_399) / 86_400)
        let rem = secs - days * 86_400
        let date = LocalDate(daysSinceEpoch: days)
        func p2(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var text = "\(date)T\(p2(rem / 3600)):\(p2(rem % 3600 / 60)):\(p2(rem % 60))"
        if micros != 0 {
            let m = String(micros)
            text += "." + String(repeating: "0", count: 6 - m.count) + m
        }
        return text + "Z"
    }
}
