/// A calendar date with no time zone (`2026-10-03`), proleptic Gregorian.
public struct LocalDate: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A valid date, or nil (`2026-02-30` is nil).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              day >= 1, day <= LocalDate.daysIn(year: year, month: month) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` days after 1970-01-01 (negative before it).
    public init(daysSinceEpoch days: Int64) {
        // Civil-from-days (Howard Hinnant's public-domain algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.year = Int(m <= 2 ? y + 1 : y)
        self.month = Int(m)
        self.day = Int(d)
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public var yearMonth: YearMonth { YearMonth(year: year, month: month)! }

    public func adding(days: Int) -> LocalDate { LocalDate(daysSinceEpoch: daysSinceEpoch + Int64(days)) }

    /// ISO 8601 (`2026-10-03`).
    public var description: String {
        func pad(_ v: Int, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public static func < (a: LocalDate, b: LocalDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    public static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    public static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Parses exactly `YYYY-MM-DD`; nil for anything else or an impossible date.
    /// Allocation-free: it runs once per row for every dated table, and is
    /// inlinable so each caller's collection (a field's bytes, a SQLite
    /// column) gets a specialised copy rather than generic calls per byte.
    @inlinable
    public static func parse<S: Collection<UInt8>>(utf8 text: S) -> LocalDate? {
        guard text.count == 10 else { return nil }
        var year = 0, month = 0, day = 0
        var position = 0
        for byte in text {
            defer { position += 1 }
            if position == 4 || position == 7 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int(byte &- UInt8(ascii: "0"))
            switch position {
            case 0..<4: year = year * 10 + digit
            case 5..<7: month = month * 10 + digit
            default: day = day * 10 + digit
            }
        }
        return LocalDate(year: year, month: month, day: day)
    }

    public static func parse(_ text: String) -> LocalDate? { parse(utf8: text.utf8) }
}
