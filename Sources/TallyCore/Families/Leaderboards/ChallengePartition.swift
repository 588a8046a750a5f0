/// One challenge and everything loaded for it: the partition of the
/// leaderboards family (key: the challenge id).
public struct ChallengePartition: Sendable {
    public var challenge: Challenge
    /// The check-ins claiming the challenge, by createdAt.
    public var checkins: [CheckinFact]
    /// The membership spans of the challenge's group.
    public var memberships: [GroupMembership]

    public init(challenge: Challenge, checkins: [CheckinFact], memberships: [GroupMembership]) {
        self.challenge = challenge
        self.checkins = checkins
        self.memberships = memberships
    }
}
