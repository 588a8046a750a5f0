import TallyCore

/// Decodes the rows of `health/activity` (FypMatch's HealthKit sync).
public enum HealthDecoders {
    public static func activity(_ f: FieldDecoder) throws(FieldError) -> ActivityRecord {
        let user = try f.required(0)
        let date = try f.date(1)
        if let bytes = f.view.bytes(2), bytes.first == UInt8(ascii: "-") {
            throw FieldError(.negative(field: "steps", value: f.optional(2) ?? ""))
        }
        let steps = try f.integer(2, in: 0...10_000_000)
        let calories = try nonNegative(f, 3)
        let km = try nonNegative(f, 4)
        return ActivityRecord(day: DailyActivity(userId: user, date: date, steps: Double(steps),
                                                 activeCalories: calories, walkingDistanceKm: km))
    }

    /// A decimal ≥ 0 as a Double.
    static func nonNegative(_ f: FieldDecoder, _ index: Int) throws(FieldError) -> Double {
        let value = try f.decimal(index)
        guard !value.isNegative else { throw FieldError(.negative(field: f.fields[index], value: "\(value)")) }
        // The decimal text read as a Double is correctly rounded (mantissa / 10^scale is not, always).
        return Double(value.description) ?? 0
    }
}
