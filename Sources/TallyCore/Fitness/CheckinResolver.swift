/// Applies the contract's counting rules to the check-ins of one challenge.
///
/// A check-in counts when its photo is present, the workout lasted at least
/// the minimum, the user was a member of the group at `createdAt`
/// (`joinedAt ≤ createdAt < leftAt`), `createdAt`'s local day is within the
/// challenge's dates (inclusive), and no earlier check-in holds the same
/// `workoutEntryId`. Every other check-in is rejected with the first rule it
/// fails (see ``CheckinRule``), once.
public enum CheckinResolver {
    /// What the rules made of a challenge's check-ins.
    public struct Resolution: Sendable {
        /// Counted check-ins, by createdAt.
        public var counted: [CountedCheckin]
        public var rejects: [Reject]
        /// The rejected check-ins, each with its participant, day, workout and code, in ``rejects``' order.
        public var uncounted: [UncountedCheckin] = []
    }

    /// Resolves `checkins` (all claiming `challenge`), given the group's memberships.
    public static func resolve(challenge: Challenge, checkins: [CheckinFact], memberships: [GroupMembership],
                               minimumMinutes: Int, timezone: ReportTimeZone) -> Resolution {
        var spans: [String: [GroupMembership]] = [:]
        for m in memberships where m.groupId == challenge.groupId { spans[m.userId, default: []].append(m) }
        var counted: [CountedCheckin] = []
        var rejects: [Reject] = []
        var uncounted: [UncountedCheckin] = []
        // Each check-in borrowed where the array holds it: a copy would retain its nine strings.
        func consider(_ checkin: borrowing CheckinFact) {
            let day = timezone.localDate(of: checkin.createdAt)
            if let rule = firstFailedRule(checkin, challenge: challenge, day: day, spans: spans[checkin.userId] ?? [],
                                          minimumMinutes: minimumMinutes) {
                let reason = RejectReason.checkin(rule)
                rejects.append(Reject(dataset: "checkins", file: checkin.source.file, line: checkin.source.line,
                                      id: checkin.id, reason: reason))
                uncounted.append(UncountedCheckin(checkinId: checkin.id, userId: checkin.userId, displayName: checkin.displayName,
                                                  day: day, workoutEntryId: checkin.workoutEntryId, minutes: checkin.minutes,
                                                  reason: reason.code))
            } else {
                counted.append(CountedCheckin(userId: checkin.userId, displayName: checkin.displayName,
                                              minutes: checkin.minutes, createdAt: checkin.createdAt, day: day))
            }
        }
        for i in checkins.indices { consider(checkins[i]) }
        counted.sort { ($0.createdAt, $0.userId) < ($1.createdAt, $1.userId) }
        return Resolution(counted: counted, rejects: rejects, uncounted: uncounted)
    }

    /// The first rule `checkin` fails, or nil when it counts.
    public static func firstFailedRule(_ checkin: CheckinFact, challenge: Challenge, day: LocalDate,
                                       spans: [GroupMembership], minimumMinutes: Int) -> CheckinRule? {
        if checkin.groupId != challenge.groupId {
            return .wrongGroup(checkin: checkin.groupId, challenge: challenge.groupId)
        }
        if checkin.photoURL?.isEmpty ?? true { return .noPhoto }
        if checkin.minutes < minimumMinutes { return .tooShort(minutes: checkin.minutes, minimum: minimumMinutes) }
        if !spans.contains(where: { $0.covers(checkin.createdAt) }) {
            return .notAMember(userId: checkin.userId, groupId: challenge.groupId, at: checkin.createdAt)
        }
        if day < challenge.startDate || day > challenge.endDate {
            return .outsideChallenge(day: day, start: challenge.startDate, end: challenge.endDate)
        }
        if let first = checkin.duplicateOf, let workout = checkin.workoutEntryId {
            return .duplicateWorkout(workoutEntryId: workout, firstCheckin: first)
        }
        return nil
    }
}
