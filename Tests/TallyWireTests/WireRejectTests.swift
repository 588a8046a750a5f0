import Testing
@testable import TallyCore
@testable import TallyWire

/// The wire forms that carry rejects and the rows that did not count.
@Suite("Reject codes on the wire")
struct WireRejectTests {
    static let challenge = Challenge(id: "c1", groupId: "g1", name: "Outubro", startDate: day("2026-10-01"), endDate: day("2026-10-31"))

    @Test func aRejectKeepsItsCodeAndABoardItsCheckInsThatDidNotCount() throws {
        for code in RejectCode.allCases {
            let reject = Reject(dataset: "checkins", file: "checkins/c.ndjson", line: 9, id: "k\t1",
                                reason: RejectReason(code: code, text: "why, with a\ttab"))
            #expect(try wireRoundTrip(reject) == reject)
        }
        var board = Leaderboard(challenge: WireRejectTests.challenge, asOf: day("2026-10-31"), comparedWith: day("2026-10-24"), entries: [])
        board.uncounted = [
            UncountedCheckin(checkinId: "k1", userId: "u1", displayName: "Ana", day: day("2026-10-03"), workoutEntryId: nil,
                             minutes: 12, reason: .workoutTooShort),
            UncountedCheckin(checkinId: "k2", userId: "u\t2", displayName: "", day: day("2026-10-04"), workoutEntryId: "w2",
                             minutes: 0, reason: .checkinDuplicateWorkout),
        ]
        let rows = LeaderboardsFamily.Rows(board: board, rejects: [])
        #expect(try wireRoundTrip(rows).board == board)
        #expect(wireError("reject.v2\td\tf\t1\tid\twhy\tnot_a_code", as: Reject.self)?.reason.contains("is not one of") == true)
    }
}
