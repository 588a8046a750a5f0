/// A user's activity on one local day.
public struct DailyActivity: Hashable, Sendable {
    public var userId: String
    public var date: LocalDate
    public var steps: Double
    /// kcal.
    public var activeCalories: Double
    public var walkingDistanceKm: Double

    public init(userId: String, date: LocalDate, steps: Double, activeCalories: Double, walkingDistanceKm: Double) {
        self.userId = userId
        self.date = date
        self.steps = steps
        self.activeCalories = activeCalories
        self.walkingDistanceKm = walkingDistanceKm
    }

    /// The day's activity score, 0–100 (see ``ActivityScore``).
    public var score: Double { ActivityScore.score(steps: steps, activeCalories: activeCalories, km: walkingDistanceKm) }
}

/// The contract's activity score of a day:
/// `min(steps/10000, 1)·40 + min(activeCalories/500, 1)·30 + min(walkingDistanceKm/5, 1)·30`.
/// Negative inputs (never stored) would count as zero.
public enum ActivityScore {
    public static let stepsGoal = 10_000.0
    public static let caloriesGoal = 500.0
    public static let kmGoal = 5.0
    /// The points each part is worth at its goal (they add up to 100).
    public static let stepsWeight = 40.0
    public static let caloriesWeight = 30.0
    public static let kmWeight = 30.0

    public static func score(steps: Double, activeCalories: Double, km: Double) -> Double {
        func part(_ value: Double, _ goal: Double) -> Double { min(max(value, 0) / goal, 1) }
        return part(steps, stepsGoal) * stepsWeight + part(activeCalories, caloriesGoal) * caloriesWeight
            + part(km, kmGoal) * kmWeight
    }

    /// `value` with `decimals` digits, rounded half away from zero (`12.25 → "12.3"` when the double is exact).
    public static func format(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        // Nudge by a relative epsilon so values like 72.45 (stored as 72.4499…) round as written.
        let scaled = value * scale
        let nudged = scaled + (scaled >= 0 ? 1 : -1) * abs(scaled) * 1e-12
        let units = Int64(nudged.rounded(.toNearestOrAwayFromZero))
        let negative = units < 0
        let magnitude = units.magnitude
        var digits = String(magnitude)
        guard decimals > 0 else { return (negative ? "-" : "") + digits }
        if digits.count <= decimals { digits = String(repeating: "0", count: decimals - digits.count + 1) + digits }
        let cut = digits.index(digits.endIndex, offsetBy: -decimals)
        return (negative ? "-" : "") + digits[..<cut] + "." + digits[cut...]
    }
}

/// A user's month: days with data, mean and best score, days with at least 10,000 steps.
public struct ActivitySummary: Hashable, Sendable {
    public var userId: String
    public var days: Int
    /// The mean of the exact day scores.
    public var averageScore: Double
    public var bestScore: Double
    /// Days with steps ≥ 10,000.
    public var daysAt10kSteps: Int

    /// A summary with these figures (as read back from the wire).
    public init(userId: String, days: Int, averageScore: Double, bestScore: Double, daysAt10kSteps: Int) {
        self.userId = userId
        self.days = days
        self.averageScore = averageScore
        self.bestScore = bestScore
        self.daysAt10kSteps = daysAt10kSteps
    }

    public init(userId: String, days: [DailyActivity]) {
        self.userId = userId
        self.days = days.count
        let scores = days.map(\.score)
        averageScore = scores.isEmpty ? 0 : scores.reduce(0, +) / Double(scores.count)
        bestScore = scores.max() ?? 0
        daysAt10kSteps = days.filter { $0.steps >= ActivityScore.stepsGoal }.count
    }
}
