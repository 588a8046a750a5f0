import TallyCore

/// A row of `checkins/challenges`.
public struct ChallengeRecord: Sendable, Equatable {
    public var challenge: Challenge
}

/// A row of `checkins/members`: one membership span.
public struct GroupMemberRecord: Sendable, Equatable {
    public var membership: GroupMembership
}

/// A row of `checkins/checkins`, well-formed (the counting rules come later,
/// per challenge, in ``TallyCore/CheckinResolver``).
public struct CheckinRecord: Sendable, Equatable {
    public var id: String
    public var groupId: String
    public var challengeId: String
    public var userId: String
    /// The display name; the user id when the row has none.
    public var displayName: String
    public var userPhotoURL: String?
    public var checkInPhotoURL: String?
    public var workoutEntryId: String?
    public var minutes: Int
    public var createdAt: Timestamp
}
