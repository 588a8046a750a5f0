import GRDB
import TallyCore

/// Queries of the `checkins/` and `health/` datasets.
extension WarehouseReader {
    /// Streams every challenge key in id byte order with its rows as read
    /// (``ChallengeRows``): the challenge if any, with its group's
    /// memberships, and the counted check-ins naming it (a key no
    /// `challenges` row has is streamed too: its check-ins are orphans). The
    /// scans only group rows by key: ``TallyCore/LeaderboardsFamily/partition(_:)``
    /// decides what counts. Memory holds one challenge at a time.
    ///
    /// A check-in's ``CheckinFact/duplicateOf`` is the first check-in (by
    /// createdAt, then file and line) of the same `workoutEntryId` over all
    /// check-ins, when that is another one (found at ingest: see
    /// ``CheckinLogSchema/winners``). The check-ins come in one scan of
    /// `checkin_winner`'s order, each row's fields looked up in the log, read
    /// as bytes (GRDB `Row`s would double the time of a million rows).
    public func forEachChallengeKey(_ body: (ChallengeRows) throws -> Void) throws {
        try forEachChallengeKey(selection: nil as ChallengeKeySelection<Never>?) { rows, _ in try body(rows) }
    }

    /// Which challenge keys a caller takes without their check-ins (a
    /// family's kept results, see ``KeyStates``), and what it takes instead.
    public struct ChallengeKeySelection<Kept> {
        /// Keys streamed beside the challenges (a kept key no challenge has,
        /// a key whose check-ins changed): every key holding check-ins must be
        /// a challenge or one of these.
        public var keys: Set<String>
        /// What a key is taken as instead of its check-ins, given its challenge
        /// and memberships; nil when its check-ins are to be read.
        public var kept: (ChallengeRows) -> Kept?

        public init(keys: Set<String>, kept: @escaping (ChallengeRows) -> Kept?) {
            self.keys = keys
            self.kept = kept
        }
    }

    /// ``forEachChallengeKey(_:)``, or, with a `selection`, the challenges and
    /// the selection's keys in id byte order, each key's check-ins read by
    /// key unless the selection takes the key as kept; `body` gets what it
    /// was taken as (nil when its check-ins were read).
    public func forEachChallengeKey<Kept>(selection: ChallengeKeySelection<Kept>?,
                                          _ body: (ChallengeRows, Kept?) throws -> Void) throws {
        try reading(.checkinWinners)
        let paths = try displayPaths()
        let members = try db.makeStatement(sql: "SELECT user_id, joined_at, left_at FROM group_member WHERE group_id = ?")
        let challenges = try PartitionCursor(db, sql: """
            SELECT id, group_id, name, start_date, end_date FROM challenge ORDER BY id
            """) { c -> Challenge? in
            guard let start = c.date(3), let end = c.date(4) else { return nil }
            return Challenge(id: c.textValue(0), groupId: c.textValue(1), name: c.textValue(2), startDate: start, endDate: end)
        }
        var repeated = StringCache()   // a challenge's group, users and names recur on many of its rows
        let columns = """
            SELECT w.challenge_id, w.id, r.group_id, r.user_id, r.display_name, r.photo_url, r.workout_entry_id,
                   r.minutes, w.created_at, r.file_id, r.line, w.duplicate_of
            FROM checkin_winner w CROSS JOIN checkin_row r ON r.rowid = w.log_row
            """
        func checkin(_ row: RawCursor) -> CheckinFact {
            let empty = UnsafeRawBufferPointer(start: nil, count: 0)
            return CheckinFact(
                id: row.string(1) ?? "", groupId: repeated.string(row.bytes(2) ?? empty),
                challengeId: repeated.string(row.bytes(0) ?? empty),
                userId: repeated.string(row.bytes(3) ?? empty), displayName: repeated.string(row.bytes(4) ?? empty),
                photoURL: row.string(5), workoutEntryId: row.string(6),
                minutes: Int(row.int64(7)), createdAt: Timestamp(microseconds: row.int64(8)), duplicateOf: row.string(11),
                source: SourceRef(file: paths[row.int64(9)] ?? "", line: Int(row.int64(10))))
        }
        func rows(of key: [UInt8]) throws -> ChallengeRows {
            var rows = ChallengeRows(key: String(decoding: key, as: UTF8.self), challenge: try challenges.take(key: key).first)
            if let challenge = rows.challenge {
                rows.memberships = try Row.fetchAll(members, arguments: [challenge.groupId]).map {
                    GroupMembership(groupId: challenge.groupId, userId: $0[0], joinedAt: Timestamp(microseconds: $0[1]),
                                    leftAt: ($0[2] as Int64?).map { Timestamp(microseconds: $0) })
                }
            }
            return rows
        }
        guard let selection else {
            let checkins = try PartitionCursor(db, sql: columns + " ORDER BY w.challenge_id, w.created_at, w.id", decode: checkin)
            let scans: [any KeyedScan] = [challenges, checkins]
            while let key = try smallestNextKey(scans) {
                var rows = try rows(of: key)
                rows.checkins = try checkins.take(key: key)
                repeated.removeAll()
                try body(rows, nil)
            }
            return
        }
        var extra = selection.keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }[...]
        while true {
            let next: [UInt8]
            switch (try challenges.nextKey(), extra.first) {
            case (nil, nil): return
            case (let c?, nil): next = c
            case (nil, let e?): next = e
            case (let c?, let e?): next = e.lexicographicallyPrecedes(c) ? e : c
            }
            while let e = extra.first, e == next { extra.removeFirst() }
            var rows = try rows(of: next)
            if let kept = selection.kept(rows) {
                try body(rows, kept)
                continue
            }
            let read = try RawCursor(db, sql: columns + " WHERE w.challenge_id = ? ORDER BY w.created_at, w.id",
                                     arguments: [rows.key])
            while try read.next() { rows.checkins.append(checkin(read)) }
            repeated.removeAll()
            try body(rows, nil)
        }
    }

    /// What the refreshes of `checkin_winner` changed, by challenge (see
    /// ``KeyStates``): every challenge, or those changed after refresh `since`.
    public func checkinChanges(since: Int64 = 0) throws -> KeyChanges {
        try keyChanges(scope: CheckinLogSchema.changeScope, since: since)
    }

    /// Streams each user's counted activity days within `days` (inclusive),
    /// by user id then date: the rows ``ActivityDayRule`` did not supersede
    /// (see ``FitnessSchema/activityRepeats``). Memory holds one user at a time.
    public func forEachActivityUser(in days: ClosedRange<LocalDate>,
                                    _ body: (_ userId: String, _ days: [DailyActivity]) throws -> Void) throws {
        try reading(.activityRepeats)
        // The rows without a verdict in `activity_superseded` (one per user
        // and day), with the dates filtered before the lookups.
        let rows = try RawCursor(db, sql: """
            SELECT user_id, date, steps, active_calories, walking_km FROM (
                \(FitnessSchema.countedActivity(datesBetween: true))
            ) ORDER BY user_id, date
            """, arguments: ["first": days.lowerBound.description, "last": days.upperBound.description])
        var user: String?
        var batch: [DailyActivity] = []
        while try rows.next() {
            guard let date = rows.date(1) else { continue }
            let idBytes = rows.text(0)!
            if let current = user, !StringCache.equal(current, idBytes) {
                try body(current, batch)
                batch.removeAll(keepingCapacity: true)
                user = nil
            }
            let id = user ?? String(decoding: idBytes, as: UTF8.self)
            user = id
            batch.append(DailyActivity(userId: id, date: date, steps: rows.double(2), activeCalories: rows.double(3),
                                       walkingDistanceKm: rows.double(4)))
        }
        if let user { try body(user, batch) }
    }
}
