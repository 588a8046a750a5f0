import GRDB
import TallyCore

/// Queries of the `checkins/` and `health/` datasets.
extension WarehouseReader {
    /// Streams every challenge, in id byte order, with its check-ins and its
    /// group's memberships. Memory holds one challenge at a time.
    ///
    /// A check-in's ``CheckinFact/duplicateOf`` is the first check-in (by
    /// createdAt, then file and line) of the same `workoutEntryId` over all
    /// check-ins, when that is another one (found at ingest: see
    /// ``CheckinLogSchema/winners``). The check-ins come in one scan of
    /// `checkin_winner`'s order, each row's fields looked up in the log, read
    /// as bytes (GRDB `Row`s would double the time of a million rows).
    public func forEachChallenge(_ body: (ChallengePartition) throws -> Void) throws {
        try reading(.checkinWinners)
        let paths = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, display_path FROM input_file")
            .map { ($0[0] as Int64, $0[1] as String) })
        let members = try db.makeStatement(sql: "SELECT user_id, joined_at, left_at FROM group_member WHERE group_id = ?")
        let challenges = try Row.fetchCursor(db, sql: "SELECT id, group_id, name, start_date, end_date FROM challenge ORDER BY id")
        // The challenge whose check-ins are being gathered (its id's bytes as the key).
        var current: (challenge: Challenge, key: [UInt8])?
        var checkins: [CheckinFact] = []
        var repeated = StringCache()   // a challenge's group, users and names recur on many of its rows
        func advance() throws {
            current = nil
            while let row = try challenges.next() {
                guard let start = LocalDate.parse(row[3] as String), let end = LocalDate.parse(row[4] as String) else { continue }
                let id: String = row[0]
                current = (Challenge(id: id, groupId: row[1], name: row[2], startDate: start, endDate: end), Array(id.utf8))
                return
            }
        }
        func emit(_ challenge: Challenge) throws {
            let spans = try Row.fetchAll(members, arguments: [challenge.groupId]).map {
                GroupMembership(groupId: challenge.groupId, userId: $0[0], joinedAt: Timestamp(microseconds: $0[1]),
                                leftAt: ($0[2] as Int64?).map { Timestamp(microseconds: $0) })
            }
            let partition = ChallengePartition(challenge: challenge, checkins: checkins, memberships: spans)
            checkins = []
            repeated.removeAll()
            try body(partition)
        }
        try advance()
        try RawCursor(db, sql: """
            SELECT w.challenge_id, w.id, r.group_id, r.user_id, r.display_name, r.photo_url, r.workout_entry_id,
                   r.minutes, w.created_at, r.file_id, r.line, w.duplicate_of
            FROM checkin_winner w CROSS JOIN checkin_row r ON r.rowid = w.log_row
            ORDER BY w.challenge_id, w.created_at, w.id
            """).forEach { row in
            let empty = UnsafeRawBufferPointer(start: nil, count: 0)
            let key = row.bytes(0) ?? empty
            while let c = current, c.key.lexicographicallyPrecedes(key) {   // challenges before this key are complete
                try emit(c.challenge)
                try advance()
            }
            guard let c = current, c.key.elementsEqual(key) else { return }   // a check-in of an unknown challenge
            checkins.append(CheckinFact(
                id: row.string(1) ?? "", groupId: repeated.string(row.bytes(2) ?? empty), challengeId: c.challenge.id,
                userId: repeated.string(row.bytes(3) ?? empty), displayName: repeated.string(row.bytes(4) ?? empty),
                photoURL: row.string(5), workoutEntryId: row.string(6),
                minutes: Int(row.int64(7)), createdAt: Timestamp(microseconds: row.int64(8)), duplicateOf: row.string(11),
                source: SourceRef(file: paths[row.int64(9)] ?? "", line: Int(row.int64(10)))))
        }
        while let c = current {
            try emit(c.challenge)
            try advance()
        }
    }

    /// Check-ins of challenges no `challenges` row has: rejects that belong
    /// to no challenge. The query finds the counted check-ins whose challenge
    /// lookup fails; ``OrphanRule`` decides and words each reject.
    public func unattachedCheckinRejects() throws -> [Reject] {
        try reading(.checkinWinners)
        return try Row.fetchAll(db, sql: """
            SELECT f.display_path, r.line, w.id, w.challenge_id
            FROM checkin_winner w CROSS JOIN checkin_row r ON r.rowid = w.log_row JOIN input_file f ON f.id = r.file_id
            WHERE NOT EXISTS (SELECT 1 FROM challenge h WHERE h.id = w.challenge_id)
            ORDER BY f.display_path, r.line
            """).compactMap { row -> Reject? in
            OrphanRule.reject(.checkin, parentId: row[3], parentExists: false)
                .map { Reject(dataset: "checkins", file: row[0], line: row[1], id: row[2], reason: $0) }
        }
    }

    /// Streams each user's counted activity days within `days` (inclusive),
    /// by user id then date: the rows ``ActivityDayRule`` did not supersede
    /// (see ``FitnessSchema/activityRepeats``). Memory holds one user at a time.
    public func forEachActivityUser(in days: ClosedRange<LocalDate>,
                                    _ body: (_ userId: String, _ days: [DailyActivity]) throws -> Void) throws {
        try reading(.activityRepeats)
        // The rows without a verdict in `activity_superseded` (one per user
        // and day), with the dates filtered before the lookups.
        let rows = try Row.fetchCursor(db, sql: """
            SELECT user_id, date, steps, active_calories, walking_km FROM (
                \(FitnessSchema.countedActivity(datesBetween: true))
            ) ORDER BY user_id, date
            """, arguments: ["first": days.lowerBound.description, "last": days.upperBound.description])
        var user: String?
        var batch: [DailyActivity] = []
        while let row = try rows.next() {
            let id: String = row[0]
            guard let date = LocalDate.parse(row[1] as String) else { continue }
            if id != user, let current = user {
                try body(current, batch)
                batch.removeAll(keepingCapacity: true)
            }
            user = id
            batch.append(DailyActivity(userId: id, date: date, steps: row[2], activeCalories: row[3], walkingDistanceKm: row[4]))
        }
        if let user { try body(user, batch) }
    }
}
