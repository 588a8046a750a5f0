import TallyCore

// The wire forms of the fitness inputs: challenges and check-ins keyed by
// challenge (the leaderboard partition), memberships by group, daily
// activity by user.

extension Challenge: WireRecord {
    public static let wireKind = "challenge"
    public static let wireVersion = 1
    public static let wireKeyFieldCount = 1

    /// `challenge.v1  id  groupId  name  startDate  endDate`
    public func encode(into writer: inout WireWriter) {
        writer.string(id)
        writer.string(groupId)
        writer.string(name)
        writer.date(startDate)
        writer.date(endDate)
    }

    public init(fields: inout WireFields) throws(WireError) {
        let id = try fields.string("id")
        let groupId = try fields.string("groupId")
        let name = try fields.string("name")
        self.init(id: id, groupId: groupId, name: name, startDate: try fields.date("startDate"), endDate: try fields.date("endDate"))
    }
}

extension GroupMembership: WireRecord {
    public static let wireKind = "group-membership"
    public static let wireVersion = 1
    public static let wireKeyFieldCount = 1

    /// `group-membership.v1  groupId  userId  joinedAt  leftAt`
    public func encode(into writer: inout WireWriter) {
        writer.string(groupId)
        writer.string(userId)
        writer.timestamp(joinedAt)
        writer.timestamp(leftAt)
    }

    public init(fields: inout WireFields) throws(WireError) {
        let groupId = try fields.string("groupId")
        let userId = try fields.string("userId")
        self.init(groupId: groupId, userId: userId, joinedAt: try fields.timestamp("joinedAt"),
                  leftAt: try fields.optionalTimestamp("leftAt"))
    }
}

extension CheckinFact: WireRecord {
    public static let wireKind = "checkin"
    public static let wireVersion = 1
    public static let wireKeyFieldCount = 1

    /// `checkin.v1  challengeId  id  groupId  userId  displayName  photoURL  workoutEntryId
    /// minutes  createdAt  duplicateOf  sourceFile  sourceLine`
    public func encode(into writer: inout WireWriter) {
        writer.string(challengeId)
        writer.string(id)
        writer.string(groupId)
        writer.string(userId)
        writer.string(displayName)
        writer.string(photoURL)
        writer.string(workoutEntryId)
        writer.int(minutes)
        writer.timestamp(createdAt)
        writer.string(duplicateOf)
        writer.string(source.file)
        writer.int(source.line)
    }

    public init(fields: inout WireFields) throws(WireError) {
        let challengeId = try fields.string("challengeId")
        let id = try fields.string("id")
        let groupId = try fields.string("groupId")
        let userId = try fields.string("userId")
        let displayName = try fields.string("displayName")
        let photoURL = try fields.optionalString("photoURL")
        let workoutEntryId = try fields.optionalString("workoutEntryId")
        let minutes = try fields.int("minutes")
        let createdAt = try fields.timestamp("createdAt")
        let duplicateOf = try fields.optionalString("duplicateOf")
        let source = SourceRef(file: try fields.string("sourceFile"), line: try fields.int("sourceLine"))
        self.init(id: id, groupId: groupId, challengeId: challengeId, userId: userId, displayName: displayName,
                  photoURL: photoURL, workoutEntryId: workoutEntryId, minutes: minutes, createdAt: createdAt,
                  duplicateOf: duplicateOf, source: source)
    }
}

extension DailyActivity: WireRecord {
    public static let wireKind = "daily-activity"
    public static let wireVersion = 1
    public static let wireKeyFieldCount = 1

    /// `daily-activity.v1  userId  date  steps  activeCalories  walkingDistanceKm`
    /// (doubles as their shortest round-trip decimals).
    public func encode(into writer: inout WireWriter) {
        writer.string(userId)
        writer.date(date)
        writer.double(steps)
        writer.double(activeCalories)
        writer.double(walkingDistanceKm)
    }

    public init(fields: inout WireFields) throws(WireError) {
        let userId = try fields.string("userId")
        let date = try fields.date("date")
        let steps = try fields.double("steps")
        let calories = try fields.double("activeCalories")
        self.init(userId: userId, date: date, steps: steps, activeCalories: calories,
                  walkingDistanceKm: try fields.double("walkingDistanceKm"))
    }
}
