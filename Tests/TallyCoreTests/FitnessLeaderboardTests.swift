import Testing
@testable import TallyCore

@Suite("Leaderboards")
struct FitnessLeaderboardTests {
    func row(_ user: String, _ checkins: Int, _ minutes: Int) -> LeaderboardBuilder.RankedRow {
        LeaderboardBuilder.RankedRow(rank: 0, userId: user, displayName: user, checkins: checkins, minutes: minutes)
    }

    @Test func standardCompetitionRanking() {
        let ranked = LeaderboardBuilder.rank([row("d", 3, 90), row("a", 5, 150), row("c", 4, 120), row("b", 4, 120)])
        #expect(ranked.map(\.userId) == ["a", "b", "c", "d"])
        #expect(ranked.map(\.rank) == [1, 2, 2, 4])
    }

    @Test func tiesOnPointsAreBrokenByMinutes() {
        let ranked = LeaderboardBuilder.rank([row("a", 4, 100), row("b", 4, 180), row("c", 4, 100), row("d", 2, 500)])
        #expect(ranked.map(\.userId) == ["b", "a", "c", "d"])
        #expect(ranked.map(\.rank) == [1, 2, 2, 4])
    }

    @Test func pointsAndMinutesCountUpToTheAsOfDay() {
        let checkins = [counted("a", "2026-10-02", minutes: 40), counted("a", "2026-10-03", minutes: 50),
                        counted("b", "2026-10-03", minutes: 30), counted("b", "2026-10-20", minutes: 30)]
        let board = LeaderboardBuilder.build(challenge: challengeC1, counted: checkins, asOf: day("2026-10-10"), rankChangeDays: 7)
        #expect(board.entries.map(\.userId) == ["a", "b"])
        #expect(board.entries.map(\.checkins) == [2, 1])
        #expect(board.entries.map(\.minutes) == [90, 30])
        #expect(board.comparedWith == day("2026-10-03"))
    }

    @Test func rankChangeComparesWithSevenDaysEarlierAndMarksNewcomers() {
        // On Oct 8: b first (2), a second (1). On Oct 15: a overtakes (4), b (2), c new.
        let checkins = [counted("b", "2026-10-05"), counted("b", "2026-10-06"), counted("a", "2026-10-07"),
                        counted("a", "2026-10-10"), counted("a", "2026-10-11"), counted("a", "2026-10-12"),
                        counted("c", "2026-10-14")]
        let board = LeaderboardBuilder.build(challenge: challengeC1, counted: checkins, asOf: day("2026-10-15"), rankChangeDays: 7)
        let change = Dictionary(uniqueKeysWithValues: board.entries.map { ($0.userId, $0.rankChange) })
        #expect(board.entries.map(\.userId) == ["a", "b", "c"])
        #expect(change["a"] == .some(1))
        #expect(change["b"] == .some(-1))
        #expect(change["c"] == .some(nil))
        #expect(board.entries.first { $0.userId == "c" }!.isNewcomer)
    }

    @Test func aChallengeNotStartedSevenDaysEarlierHasOnlyNewcomers() {
        let late = Challenge(id: "c2", groupId: "g1", name: "Sprint", startDate: day("2026-10-12"), endDate: day("2026-10-30"))
        let board = LeaderboardBuilder.build(challenge: late, counted: [counted("a", "2026-10-12"), counted("b", "2026-10-13")],
                                             asOf: day("2026-10-15"), rankChangeDays: 7)
        #expect(board.entries.count == 2)
        #expect(board.entries.allSatisfy { $0.rankChange == nil })
    }

    @Test func rankChangeDaysIsConfigurable() {
        let checkins = [counted("a", "2026-10-13", minutes: 60), counted("b", "2026-10-14"), counted("b", "2026-10-15")]
        let board = LeaderboardBuilder.build(challenge: challengeC1, counted: checkins, asOf: day("2026-10-15"), rankChangeDays: 1)
        #expect(board.entries.map(\.rankChange) == [1, -1])
    }

    @Test func displayNameIsTheLatestCheckins() {
        let checkins = [counted("a", "2026-10-02", name: "Ana"), counted("a", "2026-10-03", name: "Ana B.")]
        let board = LeaderboardBuilder.build(challenge: challengeC1, counted: checkins, asOf: day("2026-10-10"), rankChangeDays: 7)
        #expect(board.entries[0].displayName == "Ana B.")
    }

    @Test func streaksCurrentAndBest() {
        let days = ["2026-10-01", "2026-10-02", "2026-10-03", "2026-10-05", "2026-10-06"].map(day)
        #expect(Streaks.of(days: days, asOf: day("2026-10-06")) == Streaks(current: 2, best: 3))
        // Still alive the next day, broken after a whole day without.
        #expect(Streaks.of(days: days, asOf: day("2026-10-07")) == Streaks(current: 2, best: 3))
        #expect(Streaks.of(days: days, asOf: day("2026-10-08")) == Streaks(current: 0, best: 3))
        // Days after the as-of day are ignored; repeats count once.
        #expect(Streaks.of(days: days + [day("2026-10-02")], asOf: day("2026-10-02")) == Streaks(current: 2, best: 2))
        #expect(Streaks.of(days: [], asOf: day("2026-10-02")) == Streaks(current: 0, best: 0))
    }

    @Test func streaksSpanMonthEnds() {
        let days = ["2026-09-29", "2026-09-30", "2026-10-01"].map(day)
        #expect(Streaks.of(days: days, asOf: day("2026-10-01")) == Streaks(current: 3, best: 3))
    }
}
