import Testing
@testable import TallyCore

@Suite("Check-in rules")
struct FitnessCheckinRulesTests {
    let member = GroupMembership(groupId: "g1", userId: "u1", joinedAt: ts("2026-09-01T00:00:00Z"),
                                 leftAt: ts("2026-10-20T10:00:00Z"))

    func checkin(_ id: String = "k1", user: String = "u1", group: String = "g1", photo: String? = "https://p/1.jpg",
                 minutes: Int = 45, at created: String = "2026-10-10T19:00:00-03:00", workout: String? = "w1",
                 duplicateOf: String? = nil, line: Int = 2) -> CheckinFact {
        CheckinFact(id: id, groupId: group, challengeId: "c1", userId: user, displayName: "Ana", photoURL: photo,
                    workoutEntryId: workout, minutes: minutes, createdAt: ts(created), duplicateOf: duplicateOf,
                    source: SourceRef(file: "checkins/checkins.ndjson", line: line))
    }

    func resolve(_ checkins: [CheckinFact], minimum: Int = 30) -> CheckinResolver.Resolution {
        CheckinResolver.resolve(challenge: challengeC1, checkins: checkins, memberships: [member],
                                minimumMinutes: minimum, timezone: saoPaulo)
    }

    @Test func aValidCheckinCounts() {
        let r = resolve([checkin()])
        #expect(r.rejects.isEmpty)
        #expect(r.counted.count == 1)
        #expect(r.counted[0].day == day("2026-10-10"))
        #expect(r.counted[0].minutes == 45)
    }

    @Test(arguments: [nil, ""])
    func noPhotoIsRejected(photo: String?) {
        let r = resolve([checkin(photo: photo)])
        #expect(r.counted.isEmpty)
        #expect(r.rejects.map(\.reason) == ["check-in without a photo (checkInPhotoURL is empty)"])
        #expect(r.rejects[0].file == "checkins/checkins.ndjson" && r.rejects[0].line == 2 && r.rejects[0].id == "k1")
    }

    @Test func minimumMinutesIsInclusiveAndConfigurable() {
        #expect(resolve([checkin(minutes: 30)]).counted.count == 1)
        #expect(resolve([checkin(minutes: 29)]).rejects.map(\.reason) == ["workout of 29 minutes is under the minimum of 30"])
        #expect(resolve([checkin(minutes: 40)], minimum: 45).rejects.count == 1)
    }

    @Test func membershipIsJoinedAtInclusiveLeftAtExclusive() {
        #expect(resolve([checkin(at: "2026-10-20T09:59:59Z")]).counted.count == 1)
        let left = resolve([checkin(at: "2026-10-20T10:00:00Z")])
        #expect(left.rejects.map(\.reason) == ["user 'u1' was not a member of group 'g1' at 2026-10-20T10:00:00Z"])
        #expect(resolve([checkin(user: "stranger")]).rejects.count == 1)
        let rejoined = CheckinResolver.resolve(
            challenge: challengeC1, checkins: [checkin(at: "2026-10-25T12:00:00Z")],
            memberships: [member, GroupMembership(groupId: "g1", userId: "u1", joinedAt: ts("2026-10-24T00:00:00Z"), leftAt: nil)],
            minimumMinutes: 30, timezone: saoPaulo)
        #expect(rejoined.counted.count == 1)
    }

    @Test func challengeDatesAreLocalDaysInclusive() {
        // 23:50 in São Paulo on Sep 30 is Oct 1 in UTC: still outside.
        let before = resolve([checkin(at: "2026-10-01T02:50:00Z")])
        #expect(before.rejects.map(\.reason) == ["check-in on 2026-09-30 is outside the challenge's dates 2026-10-01…2026-10-31"])
        // 00:10 local on Oct 1 (03:10 UTC) counts.
        #expect(resolve([checkin(at: "2026-10-01T03:10:00Z")]).counted.count == 1)
        // 23:59 local on Oct 31 counts though UTC is Nov 1; 00:00 local Nov 1 does not.
        let lateMember = GroupMembership(groupId: "g1", userId: "u1", joinedAt: ts("2026-09-01T00:00:00Z"), leftAt: nil)
        let edge = CheckinResolver.resolve(challenge: challengeC1,
                                           checkins: [checkin("a", at: "2026-11-01T02:59:00Z", workout: "wa"),
                                                      checkin("b", at: "2026-11-01T03:00:00Z", workout: "wb")],
                                           memberships: [lateMember], minimumMinutes: 30, timezone: saoPaulo)
        #expect(edge.counted.count == 1)
        #expect(edge.rejects.map(\.id) == ["b"])
    }

    @Test func theLaterCheckinOfAWorkoutIsTheDuplicate() {
        let r = resolve([checkin("k1"), checkin("k2", at: "2026-10-10T19:05:00-03:00", duplicateOf: "k1", line: 3)])
        #expect(r.counted.count == 1)
        #expect(r.rejects.map(\.id) == ["k2"])
        #expect(r.rejects[0].reason == "duplicate check-in of workout 'w1' (first checked in by 'k1')")
    }

    @Test func eachRejectedCheckinGetsOneReasonTheFirstRuleItFails() {
        // No photo, too short, and a duplicate: reported once, as the photo.
        let r = resolve([checkin(photo: nil, minutes: 5, duplicateOf: "k0")])
        #expect(r.rejects.count == 1)
        #expect(r.rejects[0].reason.contains("photo"))
    }

    @Test func aCheckinOfAnotherGroupIsRejected() {
        let r = resolve([checkin(group: "g2")])
        #expect(r.rejects.map(\.reason) == ["check-in group 'g2' is not the challenge's group 'g1'"])
    }
}
