/// A FitToday challenge: a group's contest between two local dates (inclusive).
public struct Challenge: Hashable, Sendable {
    public var id: String
    public var groupId: String
    public var name: String
    public var startDate: LocalDate
    public var endDate: LocalDate

    public init(id: String, groupId: String, name: String, startDate: LocalDate, endDate: LocalDate) {
        self.id = id
        self.groupId = groupId
        self.name = name
        self.startDate = startDate
        self.endDate = endDate
    }
}

/// One membership span of a user in a group: a member for
/// `joinedAt ≤ t < leftAt` (no `leftAt`: still a member).
public struct GroupMembership: Hashable, Sendable {
    public var groupId: String
    public var userId: String
    public var joinedAt: Timestamp
    public var leftAt: Timestamp?

    public init(groupId: String, userId: String, joinedAt: Timestamp, leftAt: Timestamp?) {
        self.groupId = groupId
        self.userId = userId
        self.joinedAt = joinedAt
        self.leftAt = leftAt
    }

    /// Whether the span covers `instant`.
    public func covers(_ instant: Timestamp) -> Bool {
        joinedAt <= instant && (leftAt.map { instant < $0 } ?? true)
    }
}

/// A workout check-in as loaded, before the counting rules.
public struct CheckinFact: Hashable, Sendable {
    public var id: String
    public var groupId: String
    public var challengeId: String
    public var userId: String
    public var displayName: String
    /// `checkInPhotoURL`: the photo that makes a check-in count.
    public var photoURL: String?
    public var workoutEntryId: String?
    public var minutes: Int
    public var createdAt: Timestamp
    /// When another check-in of the same `workoutEntryId` came first, its id
    /// (the warehouse finds these over all check-ins, not one challenge).
    public var duplicateOf: String?
    public var source: SourceRef

    public init(id: String, groupId: String, challengeId: String, userId: String, displayName: String,
                photoURL: String?, workoutEntryId: String?, minutes: Int, createdAt: Timestamp,
                duplicateOf: String? = nil, source: SourceRef) {
        self.id = id
        self.groupId = groupId
        self.challengeId = challengeId
        self.userId = userId
        self.displayName = displayName
        self.photoURL = photoURL
        self.workoutEntryId = workoutEntryId
        self.minutes = minutes
        self.createdAt = createdAt
        self.duplicateOf = duplicateOf
        self.source = source
    }
}

/// A check-in that counts: one point and its minutes, on a local day.
public struct CountedCheckin: Hashable, Sendable {
    public var userId: String
    public var displayName: String
    public var minutes: Int
    public var createdAt: Timestamp
    /// The local day of `createdAt` in the report time zone.
    public var day: LocalDate

    public init(userId: String, displayName: String, minutes: Int, createdAt: Timestamp, day: LocalDate) {
        self.userId = userId
        self.displayName = displayName
        self.minutes = minutes
        self.createdAt = createdAt
        self.day = day
    }
}
