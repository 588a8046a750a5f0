import TallyCore

/// Writes `health/` (FypMatch's HealthKit sync): `activity.csv` (one row per
/// user and day, user by user) and a few Apple Health exports,
/// `health/<userId>/export.xml`, for other users.
struct HealthGenerator {
    let context: GenerationContext

    func generate(into summary: inout GenerationSummary) throws {
        var random = context.random(20)
        try writeActivity(random: &random, into: &summary)
        for index in 0..<context.profile.appleHealthExports {
            let userId = context.fypMatchUser(context.profile.healthUsers + index)
            let writer = AppleHealthExportWriter(context: context, persona: AppleHealthExportWriter.Persona.all[index % 3],
                                                 userId: userId, exportIndex: index)
            try writer.write(random: &random, into: &summary)
        }
    }

    private func writeActivity(random: inout RandomSource, into summary: inout GenerationSummary) throws {
        let window = context.window
        let table = try context.open("health/activity.csv", format: "CSV, LF, camelCase header")
        table.csvHeader(["userId", "date", "steps", "activeCalories", "walkingDistanceKm"])
        let expected = context.profile.healthUsers * window.dayCount * 9 / 10
        var schedule = BadRowSchedule(kinds: [.healthNegativeSteps], perKind: context.profile.badRowsPerKind,
                                      expectedGoodRows: expected, random: &random)
        for index in 0..<context.profile.healthUsers {
            let userId = context.fypMatchUser(index)
            let baseSteps = 3_000 + Double(random.int(9_000))
            // A fifth start later, within the first half of the own window (or of a shorter one).
            let firstDay = random.chance(0.2) ? random.int(min(window.dayCount, context.ownWindow.dayCount) / 2) : 0
            let lastDay = random.chance(0.05) ? window.dayCount - 1 - random.int(60) : window.dayCount - 1
            var previous: (day: LocalDate, steps: Int64)? = nil
            var previousHadReject = false
            for offset in firstDay...max(firstDay, lastDay) {
                if random.chance(0.08) { previous = nil; continue }
                let day = window.day(offset)
                let weekend = (day.daysSinceEpoch + 4) % 7 == 0 || (day.daysSinceEpoch + 4) % 7 == 6
                let steps = Int64(max(0, baseSteps * (weekend ? 1.25 : 1) * (1 + 0.6 * random.bell())))
                try writeRow(table, userId: userId, day: day, steps: steps, random: &random)
                var rejectedToday = false
                if let kind = schedule.tick() {
                    // A broken re-sync of the same day, which must not override the good row.
                    try writeRow(table, userId: userId, day: day, steps: -Int64(50 + random.int(2_000)), random: &random)
                    summary.add(kind)
                    rejectedToday = true
                }
                if let earlier = previous, !previousHadReject, random.chance(0.015) {
                    // The phone synced yesterday again, with the steps walked after the first sync.
                    try writeRow(table, userId: userId, day: earlier.day, steps: earlier.steps + Int64(random.int(3_000)),
                                 random: &random)
                    summary.add(.healthRepeatedDay)
                    previous = nil
                } else {
                    previous = (day, steps)
                }
                previousHadReject = rejectedToday
            }
        }
        for kind in schedule.drain() {
            try writeRow(table, userId: context.fypMatchUser(0), day: window.lastDay, steps: -1, random: &random)
            summary.add(kind)
        }
        try context.finish(table, into: &summary)
    }

    /// One row; calories (1 decimal) and distance (2 decimals) follow the steps loosely.
    private func writeRow(_ table: TableFile, userId: String, day: LocalDate, steps: Int64,
                          random: inout RandomSource) throws {
        let magnitude = Double(steps.magnitude)
        table.csv(userId)
        table.csvDate(day)
        table.csvInt(steps)
        table.csvDecimal(Int64(magnitude * 0.4 * (0.8 + 0.4 * random.unit())) + Int64(random.int(10)), scale: 1)
        table.csvDecimal(Int64(magnitude * 0.075 * (0.9 + 0.2 * random.unit())), scale: 2)
        try table.endRecord()
    }
}
