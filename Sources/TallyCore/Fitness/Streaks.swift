/// Streaks: runs of consecutive local days with at least one counted check-in.
public struct Streaks: Hashable, Sendable {
    /// The run that ends on the as-of day or the day before (a streak stays
    /// alive until a whole day passes without a check-in); 0 otherwise.
    public var current: Int
    /// The longest run up to the as-of day.
    public var best: Int

    public init(current: Int, best: Int) {
        self.current = current
        self.best = best
    }

    /// The streaks of `days` (any order, repeats allowed) as of `asOf`; days after it are ignored.
    public static func of(days: some Sequence<LocalDate>, asOf: LocalDate) -> Streaks {
        let limit = asOf.daysSinceEpoch
        let sorted = Set(days.map(\.daysSinceEpoch).filter { $0 <= limit }).sorted()
        var best = 0
        var run = 0
        var previous: Int64?
        for day in sorted {
            run = previous.map { day == $0 + 1 } == true ? run + 1 : 1
            best = max(best, run)
            previous = day
        }
        let current = previous.map { limit - $0 <= 1 } == true ? run : 0
        return Streaks(current: current, best: best)
    }
}
