import TallyCore

/// Decodes the rows of the `checkins/` tables (FitToday): what a row alone
/// can show. The counting rules (photo, minutes, membership, dates,
/// duplicate workouts) need other rows and run per challenge.
public enum FitnessDecoders {
    /// The longest workout tally accepts, in minutes (a day).
    public static let maximumMinutes: Int64 = 1_440

    public static func challenge(_ f: FieldDecoder) throws(FieldError) -> ChallengeRecord {
        let id = try f.required(0)
        let start = try f.date(3)
        let end = try f.date(4)
        if end < start { throw FieldError(.endBeforeStart(end: "endDate", "\(end)", start: "startDate", "\(start)")) }
        return ChallengeRecord(challenge: Challenge(id: id, groupId: try f.required(1), name: f.optional(2) ?? id,
                                                    startDate: start, endDate: end))
    }

    public static func groupMember(_ f: FieldDecoder) throws(FieldError) -> GroupMemberRecord {
        let group = try f.required(0)
        let user = try f.required(1)
        let joined = try f.timestamp(2)
        let left = try f.optionalTimestamp(3)
        if let left, left < joined { throw FieldError(.endBeforeStart(end: "leftAt", "\(left)", start: "joinedAt", "\(joined)")) }
        return GroupMemberRecord(membership: GroupMembership(groupId: group, userId: user, joinedAt: joined, leftAt: left))
    }

    public static func checkin(_ f: FieldDecoder) throws(FieldError) -> CheckinRecord {
        CheckinRecord(try checkinFields(f))
    }

    /// A check-in as byte views of its fields (see ``CheckinFields``); the
    /// same checks, in the same order, as ``checkin(_:)``.
    public static func checkinFields(_ f: FieldDecoder) throws(FieldError) -> CheckinFields {
        let id = try f.requiredBytes(0)
        let user = try f.requiredBytes(3)
        let group = try f.requiredBytes(1)
        let challenge = try f.requiredBytes(2)
        return CheckinFields(
            id: id, groupId: group, challengeId: challenge, userId: user, displayName: f.view.bytes(4),
            userPhotoURL: f.view.bytes(5), checkInPhotoURL: f.view.bytes(6), workoutEntryId: f.view.bytes(7),
            minutes: Int(try f.integer(8, in: 0...maximumMinutes)), createdAt: try f.timestamp(9))
    }
}
