/// The counters of one day of `kpis/swipes_daily.csv`.
public struct SwipesDay: Sendable, Equatable {
    public var date: LocalDate
    /// Accepted swipes (each id once), every action.
    public var swipes = 0
    /// Distinct users who swiped that day.
    public var swipers = 0
    /// `like` only (super likes apart).
    public var likes = 0
    public var superLikes = 0
    public var passes = 0
    public var reports = 0
    /// Matches formed that day (the local day of the forming instant).
    public var matches = 0

    public init(date: LocalDate) { self.date = date }

    /// (likes + superLikes) / swipes.
    public var likeRate: KPIRate { KPIRate(likes + superLikes, of: swipes) }
    /// matches / (likes + superLikes).
    public var matchRate: KPIRate { KPIRate(matches, of: likes + superLikes) }
}

/// Counts swipes and matches per local day of a month: every day of the
/// month is listed, a day without swipes with zeros (and empty rates).
///
/// Feed it the month's accepted swipes and matches in any order; distinct
/// swipers are kept per day in a ``SwiperSet`` (``HashedSwiperSet`` of user
/// ids, or ``NumberedSwiperSet`` of the numbers the warehouse gives users). Two accumulators over disjoint swipes merge with ``merge(_:)``
/// only when their swipers are disjoint too (partition by user).
public struct SwipesDailyAccumulator<Swipers: SwiperSet>: Sendable {
    public let month: YearMonth
    package var days: [SwipesDay]
    package var swipers: [Swipers]

    public init(month: YearMonth) {
        self.month = month
        days = month.days.map { SwipesDay(date: $0) }
        swipers = Array(repeating: Swipers(), count: month.dayCount)
    }

    private func index(_ date: LocalDate) -> Int? {
        guard date.yearMonth == month else { return nil }
        return date.day - 1
    }

    /// Counts a swipe made on local day `date` (ignored when outside the month).
    public mutating func addSwipe(on date: LocalDate, from user: Swipers.User, action: SwipeAction) {
        guard let i = index(date) else { return }
        days[i].swipes += 1
        swipers[i].insert(user)
        switch action {
        case .like: days[i].likes += 1
        case .superLike: days[i].superLikes += 1
        case .pass: days[i].passes += 1
        case .report: days[i].reports += 1
        }
    }

    /// Counts a match formed on local day `date` (ignored when outside the month).
    public mutating func addMatch(on date: LocalDate) {
        guard let i = index(date) else { return }
        days[i].matches += 1
    }

    /// Adds another accumulator's counts (swipers are united, so a user in both counts once).
    public mutating func merge(_ other: SwipesDailyAccumulator) {
        precondition(other.month == month, "merging swipes of \(other.month) into \(month)")
        for i in days.indices {
            days[i].swipes += other.days[i].swipes
            days[i].likes += other.days[i].likes
            days[i].superLikes += other.days[i].superLikes
            days[i].passes += other.days[i].passes
            days[i].reports += other.days[i].reports
            days[i].matches += other.days[i].matches
            swipers[i].formUnion(other.swipers[i])
        }
    }

    /// Every day of the month, in order.
    public var result: [SwipesDay] {
        days.indices.map { i in
            var day = days[i]
            day.swipers = swipers[i].count
            return day
        }
    }
}

extension SwipesDailyAccumulator: Equatable where Swipers: Equatable {
    public static func == (a: Self, b: Self) -> Bool { a.month == b.month && a.days == b.days && a.swipers == b.swipers }
}
