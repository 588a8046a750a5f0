import Testing
@testable import TallyCore

@Suite("Activity scores and Apple Health rules")
struct FitnessActivityTests {
    @Test func scoreAtAndBeyondItsCaps() {
        #expect(ActivityScore.score(steps: 0, activeCalories: 0, km: 0) == 0)
        #expect(ActivityScore.score(steps: 10_000, activeCalories: 500, km: 5) == 100)
        #expect(ActivityScore.score(steps: 25_000, activeCalories: 2_000, km: 42) == 100)
        #expect(ActivityScore.score(steps: 5_000, activeCalories: 0, km: 0) == 20)
        #expect(ActivityScore.score(steps: 20_000, activeCalories: 250, km: 1) == 40 + 15 + 6)
        #expect(ActivityScore.score(steps: 0, activeCalories: 500, km: 10) == 60)
    }

    @Test func formattingRoundsHalfAwayFromZero() {
        #expect(ActivityScore.format(72.45, decimals: 1) == "72.5")
        #expect(ActivityScore.format(0.05, decimals: 1) == "0.1")
        #expect(ActivityScore.format(100, decimals: 1) == "100.0")
        #expect(ActivityScore.format(0, decimals: 2) == "0.00")
        #expect(ActivityScore.format(9_999.5, decimals: 0) == "10000")
        #expect(ActivityScore.format(0.004, decimals: 2) == "0.00")
    }

    @Test func summaryMeanOfExactScoresBestAndTenKDays() {
        let days = [DailyActivity(userId: "u", date: day("2026-10-01"), steps: 10_000, activeCalories: 0, walkingDistanceKm: 0),
                    DailyActivity(userId: "u", date: day("2026-10-02"), steps: 9_999, activeCalories: 500, walkingDistanceKm: 5),
                    DailyActivity(userId: "u", date: day("2026-10-03"), steps: 12_000, activeCalories: 100, walkingDistanceKm: 2)]
        let s = ActivitySummary(userId: "u", days: days)
        #expect(s.days == 3)
        #expect(s.daysAt10kSteps == 2)
        #expect(abs(s.bestScore - 99.996) < 1e-9)
        #expect(abs(s.averageScore - (40 + 99.996 + 40 + 6 + 12) / 3) < 1e-9)
    }

    @Test(arguments: [
        (HealthQuantity.steps, "count", 1.0),
        (.activeEnergy, "kcal", 1.0), (.activeEnergy, "Cal", 1.0), (.activeEnergy, "kJ", 1 / 4.184),
        (.walkingDistance, "km", 1.0), (.walkingDistance, "m", 0.001), (.walkingDistance, "mi", 1.609344),
    ])
    func unitConversions(quantity: HealthQuantity, unit: String, factor: Double) {
        #expect(quantity.factor(unit: unit) == factor)
    }

    @Test func unknownUnitsAreRefused() {
        #expect(HealthQuantity.steps.factor(unit: "km") == nil)
        #expect(HealthQuantity.activeEnergy.factor(unit: "count") == nil)
        #expect(HealthQuantity.walkingDistance.factor(unit: "KM") == nil)
        #expect(HealthQuantity.walkingDistance.factor(unit: "") == nil)
    }

    @Test func aDayIsTheLargestPerSourceSumNotTheTotal() {
        var totals = DailySourceTotals()
        let d = day("2026-10-10")
        // The phone and the watch saw the same two walks.
        totals.add(.steps, value: 3_000, day: d, source: "iPhone")
        totals.add(.steps, value: 2_000, day: d, source: "iPhone")
        totals.add(.steps, value: 2_900, day: d, source: "Apple Watch")
        totals.add(.steps, value: 2_300, day: d, source: "Apple Watch")
        totals.add(.walkingDistance, value: 1.2, day: d, source: "Strava")
        totals.add(.walkingDistance, value: 3.0, day: d, source: "iPhone")
        let days = totals.days(userId: "u")
        #expect(days.count == 1)
        #expect(days[0].steps == 5_200)
        #expect(days[0].walkingDistanceKm == 3.0)
        #expect(days[0].activeCalories == 0)
        #expect(totals.records == 6)
    }

    @Test func recordsFallOnTheLocalDayOfTheirStartInTheReportTimeZone() {
        var totals = DailySourceTotals()
        // 23:30 in São Paulo on Oct 9 is 02:30 UTC on Oct 10.
        for (start, steps) in [("2026-10-10T02:30:00Z", 100.0), ("2026-10-10T03:00:00Z", 200.0), ("2026-10-09 23:59:59 -0300", 50.0)] {
            let instant = start.contains("T") ? ts(start) : ts(start.replacingOccurrences(of: " -0300", with: "-03:00").replacingOccurrences(of: " ", with: "T"))
            totals.add(.steps, value: steps, day: saoPaulo.localDate(of: instant), source: "iPhone")
        }
        let days = totals.days(userId: "u")
        #expect(days.map(\.date) == [day("2026-10-09"), day("2026-10-10")])
        #expect(days.map(\.steps) == [150, 200])
    }
}
