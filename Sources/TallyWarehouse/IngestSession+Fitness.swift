import GRDB
import TallyCore
import TallyIngest

/// Stores the rows of the `checkins/` and `health/` tables.
extension IngestSession {
    public func insert(_ r: ChallengeRecord, file: Int64, line: Int) throws -> Bool {
        try storeKeyed("challenge", ReferenceColumns.values(r.challenge), file: file, line: line)
    }

    /// A membership span; the same group, user and joinedAt twice in a file is a duplicate.
    public func insert(_ r: GroupMemberRecord, file: Int64, line: Int) throws -> Bool {
        try storeKeyed("group_member", ReferenceColumns.values(r.membership), file: file, line: line)
    }

    /// Appends a check-in to the log. Which row of a repeated id counts is
    /// decided by ``TallyCore/CheckinVersionRule`` after the load: within the
    /// file by ``removeRepeatedCheckins(file:)``, across files by
    /// ``CheckinLogSchema/winners``.
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

    /// Removes the check-ins of `file` that ``TallyCore/CheckinVersionRule``
    /// rejects (a repeat of an id within the file) and returns them by line
    /// with the rule's reason, for the caller to reject. Only rows whose id
    /// hashes collide are read back and split by id (bytes); each id's rows
    /// go to the rule. Call once, after the file's last row.
    public func removeRepeatedCheckins(file: Int64) throws -> [(line: Int, id: String, reason: RejectReason)] {
        guard var keys = appendedKeys.removeValue(forKey: file) else { return [] }
        let fetch = try RawCursor(db, sql: "SELECT id, line FROM checkin_row WHERE rowid = ?")
        let remove = try BulkStatement(db, sql: "DELETE FROM checkin_row WHERE rowid = ?")
        var repeats: [(line: Int, id: String, reason: RejectReason)] = []
        for group in keys.collisions() {
            var rows: [(id: [UInt8], line: Int64, rowid: Int64)] = []
            for rowid in group {
                try fetch.forEach(rowid) { c in
                    rows.append((Array(c.bytes(0) ?? UnsafeRawBufferPointer(start: nil, count: 0)), c.int64(1), rowid))
                }
            }
            for id in KeyGroups.split(rows, key: \.id) where id.count > 1 {
                let outcomes = WhichRowsCount.sort(id, by: CheckinVersionRule(key: "id")) { _, r in
                    CheckinVersionRule.Row(file: file, loadSeq: 0, line: r.line, row: r.rowid)
                }
                for (row, reason) in outcomes.rejected {
                    repeats.append((Int(row.line), String(decoding: row.id, as: UTF8.self), reason))
                    remove.bind(1, row.rowid)
                    try remove.step()
                }
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

    /// Appends one record of an Apple Health export, as read: its start
    /// instant, quantity, source and value (in tally's unit). Records are
    /// summed into the report zone's local days by the activity derivation
    /// (``ExportDays``), in the order they were appended.
    public func insertHealthRecord(userId: String, start: Timestamp, quantity: HealthQuantity, source: String,
                                   value: Double, file: Int64) throws {
        let s = try statement("""
            INSERT INTO health_record (file_id, user_id, start_us, quantity, source, value) VALUES (?, ?, ?, ?, ?, ?)
            """)
        s.bind(1, file); s.bind(2, userId); s.bind(3, start.microseconds); s.bind(4, ExportDays.code(quantity))
        s.bind(5, source); s.bind(6, value)
        try s.step()
    }

    /// Names the report time zone the export days are to be local days of.
    /// When it differs from the zone they were derived in, the activity
    /// derivation is left pending, so the days move to the new zone without
    /// reloading any export.
    public func useReportTimeZone(_ identifier: String) throws {
        guard try String.fetchOne(db, sql: "SELECT timezone FROM export_day_zone") != identifier else { return }
        try db.execute(sql: "DELETE FROM export_day_zone")
        try db.execute(sql: "INSERT INTO export_day_zone (timezone) VALUES (?)", arguments: [identifier])
        try db.execute(sql: """
            INSERT OR IGNORE INTO derivation_pending (name)
            SELECT ? WHERE EXISTS (SELECT 1 FROM input_file WHERE table_name = 'appleHealthExport')
            """, arguments: [DerivedTable.activityRepeats.rawValue])
    }
}
