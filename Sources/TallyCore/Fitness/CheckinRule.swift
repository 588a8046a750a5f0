/// Why a check-in does not count. Each rejected check-in gets exactly one
/// reason: the first rule it fails, in the order of the cases.
public enum CheckinRule: Hashable, Sendable {
    /// Its challenge is not in `challenges`.
    case unknownChallenge(String)
    /// Its `groupId` is not the challenge's group.
    case wrongGroup(checkin: String, challenge: String)
    /// `checkInPhotoURL` is empty.
    case noPhoto
    /// The workout lasted under the minimum.
    case tooShort(minutes: Int, minimum: Int)
    /// The user was not a member of the group at `createdAt`.
    case notAMember(userId: String, groupId: String, at: Timestamp)
    /// `createdAt`'s local day is outside the challenge's dates.
    case outsideChallenge(day: LocalDate, start: LocalDate, end: LocalDate)
    /// An earlier check-in holds the same `workoutEntryId`.
    case duplicateWorkout(workoutEntryId: String, firstCheckin: String)

    /// The reason, in words a person can act on.
    public var reason: String {
        switch self {
        case .unknownChallenge(let id):
            return "check-in for unknown challenge '\(id)'"
        case .wrongGroup(let group, let challengeGroup):
            return "check-in group '\(group)' is not the challenge's group '\(challengeGroup)'"
        case .noPhoto:
            return "check-in without a photo (checkInPhotoURL is empty)"
        case .tooShort(let minutes, let minimum):
            return "workout of \(minutes) minutes is under the minimum of \(minimum)"
        case .notAMember(let user, let group, let at):
            return "user '\(user)' was not a member of group '\(group)' at \(at)"
        case .outsideChallenge(let day, let start, let end):
            return "check-in on \(day) is outside the challenge's dates \(start)…\(end)"
        case .duplicateWorkout(let workout, let first):
            return "duplicate check-in of workout '\(workout)' (first checked in by '\(first)')"
        }
    }
}
