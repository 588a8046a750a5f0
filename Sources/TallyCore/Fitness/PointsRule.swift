/// What earns a point on a challenge's board, as the reports explain it:
/// one point per counted check-in, and the conditions a check-in meets to
/// count, in the order ``CheckinResolver`` checks them (``CheckinRule``).
///
/// The ranking that follows from the points (``LeaderboardBuilder/rank(_:)``):
/// points, then minutes, both descending; users equal on both share a rank
/// and the next rank skips as many places (``CompetitionRanking``: 1, 2, 2,
/// 4), listed by user id among themselves.
///
/// ```swift
/// PointsRule(minimumWorkoutMinutes: 30).conditions
/// // [.challengeGroup, .photo, .minimumMinutes(30), .member, .withinDates, .oncePerWorkout]
/// ```
public struct PointsRule: Hashable, Sendable {
    /// A condition a check-in meets to count.
    public enum Condition: Hashable, Sendable {
        /// Sent in the challenge's own group.
        case challengeGroup
        /// With a photo (`checkInPhotoURL`).
        case photo
        /// A workout of at least this many minutes.
        case minimumMinutes(Int)
        /// By a member of the group at the time.
        case member
        /// On a local day within the challenge's dates, both included.
        case withinDates
        /// A workout counts once, for its first check-in.
        case oncePerWorkout
    }

    /// Points per counted check-in.
    public static let pointsPerCheckin = 1

    public var minimumWorkoutMinutes: Int

    public init(minimumWorkoutMinutes: Int) { self.minimumWorkoutMinutes = minimumWorkoutMinutes }

    /// The rule of the configured leaderboards.
    public init(_ rules: TallyConfig.Leaderboards) { self.init(minimumWorkoutMinutes: rules.minimumWorkoutMinutes) }

    /// The conditions, in the order they are checked.
    public var conditions: [Condition] {
        [.challengeGroup, .photo, .minimumMinutes(minimumWorkoutMinutes), .member, .withinDates, .oncePerWorkout]
    }
}
