import GRDB
import TallyCore
import TallyIngest

/// Stores the rows of the `checkins/` and `health/` tables.
extension IngestSession {
    public func insert(_ r: ChallengeRecord, file: Int64, line: Int) throws -> Bool {
        let c = r.challenge
        let s = try upsert("challenge", ["id", "group_id", "name", "start_date", "end_date"], key: ["id"])
        s.bind(1, c.id); s.bind(2, c.groupId); s.bind(3, c.name); s.bind(4, c.startDate.description)
        s.bind(5, c.endDate.description)
        return try finishUpsert(s, file: file, line: line, next: 6)
    }

    /// A membership span; the same group, user and joinedAt twice in a file is a duplicate.
    public func insert(_ r: GroupMemberRecord, file: Int64, line: Int) throws -> Bool {
        let m = r.membership
        let s = try upsert("group_member", ["group_id", "user_id", "joined_at", "left_at"],
                                     key: ["group_id", "user_id", "joined_at"])
        s.bind(1, m.groupId); s.bind(2, m.userId); s.bind(3, m.joinedAt.microseconds); s.bind(4, m.leftAt?.microseconds)
        return try finishUpsert(s, file: file, line: line, next: 5)
    }

    public func insert(_ r: CheckinRecord, file: Int64, line: Int) throws -> Bool {
        let s = try upsert("checkin", ["id", "group_id", "challenge_id", "user_id", "display_name",
                                                 "user_photo_url", "photo_url", "workout_entry_id", "minutes", "created_at"],
                                     key: ["id"])
        s.bind(1, r.id); s.bind(2, r.groupId); s.bind(3, r.challengeId); s.bind(4, r.userId); s.bind(5, r.displayName)
        s.bind(6, r.userPhotoURL); s.bind(7, r.checkInPhotoURL); s.bind(8, r.workoutEntryId); s.bind(9, r.minutes)
        s.bind(10, r.createdAt.microseconds)
        return try finishUpsert(s, file: file, line: line, next: 11)
    }

    /// Stores a valid activity row (every one is kept; the winner per user and day is derived at the end).
    public func insert(_ r: ActivityRecord, file: Int64, line: Int) throws {
        let d = r.day
        let s = try statement("""
            INSERT INTO activity_row (user_id, date, steps, active_calories, walking_km, file_id, line)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        s.bind(1, d.userId); s.bind(2, d.date.description); s.bind(3, d.steps); s.bind(4, d.activeCalories)
        s.bind(5, d.walkingDistanceKm); s.bind(6, file); s.bind(7, line)
        try s.step()
    }

    /// Stores the daily values derived from an Apple Health export, local days of `timezone`.
    public func insertExportDay(_ d: DailyActivity, file: Int64, timezone: String) throws {
        let s = try statement("""
            INSERT INTO health_export_day (user_id, date, steps, active_calories, walking_km, timezone, file_id)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        s.bind(1, d.userId); s.bind(2, d.date.description); s.bind(3, d.steps); s.bind(4, d.activeCalories)
        s.bind(5, d.walkingDistanceKm); s.bind(6, timezone); s.bind(7, file)
        try s.step()
    }

    /// The time zones whose local days the stored days of a loaded export are
    /// (empty when it had none): an unchanged export summed in another zone must be reloaded.
    public func exportTimezones(fileId: Int64) throws -> Set<String> {
        Set(try String.fetchAll(db, sql: "SELECT DISTINCT timezone FROM health_export_day WHERE file_id = ?", arguments: [fileId]))
    }
}
