/// A calendar month (`2026-10`): the unit of statements, cohorts and periods.
public struct YearMonth: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int

    public init?(year: Int, month: Int) {
        guard (1...9999).contains(year), (1...12).contains(month) else { return nil }
        self.year = year
        self.month = month
    }

    /// Parses `YYYY-MM`.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let y = Int(parts[0]), let m = Int(parts[1]) else { return nil }
        self.init(year: y, month: m)
    }

    public var firstDay: LocalDate { LocalDate(year: year, month: month, day: 1)! }
    public var lastDay: LocalDate { LocalDate(year: year, month: month, day: dayCount)! }
    public var dayCount: Int { LocalDate.daysIn(year: year, month: month) }

    /// The date of `day` in this month, clamped to the month's last day (day 31 in February → 28 or 29).
    public func clampedDay(_ day: Int) -> LocalDate {
        LocalDate(year: year, month: month, day: min(max(day, 1), dayCount))!
    }

    /// Every day of the month, in order.
    public var days: [LocalDate] { (1...dayCount).map { LocalDate(year: year, month: month, day: $0)! } }

    public func adding(months: Int) -> YearMonth {
        let index = year * 12 + (month - 1) + months
        return YearMonth(year: index / 12, month: index % 12 + 1)!
    }

    /// Months from `self` to `other` (positive when `other` is later).
    public func months(until other: YearMonth) -> Int {
        (other.year * 12 + other.month) - (year * 12 + month)
    }

    public var description: String {
        let m = month < 10 ? "0\(month)" : "\(month)"
        return "\(year)-\(m)"
    }

    public static func < (a: YearMonth, b: YearMonth) -> Bool { (a.year, a.month) < (b.year, b.month) }
}
