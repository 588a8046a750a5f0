/// Daily activity scores as a report family.
///
/// - Partition: one user's counted days of the period (``Partition``),
///   keyed by the user id.
/// - Per partition: each day's score (``DailyActivity/score``) and the
///   month's summary (``ActivitySummary``).
/// - Summary: every user's month summary and the user-days counted; merged
///   by union and sum.
/// - Report: the users in id (byte) order (the renderers rank them,
///   ``ActivityRanking``), and the mean of their averages, summed in id
///   order so the figure does not depend on the merge order.
///
/// ```swift
/// let result = ActivityFamily().compute(.init(userId: "u1", days: days))
/// result.rows.summary.averageScore
/// ```
public struct ActivityFamily: ReportFamily {
    /// One user's winning days of the period, by date.
    public struct Partition: Sendable {
        public var userId: String
        public var days: [DailyActivity]

        /// The partition of `userId`'s `days` (any order; one per date): kept by date.
        public init(userId: String, days: [DailyActivity]) {
            self.userId = userId
            self.days = days.sorted { $0.date < $1.date }
        }
    }

    /// The days of `period` a user's days count in: the month's days. The
    /// warehouse scans this range and the dataflow routes the days in it;
    /// neither decides it.
    public static func window(_ period: YearMonth) -> ClosedRange<LocalDate> { period.firstDay...period.lastDay }

    /// One user's rows: the days and the month's summary.
    public struct Rows: Sendable {
        public var days: [DailyActivity]
        public var summary: ActivitySummary

        package init(days: [DailyActivity], summary: ActivitySummary) {
            self.days = days
            self.summary = summary
        }
    }

    public struct Summary: Mergeable {
        public var users: [ActivitySummary] = []
        public var userDays = 0

        public init() {}

        public mutating func merge(_ other: Summary) {
            users += other.users
            userDays += other.userDays
        }
    }

    public struct Report: Sendable, Equatable {
        /// Every user's summary, by user id (byte order).
        public var users: [ActivitySummary]
        public var userDays: Int
        /// The mean of the users' average scores; nil without users.
        public var meanOfAverages: Double?
        /// The best user's average score; nil without users.
        public var bestAverage: Double?
    }

    public var name: String { "activity" }

    public init() {}

    public func key(of partition: Partition) -> PartitionKey { PartitionKey(partition.userId) }

    public func compute(_ partition: Partition) -> PartitionResult<Rows, Summary> {
        let month = ActivitySummary(userId: partition.userId, days: partition.days)
        var summary = Summary()
        summary.users = [month]
        summary.userDays = partition.days.count
        return PartitionResult(key: key(of: partition), rows: Rows(days: partition.days, summary: month), summary: summary)
    }

    public func emptySummary() -> Summary { Summary() }

    public func finalise(_ summary: Summary) -> Report {
        let users = summary.users.sorted { ByteOrder.precedes($0.userId, $1.userId) }
        let averages = users.map(\.averageScore)
        return Report(users: users, userDays: summary.userDays,
                      meanOfAverages: averages.isEmpty ? nil : averages.reduce(0, +) / Double(averages.count),
                      bestAverage: averages.max())
    }
}
