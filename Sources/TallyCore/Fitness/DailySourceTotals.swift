/// Daily totals of Apple Health records for one user, per quantity, local
/// day and source; memory grows with days × sources, not with records.
///
/// A phone and a watch record the same walk, so a day's value for a
/// quantity is the largest of the per-source (`sourceName`) daily sums, not
/// their total.
public struct DailySourceTotals: Sendable {
    private struct Key: Hashable {
        var quantity: HealthQuantity
        var day: Int64
        var source: Int
    }

    private var sums: [Key: Double] = [:]
    private var sources: [String: Int] = [:]
    /// Records added.
    public private(set) var records = 0

    public init() {}

    /// Adds one record's value (already in tally's unit) on its local day.
    public mutating func add(_ quantity: HealthQuantity, value: Double, day: LocalDate, source: String) {
        let index: Int
        if let known = sources[source] { index = known } else { index = sources.count; sources[source] = index }
        sums[Key(quantity: quantity, day: day.daysSinceEpoch, source: index), default: 0] += value
        records += 1
    }

    /// One row per local day with any record, by date; a quantity without records that day is 0.
    public func days(userId: String) -> [DailyActivity] {
        var best: [Int64: [HealthQuantity: Double]] = [:]
        for (key, sum) in sums {
            var day = best[key.day] ?? [:]
            day[key.quantity] = max(day[key.quantity] ?? -.infinity, sum)
            best[key.day] = day
        }
        return best.keys.sorted().map { day in
            let values = best[day]!
            return DailyActivity(userId: userId, date: LocalDate(daysSinceEpoch: day), steps: values[.steps] ?? 0,
                                 activeCalories: values[.activeEnergy] ?? 0,
                                 walkingDistanceKm: values[.walkingDistance] ?? 0)
        }
    }
}
