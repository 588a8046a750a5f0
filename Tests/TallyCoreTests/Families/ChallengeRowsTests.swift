import Testing
@testable import TallyCore

/// ``LeaderboardsFamily/partition(_:)``: the one place a challenge key's
/// rows are decided and ordered.
@Suite("A challenge key's rows")
struct ChallengeRowsTests {
    func checkin(_ id: String, user: String, at seconds: Int64, line: Int) -> CheckinFact {
        CheckinFact(id: id, groupId: "g1", challengeId: "ch1", userId: user, displayName: user, photoURL: "https://p/\(id).jpg",
                    workoutEntryId: "w-\(id)", minutes: 45, createdAt: Timestamp(seconds: 1_790_000_000 + seconds),
                    duplicateOf: nil, source: SourceRef(file: "checkins/checkins.ndjson", line: line))
    }

    func rows(challenge: Bool) -> ChallengeRows {
        var rows = ChallengeRows(key: "ch1", challenge: challenge
            ? Challenge(id: "ch1", groupId: "g1", name: "Outubro", startDate: day("2026-09-01"), endDate: day("2026-12-31")) : nil)
        rows.checkins = [checkin("k3", user: "bia", at: 20, line: 4), checkin("k2", user: "ana", at: 10, line: 3),
                         checkin("k1", user: "ana", at: 20, line: 2)]
        rows.memberships = [GroupMembership(groupId: "g1", userId: "bia", joinedAt: Timestamp(seconds: 5), leftAt: nil),
                            GroupMembership(groupId: "g1", userId: "ana", joinedAt: Timestamp(seconds: 9), leftAt: nil),
                            GroupMembership(groupId: "g1", userId: "ana", joinedAt: Timestamp(seconds: 1), leftAt: Timestamp(seconds: 3))]
        return rows
    }

    @Test("with its challenge: check-ins by createdAt then id, memberships by user then joinedAt, nothing rejected")
    func aKnownChallenge() {
        let assembly = LeaderboardsFamily.partition(rows(challenge: true))
        #expect(assembly.partition?.checkins.map(\.id) == ["k2", "k1", "k3"])
        #expect(assembly.partition?.memberships.map { "\($0.userId)@\($0.joinedAt.microseconds / 1_000_000)" } == ["ana@1", "ana@9", "bia@5"])
        #expect(assembly.rejects.isEmpty)
    }

    @Test("without its challenge: each check-in is an orphan, worded by OrphanRule")
    func anUnknownChallenge() {
        let assembly = LeaderboardsFamily.partition(rows(challenge: false))
        #expect(assembly.partition.map(\.challenge.id) == nil)
        let reason = OrphanRule.reject(.checkin, parentId: "ch1", parentExists: false)!
        #expect(assembly.rejects.map { "\($0.line) \($0.id) \($0.reason)" } == ["4 k3 \(reason)", "3 k2 \(reason)", "2 k1 \(reason)"])
        let family = LeaderboardsFamily(settings: .init(asOf: day("2026-10-31"), timezone: ReportTimeZone(identifier: "UTC")!))
        #expect(family.compute(key: rows(challenge: false)).unattached.rejects.count == 3)
        #expect(family.compute(key: rows(challenge: true)).board?.key == PartitionKey("ch1"))
    }
}
