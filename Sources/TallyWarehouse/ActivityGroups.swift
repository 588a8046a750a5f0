import GRDB
import TallyCore

/// Finds the groups of activity rows and export days that share a user and
/// day, and has each judged by ``ActivityDayRule`` (``WhichRowsCount``):
/// the warehouse groups, the rule decides.
///
/// Every row's (user, day) key is hashed (``KeyHashes``); only rows whose
/// hash another row shares can be in a group of two or more, so only those
/// are read again and grouped by the bytes of their user id and date.
///
/// ```swift
/// let losers = try ActivityGroups.superseded(db)   // what activity_superseded holds
/// ```
enum ActivityGroups {
    /// A row the rule superseded: its table (`fromExport`), rowid and file.
    struct Loser: Hashable {
        var fromExport: Bool
        var rowid: Int64
        var file: Int64
    }

    /// The rows that lose to another row of their user and day.
    static func superseded(_ db: Database) throws -> [Loser] {
        var keys = KeyHashes()
        var key: [UInt8] = []
        func add(_ c: RawCursor, rowid: Int64) {
            groupKey(user: c.bytes(1), date: c.bytes(2), into: &key)
            key.withUnsafeBytes { keys.add(bytes: $0, rowid: rowid) }
        }
        // Export days go in as negative rowids (their own table).
        try RawCursor(db, sql: "SELECT rowid, user_id, date FROM activity_row").forEach { add($0, rowid: $0.int64(0)) }
        try RawCursor(db, sql: "SELECT rowid, user_id, date FROM health_export_day").forEach { add($0, rowid: -$0.int64(0)) }

        let row = try RawCursor(db, sql: """
            SELECT r.user_id, r.date, f.load_seq, r.line, r.file_id
            FROM activity_row r JOIN input_file f ON f.id = r.file_id WHERE r.rowid = ?
            """)
        let exportDay = try RawCursor(db, sql: """
            SELECT h.user_id, h.date, f.load_seq, 0, h.file_id
            FROM health_export_day h JOIN input_file f ON f.id = h.file_id WHERE h.rowid = ?
            """)
        var losers: [Loser] = []
        for collision in keys.collisions() {
            var groups: [[UInt8]: [(rank: ActivityDayRule.Row, row: Loser)]] = [:]
            for rowid in collision {
                let fromExport = rowid < 0
                try (fromExport ? exportDay : row).forEach(abs(rowid)) { c in
                    groupKey(user: c.bytes(0), date: c.bytes(1), into: &key)
                    groups[key, default: []].append((ActivityDayRule.Row(fromExport: fromExport, loadSeq: c.int64(2), line: c.int64(3)),
                                                     Loser(fromExport: fromExport, rowid: abs(rowid), file: c.int64(4))))
                }
            }
            for group in groups.values where group.count > 1 {
                losers += WhichRowsCount.sort(group, by: ActivityDayRule()) { _, g in g.rank }.superseded.map(\.row)
            }
        }
        return losers
    }

    /// The bytes that identify a (user, day) group: the user id's length,
    /// the user id, then the date (a length, so that no two pairs give the same bytes).
    private static func groupKey(user: UnsafeRawBufferPointer?, date: UnsafeRawBufferPointer?, into key: inout [UInt8]) {
        key.removeAll(keepingCapacity: true)
        let user = user ?? UnsafeRawBufferPointer(start: nil, count: 0)
        withUnsafeBytes(of: UInt32(user.count).littleEndian) { key.append(contentsOf: $0) }
        key.append(contentsOf: user)
        key.append(contentsOf: date ?? UnsafeRawBufferPointer(start: nil, count: 0))
    }
}
