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

    /// Appends a check-in to the log. Which row of a repeated id counts is
    /// decided after the load: within the file by
    /// ``removeRepeatedCheckins(file:)``, across files by ``CheckinLogSchema/winners``.
    public func insert(_ r: CheckinRecord, file: Int64, line: Int) throws {
        let s = try statement("""
            INSERT INTO checkin_row (id, group_id, challenge_id, user_id, display_name, user_photo_url, photo_url,
                workout_entry_id, minutes, created_at, file_id, line) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        s.bind(1, r.id); s.bind(2, r.groupId); s.bind(3, r.challengeId); s.bind(4, r.userId); s.bind(5, r.displayName)
        s.bind(6, r.userPhotoURL); s.bind(7, r.checkInPhotoURL); s.bind(8, r.workoutEntryId); s.bind(9, r.minutes)
        s.bind(10, r.createdAt.microseconds); s.bind(11, file); s.bind(12, line)
        try s.step()
        appendedKeys[file, default: KeyHashes()].add(r.id, rowid: db.lastInsertedRowID)
    }

    /// Appends a check-in to the log (see the `CheckinRecord` variant for
    /// what happens to repeated ids).
    public func insert(_ r: CheckinFields, file: Int64, line: Int) throws {
        var batch = RowBatch()
        Self.stage(r, line: line, into: &batch)
        try store(checkins: batch, file: file)
    }

    /// The check-in columns a ``RowBatch`` stages, in order (see ``stage(_:into:)``).
    static let checkinColumns = ["id", "group_id", "challenge_id", "user_id", "display_name", "user_photo_url", "photo_url",
                                 "workout_entry_id", "minutes", "created_at"]

    /// Stages check-in `r`, read at `line`, for ``store(checkins:file:)``
    /// (pure: runs on a reading thread).
    public static func stage(_ r: CheckinFields, line: Int, into batch: inout RowBatch) {
        batch.append(r.id); batch.append(r.groupId); batch.append(r.challengeId); batch.append(r.userId)
        batch.append(r.displayName ?? r.userId); batch.append(r.userPhotoURL); batch.append(r.checkInPhotoURL)
        batch.append(r.workoutEntryId); batch.append(Int64(r.minutes)); batch.append(r.createdAt.microseconds)
        batch.endRow(line: line)
    }

    /// Appends staged check-ins (see ``insert(_:file:line:)-(CheckinFields,_,_)``
    /// for what happens to repeated ids).
    public func store(checkins batch: RowBatch, file: Int64) throws {
        guard let rowids = try append(batch, to: "checkin_row", columns: Self.checkinColumns, file: file) else { return }
        // Taken out of the dictionary while rows are added, so that its array
        // is not shared: a copy (`var keys = appendedKeys[file]`) would copy
        // every hash so far on each batch's first append, quadratic in the
        // file's rows, on the writer's thread.
        var keys = appendedKeys.removeValue(forKey: file) ?? KeyHashes()
        for (row, rowid) in zip(0..<batch.count, rowids) {
            batch.withText(row: row, column: 0) { keys.add(bytes: UnsafeRawBufferPointer($0), rowid: rowid) }
        }
        appendedKeys[file] = keys
    }

    /// Removes the check-ins of `file` whose id an earlier row of the same
    /// file has (the first row of an id is kept) and returns them by line,
    /// for the caller to reject. Call once, after the file's last row.
    public func removeRepeatedCheckins(file: Int64) throws -> [(line: Int, id: String)] {
        guard var keys = appendedKeys.removeValue(forKey: file) else { return [] }
        let fetch = try RawCursor(db, sql: "SELECT id, line FROM checkin_row WHERE rowid = ?")
        let remove = try BulkStatement(db, sql: "DELETE FROM checkin_row WHERE rowid = ?")
        var repeats: [(line: Int, id: String)] = []
        for group in keys.collisions() {   // rowids ascending: a file's rows are appended in line order
            var seen: Set<[UInt8]> = []
            for rowid in group {
                var row: (id: [UInt8], line: Int)?
                try fetch.forEach(rowid) { c in
                    row = (Array(c.bytes(0) ?? UnsafeRawBufferPointer(start: nil, count: 0)), Int(c.int64(1)))
                }
                guard let row, !seen.insert(row.id).inserted else { continue }
                repeats.append((row.line, String(decoding: row.id, as: UTF8.self)))
                remove.bind(1, rowid)
                try remove.step()
            }
        }
        return repeats.sorted { $0.line < $1.line }
    }

    /// Stores a valid activity row (every one is kept; the winner per user and day is derived at the end).
    public func insert(_ r: ActivityRecord, file: Int64, line: Int) throws {
        var batch = RowBatch()
        Self.stage(r, line: line, into: &batch)
        try store(activity: batch, file: file)
    }

    /// The activity columns a ``RowBatch`` stages, in order (see ``stage(_:line:into:)``).
    static let activityColumns = ["user_id", "date", "steps", "active_calories", "walking_km"]

    /// Stages activity row `r`, read at `line`, for ``store(activity:file:)`` (pure: runs on a reading thread).
    public static func stage(_ r: ActivityRecord, line: Int, into batch: inout RowBatch) {
        let d = r.day
        batch.append(d.userId); batch.append(d.date.description); batch.append(d.steps); batch.append(d.activeCalories)
        batch.append(d.walkingDistanceKm)
        batch.endRow(line: line)
    }

    /// Appends staged activity rows (every one is kept; the winner per user and day is derived at the end).
    public func store(activity batch: RowBatch, file: Int64) throws {
        _ = try append(batch, to: "activity_row", columns: Self.activityColumns, file: file)
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
