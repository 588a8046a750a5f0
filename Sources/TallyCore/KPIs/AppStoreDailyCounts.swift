/// The App Store Connect event counts a KPI report lists
/// (`kpis/appstore_events.csv`): the Subscription Event reports' rows of
/// the period's days, summed per day, app, subscription, Apple event and
/// contract event, in that order (text compared as bytes). The rows may
/// come from any number of reports, in any order.
///
/// ```swift
/// AppStoreDailyCounts.rows([renewalA, renewalB, septemberRow], period: YearMonth("2026-10")!)
/// // [the two October renewals of one subscription and day, summed]
/// ```
public enum AppStoreDailyCounts {
    public static func rows(_ counts: some Sequence<AppStoreEventCountRow>, period: YearMonth) -> [AppStoreEventCountRow] {
        var sums: [[UInt8]: AppStoreEventCountRow] = [:]
        for c in counts where c.date >= period.firstDay && c.date <= period.lastDay {
            var key = Array(c.date.description.utf8)
            for text in [c.app, c.subscription, c.appleEvent, c.event] {
                key += Array(String(text.utf8.count).utf8) + [0x3A] + Array(text.utf8)
            }
            if var sum = sums[key] {
                sum.quantity += c.quantity
                sums[key] = sum
            } else {
                sums[key] = c
            }
        }
        return sums.values.sorted { a, b in
            if a.date != b.date { return a.date < b.date }
            for (x, y) in [(a.app, b.app), (a.subscription, b.subscription), (a.appleEvent, b.appleEvent), (a.event, b.event)]
            where !x.utf8.elementsEqual(y.utf8) {
                return ByteOrder.precedes(x, y)
            }
            return false
        }
    }
}
