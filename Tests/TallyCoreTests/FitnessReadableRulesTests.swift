import Testing
@testable import TallyCore

@Suite("Leaderboards and activity: progress, points, short ids, the minimum of days")
struct FitnessReadableRulesTests {
    let project100 = Challenge(id: "c9", groupId: "g1", name: "Projeto 100", startDate: day("2026-10-20"), endDate: day("2026-12-03"))

    @Test func aRunningChallengeIsOnADayOfItsLengthWithTheRestLeft() {
        #expect(ChallengeProgress.of(project100, asOf: day("2026-10-31")) == .running(day: 12, of: 45, daysLeft: 33))
        #expect(ChallengeProgress.of(project100, asOf: day("2026-10-20")) == .running(day: 1, of: 45, daysLeft: 44))
        #expect(ChallengeProgress.of(project100, asOf: day("2026-12-03")) == .running(day: 45, of: 45, daysLeft: 0))
    }

    @Test func aChallengeIsFinishedTheDayAfterItsEndAndUpcomingBeforeItsStart() {
        #expect(ChallengeProgress.of(project100, asOf: day("2026-12-04")) == .finished(endDate: day("2026-12-03"), days: 45))
        #expect(ChallengeProgress.of(project100, asOf: day("2027-03-01")) == .finished(endDate: day("2026-12-03"), days: 45))
        #expect(ChallengeProgress.of(project100, asOf: day("2026-10-17")) == .upcoming(daysToStart: 3))
        let oneDay = Challenge(id: "d", groupId: "g", name: "Dia", startDate: day("2026-10-05"), endDate: day("2026-10-05"))
        #expect(ChallengeProgress.of(oneDay, asOf: day("2026-10-05")) == .running(day: 1, of: 1, daysLeft: 0))
    }

    @Test func theProgressAgreesWithFinalBoardsAndOnlyRunningBoardsShowTheChange() {
        for asOf in ["2026-10-19", "2026-10-20", "2026-11-15", "2026-12-03", "2026-12-04", "2027-01-10"].map(day) {
            let board = LeaderboardBuilder.build(challenge: project100, counted: [counted("a", "2026-10-21")], asOf: asOf, rankChangeDays: 7)
            if case .finished = board.progress { #expect(board.isFinal) } else { #expect(!board.isFinal) }
            #expect(board.showsRankChange == !board.isFinal)
        }
    }

    @Test func pointsAreExplainedByTheConditionsInTheOrderTheyAreChecked() {
        var rules = TallyConfig.Leaderboards()
        rules.minimumWorkoutMinutes = 45
        #expect(PointsRule(rules).conditions == [.challengeGroup, .photo, .minimumMinutes(45), .member, .withinDates, .oncePerWorkout])
        #expect(PointsRule(TallyConfig.Leaderboards()).minimumWorkoutMinutes == 30)
        #expect(PointsRule.pointsPerCheckin == 1)
    }

    @Test func theTieRuleTheReportsDescribeIsTheBoardsRanking() {
        // Points, then minutes; equal on both: a shared rank, the next skipping; ties listed by user id.
        let rows = [("d", 5, 100), ("c", 7, 200), ("b", 5, 150), ("a", 5, 150)].map {
            LeaderboardBuilder.RankedRow(rank: 0, userId: $0.0, displayName: $0.0, checkins: $0.1, minutes: $0.2)
        }
        let ranked = LeaderboardBuilder.rank(rows)
        #expect(ranked.map(\.userId) == ["c", "a", "b", "d"])
        #expect(ranked.map(\.rank) == [1, 2, 2, 4])
    }

    @Test func shortIdsKeepEightCharactersAndShowShortIdsWhole() {
        #expect(ShortIds.shown(["PjUYncKyKP6Wbn6bhBZdCT9K2v9q", "u1", "12345678", "123456789"])
                == ["PjUYncKy…", "u1", "12345678", "12345678…"])
        #expect(ShortIds.shown([]) == [])
        #expect(ShortIds.shown(["abcdefghijk", "abcdefghijk"]) == ["abcdefgh…", "abcdefgh…"], "one id, one form")
    }

    @Test func idsSharingAPrefixAreLengthenedUntilTheyDiffer() {
        #expect(ShortIds.shown(["PjUYncKyKP6Wbn", "PjUYncKyQ0", "PjUYncKyKX", "zz"])
                == ["PjUYncKyKP…", "PjUYncKyQ…", "PjUYncKyKX", "zz"])
        // An id that is another's prefix is shown whole; the ellipsis tells the longer one apart.
        #expect(ShortIds.shown(["abcdefgh", "abcdefghij"]) == ["abcdefgh", "abcdefgh…"])
    }

    @Test func shortenedIdsStayUnique() {
        var generator = SplitMix64(seed: 7)
        let alphabet = Array("ab")
        for _ in 0..<50 {
            // Few letters and shared prefixes make collisions likely.
            let ids = Set((0..<60).map { _ in
                "PjUYncKy" + String((0..<Int(generator.next() % 8)).map { _ in alphabet[Int(generator.next() % 2)] })
            })
            let shown = ShortIds.shown(Array(ids))
            #expect(Set(shown).count == ids.count, "\(ids.sorted())")
            for (id, form) in zip(ids, shown) {
                #expect(form == id || (form.hasSuffix("…") && id.hasPrefix(String(form.dropLast()))), "\(id) → \(form)")
            }
        }
    }

    func summary(_ user: String, days: Int, score: Double) -> ActivitySummary {
        ActivitySummary(userId: user, days: (0..<days).map { i in
            DailyActivity(userId: user, date: day("2026-10-01").adding(days: i), steps: score / 40 * 10_000,
                          activeCalories: 0, walkingDistanceKm: 0)
        })
    }

    @Test func aUserUnderTheMinimumOfDaysIsListedApartNotRanked() {
        let users = [summary("full", days: 31, score: 30), summary("short", days: 3, score: 40), summary("mid", days: 10, score: 35),
                     summary("two", days: 2, score: 10), summary("also3", days: 3, score: 5)]
        let standing = ActivityRanking.standing(users, minimumDays: TallyConfig().activity.minimumDaysRanked)
        #expect(standing.ranked.map { "\($0.rank) \($0.summary.userId)" } == ["1 mid", "2 full"])
        // Most days first, then user id.
        #expect(standing.unranked.map(\.userId) == ["also3", "short", "two"])
        #expect(standing.minimumDays == 7)
        // A minimum of one day ranks everyone, as ``ActivityRanking/rank(_:)`` does.
        #expect(ActivityRanking.standing(users, minimumDays: 1).ranked == ActivityRanking.rank(users))
    }

    @Test func theScoresWeightsAddUpToOneHundred() {
        #expect(ActivityScore.stepsWeight + ActivityScore.caloriesWeight + ActivityScore.kmWeight == 100)
        #expect(ActivityScore.score(steps: 20_000, activeCalories: 900, km: 12) == 100)
        #expect(ActivityScore.score(steps: 5_000, activeCalories: 250, km: 2.5) == 50)
    }
}
