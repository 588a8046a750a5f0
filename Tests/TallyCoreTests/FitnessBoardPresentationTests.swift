import Testing
@testable import TallyCore

@Suite("Leaderboards: names told apart, final boards; activity ranking")
struct FitnessBoardPresentationTests {
    @Test func uniqueNamesAreLeftAsTheyAre() {
        #expect(DistinctNames.shown([("u1", "Ana"), ("u2", "Bia")]) == ["Ana", "Bia"])
        #expect(DistinctNames.shown([]) == [])
    }

    @Test func aSharedNameGetsAShortIdSuffix() {
        let shown = DistinctNames.shown([("XOuxBTMVUI2X9Hwg", "João Silva"), ("u-3", "Bia"), ("pQ7rqQYW", "João Silva")])
        #expect(shown == ["João Silva (…9Hwg)", "Bia", "João Silva (…qQYW)"])
    }

    @Test func theSuffixGrowsUntilTheIdsDiffer() {
        let shown = DistinctNames.shown([("aa-0001", "Ana"), ("bb-0001", "Ana"), ("cc-0002", "Ana")])
        // Four and five characters leave two ids alike; six tell all three apart, for every user of the name.
        #expect(shown == ["Ana (…a-0001)", "Ana (…b-0001)", "Ana (…c-0002)"])
    }

    @Test func namesDifferingOnlyBySurroundingSpacesAreTheSameName() {
        let shown = DistinctNames.shown([("user-1111", "Ana "), ("user-2222", " Ana")])
        #expect(shown == ["Ana  (…1111)", " Ana (…2222)"])
    }

    @Test func aNameIsTrimmedOfWholeSpaceCharactersOnly() {
        // A space that a combining mark follows is part of another character: kept.
        let cases = ["Ana", " Ana", "Ana ", "  Ana  ", " ", "", "\u{301}Ana", " \u{301}Ana", "Ana \u{301}", "Ana\u{301} ", "Zoë", "👩‍👩‍👧 "]
        for name in cases {
            let characters = String(name.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
            #expect(DistinctNames.key(name) == characters, "\(Array(name.unicodeScalars))")
        }
        #expect(DistinctNames.key(" \u{301}Ana") == " \u{301}Ana")
    }

    @Test func aShortIdIsShownWhole() {
        #expect(DistinctNames.shown([("u1", "Ana"), ("u2", "Ana")]) == ["Ana (u1)", "Ana (u2)"])
    }

    @Test func aBoardOfAChallengeThatEndedBeforeTheAsOfDayIsFinal() {
        let june = Challenge(id: "c2", groupId: "g1", name: "Junho", startDate: day("2026-06-01"), endDate: day("2026-06-30"))
        let checkins = [counted("a", "2026-06-28"), counted("a", "2026-06-29"), counted("a", "2026-06-30"), counted("b", "2026-06-10")]
        let board = LeaderboardBuilder.build(challenge: june, counted: checkins, asOf: day("2026-10-31"), rankChangeDays: 7)
        #expect(board.isFinal)
        #expect(board.standingsDay == day("2026-06-30"))
        // The streak a user ended the challenge with, not 0 because October has no check-ins.
        #expect(board.entries.first { $0.userId == "a" }?.streaks == Streaks(current: 3, best: 3))
        #expect(board.entries.first { $0.userId == "b" }?.streaks == Streaks(current: 0, best: 1))
    }

    @Test func aBoardOnOrBeforeTheEndDateIsNotFinal() {
        let onLastDay = LeaderboardBuilder.build(challenge: challengeC1, counted: [counted("a", "2026-10-31")],
                                                 asOf: day("2026-10-31"), rankChangeDays: 7)
        #expect(!onLastDay.isFinal)
        #expect(onLastDay.standingsDay == day("2026-10-31"))
        let midway = LeaderboardBuilder.build(challenge: challengeC1, counted: [], asOf: day("2026-10-15"), rankChangeDays: 7)
        #expect(!midway.isFinal)
        #expect(midway.entries.isEmpty)
    }

    @Test func aBoardsShownNamesTellDuplicatesApart() {
        let checkins = [counted("user-aaaa", "2026-10-02", name: "Rui"), counted("user-bbbb", "2026-10-03", name: "Rui"),
                        counted("user-cccc", "2026-10-03", name: "Lia")]
        let board = LeaderboardBuilder.build(challenge: challengeC1, counted: checkins, asOf: day("2026-10-31"), rankChangeDays: 7)
        #expect(Set(board.shownNames) == ["Rui (…aaaa)", "Rui (…bbbb)", "Lia"])
        #expect(board.entries.map(\.displayName).filter { $0 == "Rui" }.count == 2)
    }

    @Test func activityIsRankedByAverageScoreAsShown() {
        func summary(_ user: String, _ scores: [Double]) -> ActivitySummary {
            ActivitySummary(userId: user, days: scores.enumerated().map { i, score in
                // steps alone make the score: 10,000 steps = 40 points.
                DailyActivity(userId: user, date: day("2026-10-01").adding(days: i), steps: score / 40 * 10_000,
                              activeCalories: 0, walkingDistanceKm: 0)
            })
        }
        let ranked = ActivityRanking.rank([summary("c", [20]), summary("a", [30, 10]), summary("b", [40]),
                                           summary("d", [20.04])])
        // a (20.0), c (20.0) and d (20.04, shown 20.0) tie behind b (40.0).
        #expect(ranked.map(\.summary.userId) == ["b", "a", "c", "d"])
        #expect(ranked.map(\.rank) == [1, 2, 2, 2])
        #expect(ActivityRanking.rank([]).isEmpty)
    }
}
