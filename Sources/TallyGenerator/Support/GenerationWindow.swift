import TallyCore

/// The span of time the generated data covers: whole months ending with the
/// anchor month, in America/Sao_Paulo local time. São Paulo has kept UTC−3
/// all year since 2019, so local wall time converts to UTC by adding 3 hours.
struct GenerationWindow {
    let anchorMonth: YearMonth
    let firstMonth: YearMonth
    let firstDay: LocalDate
    let lastDay: LocalDate

    /// Seconds east of UTC of the report time zone over the window.
    static let localOffset: Int64 = -3 * 3600

    /// `anchorMonthDays` ends the data on that day of the anchor month (`nil`: its last day).
    init(anchorMonth: YearMonth, months: Int, anchorMonthDays: Int? = nil) {
        self.anchorMonth = anchorMonth
        firstMonth = anchorMonth.adding(months: -(months - 1))
        firstDay = firstMonth.firstDay
        lastDay = anchorMonthDays.map { anchorMonth.clampedDay($0) } ?? anchorMonth.lastDay
    }

    var dayCount: Int { Int(lastDay.daysSinceEpoch - firstDay.daysSinceEpoch) + 1 }

    /// The months of the window, in order.
    var months: [YearMonth] {
        (0...firstMonth.months(until: anchorMonth)).map { firstMonth.adding(months: $0) }
    }

    /// The day `offset` days after the first.
    func day(_ offset: Int) -> LocalDate { firstDay.adding(days: offset) }

    /// UTC epoch seconds of local wall time `secondOfDay` on `date`.
    static func utc(_ date: LocalDate, _ secondOfDay: Int) -> Int64 {
        date.daysSinceEpoch * 86_400 + Int64(secondOfDay) - localOffset
    }

    /// The local date of UTC epoch seconds.
    static func localDate(_ utcSeconds: Int64) -> LocalDate {
        let local = utcSeconds + localOffset
        return LocalDate(daysSinceEpoch: local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400))
    }

    /// The first instant after the window (UTC epoch seconds): nothing is generated at or after it.
    var endUTC: Int64 { GenerationWindow.utc(lastDay.adding(days: 1), 0) }
    var startUTC: Int64 { GenerationWindow.utc(firstDay, 0) }
}
