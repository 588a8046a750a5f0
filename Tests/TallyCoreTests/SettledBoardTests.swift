import PropertyBased
import Testing
@testable import TallyCore

/// A settled board (``SettledBoard``) is the board of every later day, but for its days.
@Suite("Settled boards")
struct SettledBoardTests {
    /// Random check-ins of up to 8 members of g1 for challenge c1 (October), from late September to
    /// mid-November: some without a photo, some too short, some outside the challenge's dates.
    static func rows(seed: UInt64) -> ChallengeRows {
        var rng = SplitMix64(seed: seed)
        var rows = ChallengeRows(key: "c1", challenge: challengeC1)
        rows.memberships = (0..<8).map {
            GroupMembership(groupId: "g1", userId: "u\($0)", joinedAt: ts("2026-09-01T00:00:00-03:00"), leftAt: nil)
        }
        let lateDays = Int.random(in: 0...15, using: &rng)
        rows.checkins = (0..<Int.random(in: 0...50, using: &rng)).map { i in
            let date = day("2026-09-25").adding(days: Int.random(in: 0...(36 + lateDays), using: &rng))
            return CheckinFact(id: "k\(i)", groupId: "g1", challengeId: "c1", userId: "u\(Int.random(in: 0..<8, using: &rng))",
                               displayName: "U", photoURL: Int.random(in: 0..<10, using: &rng) == 0 ? nil : "https://p/\(i)",
                               workoutEntryId: "w\(i)", minutes: [20, 30, 45, 60].randomElement(using: &rng)!,
                               createdAt: ts("\(date)T12:00:00-03:00"), duplicateOf: nil,
                               source: SourceRef(file: "checkins/checkins.ndjson", line: i + 1))
        }
        return rows
    }

    static func settings(_ asOf: LocalDate) -> LeaderboardsFamily.Settings {
        LeaderboardsFamily.Settings(asOf: asOf, timezone: saoPaulo)
    }

    @Test func aSettledResultIsTheResultOfEveryLaterDay() async {
        var settledCount = 0
        await propertyCheck(count: 300, input: Gen.uint64(), Gen.int(in: 0...60), Gen.int(in: 0...60)) { seed, first, later in
            let rows = Self.rows(seed: seed)
            let asOf = day("2026-10-20").adding(days: first)
            let result = LeaderboardsFamily(settings: Self.settings(asOf)).compute(key: rows)
            guard SettledBoard.isSettled(result, rows: rows, settings: Self.settings(asOf)) else { return }
            settledCount += 1
            let laterDay = asOf.adding(days: later)
            let rebased = SettledBoard.rebased(result, settings: Self.settings(laterDay))
            let computed = LeaderboardsFamily(settings: Self.settings(laterDay)).compute(key: rows)
            #expect(rebased.board?.rows.board == computed.board?.rows.board, "seed \(seed), \(asOf) → \(laterDay)")
            #expect(rebased.board?.rows.rejects == computed.board?.rows.rejects)
            let (a, b) = (rebased.board?.summary, computed.board?.summary)
            #expect(a?.boards == b?.boards && a?.users == b?.users && a?.counted == b?.counted)
            #expect(a?.rejects.sorted == b?.rejects.sorted && a?.mismatched == b?.mismatched && a?.largest == b?.largest)
        }
        #expect(settledCount > 30, "too few settled cases to say anything: \(settledCount)")
    }

    @Test func whatKeepsABoardFromSettling() {
        var rows = Self.rows(seed: 7)
        rows.checkins = [CheckinFact(id: "k1", groupId: "g1", challengeId: "c1", userId: "u1", displayName: "U",
                                     photoURL: "https://p/1", workoutEntryId: "w1", minutes: 45,
                                     createdAt: ts("2026-10-10T12:00:00-03:00"), duplicateOf: nil,
                                     source: SourceRef(file: "checkins/checkins.ndjson", line: 1))]
        func settled(_ asOf: String, _ rows: ChallengeRows) -> Bool {
            let settings = Self.settings(day(asOf))
            return SettledBoard.isSettled(LeaderboardsFamily(settings: settings).compute(key: rows), rows: rows, settings: settings)
        }
        // Ends on 31 October; ranks are compared 7 days back.
        #expect(!settled("2026-10-31", rows))      // not ended before the day
        #expect(!settled("2026-11-06", rows))      // compared with 30 October, before its end
        #expect(settled("2026-11-07", rows))
        var late = rows
        late.checkins.append(CheckinFact(id: "k2", groupId: "g1", challengeId: "c1", userId: "u2", displayName: "U",
                                         photoURL: "https://p/2", workoutEntryId: "w2", minutes: 45,
                                         createdAt: ts("2026-11-20T12:00:00-03:00"), duplicateOf: nil,
                                         source: SourceRef(file: "checkins/checkins.ndjson", line: 2)))
        #expect(!settled("2026-11-07", late))      // a check-in after the day would be listed later
        #expect(settled("2026-11-20", late))
        // Check-ins of no challenge are rejects whatever the day.
        var orphans = rows
        orphans.challenge = nil
        #expect(settled("2026-10-01", orphans))
    }
}
