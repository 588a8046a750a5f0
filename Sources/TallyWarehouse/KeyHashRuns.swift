import Foundation
import GRDB

/// The key hashes of an append-only log's rows, kept in the warehouse, so
/// that a derivation after an ingest that only appended rows finds the
/// rows an appended row's key may repeat without reading the whole log.
///
/// Each derivation of a winner table needs the groups of rows whose keys
/// hash alike (``KeyHashes``): candidates the derivation then compares by
/// their stored keys. Hashing every row's key each month costs a scan of
/// the whole log, a cost that grows with the history. Instead, the
/// `(hash, rowid)` pairs of the rows are kept as sorted **runs** (a blob of
/// 16-byte pairs each): one or more for the rows a full derivation saw,
/// then one per append-only derivation for the rows it appended. After an
/// append-only ingest, only the appended rows are read from the log; each
/// run is read as one blob and merged with their sorted hashes.
///
/// The contract, as ``DerivationMarks``'s: the runs of a log are kept with
/// the mark of its derived table, in the same transaction, and hold the
/// pair of every log row up to the rowid they cover. Removing log rows
/// forgets the marks, and the runs with them (``forgetAll(_:)``); a
/// derivation that starts from scratch writes the runs anew. A run may
/// also name rows removed since (a repeat within a file rejected after
/// the derivation listed it): such a pair only adds a candidate, which the
/// derivation's comparison of keys leaves out. The hash is ``ByteHash``
/// (stable across processes); a change to it changes ``layout``, and runs
/// of another layout are written anew.
///
/// ```swift
/// let since = try DerivationMarks.lastRow(db, .expenseWinners)
/// let groups = try KeyHashRuns.expenseIds.collisions(db, since: since)
/// // groups: rowids (ascending) whose ids hash alike, each with an appended row when `since` is given
/// try DerivationMarks.record(db, .expenseWinners, log: "expense_version")
/// ```
struct KeyHashRuns {
    /// The runs' name: the log and its key column.
    let name: String
    let log: String
    let key: String

    /// Whether a row whose key is NULL is left out (it repeats nothing).
    let skipsNull: Bool

    init(log: String, key: String, skipsNull: Bool = false) {
        self.log = log
        self.key = key
        self.skipsNull = skipsNull
        name = "\(log).\(key)"
    }

    /// The expense versions' ids (``ExpensesSchema``).
    static let expenseIds = KeyHashRuns(log: "expense_version", key: "id")
    /// The subscription events' ids (``SubscriptionLogSchema``).
    static let eventIds = KeyHashRuns(log: "subscription_event_row", key: "id")
    /// The check-ins' ids and workout ids (``CheckinLogSchema``).
    static let checkinIds = KeyHashRuns(log: "checkin_row", key: "id")
    static let checkinWorkouts = KeyHashRuns(log: "checkin_row", key: "workout_entry_id", skipsNull: true)

    /// The layout of the pairs (``ByteHash``, then the 16-byte pair).
    static let layout = 1

    /// The most pairs a full derivation hashes at once, and holds in one
    /// run: 64 MiB of pairs. A larger log is hashed in passes, one residue
    /// of the hash each.
    static let pairsPerPass = 4 << 20

    /// v31: the runs, and how far each log's runs cover it.
    static func createTables(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE key_hash_run (id INTEGER PRIMARY KEY, name TEXT NOT NULL, pairs BLOB NOT NULL);
            CREATE INDEX key_hash_run_name ON key_hash_run(name);
            CREATE TABLE key_hash_cover (name TEXT PRIMARY KEY, last_row INTEGER NOT NULL, layout INTEGER NOT NULL) WITHOUT ROWID;
            """)
    }

    /// Forgets every log's runs: log rows were removed (``DerivationMarks/forgetAll(_:)``).
    static func forgetAll(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM key_hash_run; DELETE FROM key_hash_cover")
    }

    /// The groups of log rows whose keys hash alike, rowids ascending in each
    /// group, groups in no particular order; the runs are brought up to date.
    ///
    /// With `since` (the log's last rowid at the previous derivation, only
    /// appended to since): the groups an appended row or one of `also`
    /// (earlier rows whose groups the caller needs again) joins, from the
    /// runs, the appended rows and `also`'s keys, when the runs cover
    /// `since`; from a scan of the whole log otherwise. Without: every
    /// group, from a scan of the log.
    func collisions(_ db: Database, since: Int64?, also: Set<Int64> = [], perPass: Int = pairsPerPass) throws -> [[Int64]] {
        if let since, try covers(db, since) {
            return try appendedCollisions(db, since: since, also: also)
        }
        var groups = try scannedCollisions(db, perPass: perPass)
        if let since { groups.removeAll { ($0.last ?? 0) <= since && !$0.contains(where: also.contains) } }
        return groups
    }

    /// Every group of rows whose keys hash alike, for each of `keys` (runs
    /// of one log's key columns), as ``collisions(_:since:perPass:)`` gives
    /// them without `since`; the runs are brought up to date. When the runs
    /// cover `since`, the log's rows up to it are not read: the runs are, and
    /// the rows appended since. Otherwise one scan of the log hashes every
    /// key at once (in one pass: the groups of a key need all its pairs).
    static func allCollisions(_ keys: [KeyHashRuns], _ db: Database, since: Int64?) throws -> [[[Int64]]] {
        var covered = since != nil
        for keyRuns in keys where covered { covered = try keyRuns.covers(db, since ?? 0) }
        var read = try hashed(keys, db, after: covered ? since : nil)
        // One key at a time: its kept runs (each sorted) merged with the pairs just read.
        var groups: [[[Int64]]] = []
        for (k, keyRuns) in keys.enumerated() {
            var lists: [[Pair]] = []
            if covered {
                try keyRuns.forEachRun(db) { blob in lists.append((0..<(blob.count / 16)).map { Self.pair(blob, $0) }) }
            } else {
                try db.execute(sql: "DELETE FROM key_hash_run WHERE name = ?", arguments: [keyRuns.name])
            }
            let pairs = Self.sortedPairs(&read[k])
            read[k] = KeyHashes()
            lists.append(pairs)
            try keyRuns.store(db, pairs)
            try keyRuns.cover(db)
            groups.append(Self.groups(inSorted: Self.merged(consume lists)))
        }
        return groups
    }

    /// Each of `keys`' pairs (of one log), from one scan of its rows after
    /// `after` (every row without), keeping the hashes `keeping` accepts; a
    /// NULL key is left out where the key says so.
    private static func hashed(_ keys: [KeyHashRuns], _ db: Database, after: Int64?,
                               keeping: (UInt64) -> Bool = { _ in true }) throws -> [KeyHashes] {
        guard let log = keys.first?.log, keys.allSatisfy({ $0.log == log }) else { preconditionFailure("keys of one log") }
        var read = [KeyHashes](repeating: KeyHashes(), count: keys.count)
        let columns = keys.map(\.key).joined(separator: ", ")
        try RawCursor(db, sql: "SELECT rowid, \(columns) FROM \(log) WHERE rowid > ?", arguments: [after ?? Int64.min])
            .forEach { row in
                let rowid = row.int64(0)
                for (k, keyRuns) in keys.enumerated() {
                    let bytes = row.bytes(Int32(k + 1))
                    if bytes == nil && keyRuns.skipsNull { continue }
                    let hash = Self.hash(bytes)
                    if keeping(hash) { read[k].add(hash: Int(bitPattern: UInt(hash)), rowid: rowid) }
                }
            }
        return read
    }

    /// `hashes`' pairs, sorted by hash (unsigned), then rowid.
    private static func sortedPairs(_ hashes: inout KeyHashes) -> [Pair] {
        hashes.sortedPairs().map { Pair(hash: UInt64(bitPattern: Int64($0.hash)), rowid: $0.rowid) }
    }

    /// A kept pair: a key's hash and its row.
    typealias Pair = (hash: UInt64, rowid: Int64)

    /// The pairs of `lists` (each sorted by hash, then rowid) in one sorted
    /// list, merged two lists at a time (each level releases the one before).
    static func merged(_ lists: consuming [[Pair]]) -> [Pair] {
        var lists = lists
        lists.removeAll { $0.isEmpty }
        while lists.count > 1 {
            var next: [[Pair]] = []
            for i in stride(from: 0, to: lists.count, by: 2) {
                guard i + 1 < lists.count else { next.append(lists[i]); continue }
                let (a, b) = (lists[i], lists[i + 1])
                var out: [Pair] = []
                out.reserveCapacity(a.count + b.count)
                var (x, y) = (0, 0)
                while x < a.count && y < b.count {
                    if (a[x].hash, a[x].rowid) <= (b[y].hash, b[y].rowid) { out.append(a[x]); x += 1 } else { out.append(b[y]); y += 1 }
                }
                out += a[x...]
                out += b[y...]
                next.append(out)
            }
            lists = next
        }
        return lists.first ?? []
    }

    /// The groups of rows sharing a hash in sorted `pairs`: rowids
    /// ascending, each once (a rowid handed out again with the key it had
    /// when a run kept it is in two runs), groups of one left out.
    static func groups(inSorted pairs: [Pair]) -> [[Int64]] {
        var groups: [[Int64]] = []
        var start = 0
        while start < pairs.count {
            var end = start + 1
            while end < pairs.count && pairs[end].hash == pairs[start].hash { end += 1 }
            if end - start > 1 {
                var rows: [Int64] = []
                for pair in pairs[start..<end] where rows.last != pair.rowid { rows.append(pair.rowid) }
                if rows.count > 1 { groups.append(rows) }
            }
            start = end
        }
        return groups
    }

    /// Calls `body` with each run's pairs.
    private func forEachRun(_ db: Database, _ body: (UnsafeRawBufferPointer) -> Void) throws {
        let runs = try RawCursor(db, sql: "SELECT pairs FROM key_hash_run WHERE name = ?", arguments: [name])
        while try runs.next() {
            if let blob = runs.bytes(0) { body(blob) }
        }
    }

    /// The `i`th pair of a run.
    @inline(__always)
    private static func pair(_ blob: UnsafeRawBufferPointer, _ i: Int) -> Pair {
        (UInt64(littleEndian: blob.loadUnaligned(fromByteOffset: i * 16, as: UInt64.self)),
         Int64(littleEndian: blob.loadUnaligned(fromByteOffset: i * 16 + 8, as: Int64.self)))
    }

    /// Whether the runs hold every row up to `since`, in this layout.
    private func covers(_ db: Database, _ since: Int64) throws -> Bool {
        guard let row = try Row.fetchOne(db, sql: "SELECT last_row, layout FROM key_hash_cover WHERE name = ?", arguments: [name])
        else { return false }
        let lastRow: Int64 = row[0], layout: Int = row[1]
        return layout == Self.layout && lastRow >= since
    }

    /// Every row hashed, in passes of at most `perPass` rows (one residue of
    /// the hash each); the runs written anew, one per pass.
    private func scannedCollisions(_ db: Database, perPass: Int) throws -> [[Int64]] {
        try db.execute(sql: "DELETE FROM key_hash_run WHERE name = ?", arguments: [name])
        let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(log)") ?? 0
        let passes = UInt64(max(1, (rows + perPass - 1) / max(perPass, 1)))
        var groups: [[Int64]] = []
        for pass in 0..<passes {
            var read = try Self.hashed([self], db, after: nil) { passes == 1 || $0 % passes == pass }
            let pairs = Self.sortedPairs(&read[0])
            groups += Self.groups(inSorted: pairs)
            try store(db, pairs)
        }
        try cover(db)
        return groups
    }

    /// The groups an appended row (after `since`) or one of `also` joins:
    /// the appended rows' pairs, merged with each run's pairs of their
    /// hashes and of `also`'s keys; the appended pairs then kept as a run.
    private func appendedCollisions(_ db: Database, since: Int64, also: Set<Int64>) throws -> [[Int64]] {
        var read = try Self.hashed([self], db, after: since)
        let fresh = Self.sortedPairs(&read[0])
        guard !fresh.isEmpty || !also.isEmpty else { return [] }
        // The distinct hashes wanted, ascending as the runs are.
        var hashes = fresh.map(\.hash)
        let key = try RawCursor(db, sql: "SELECT \(self.key) FROM \(log) WHERE rowid = ?")
        for rowid in also {
            try key.forEach(rowid) { row in
                let bytes = row.bytes(0)
                if bytes != nil || !skipsNull { hashes.append(Self.hash(bytes)) }
            }
        }
        hashes.sort()
        var wanted: [UInt64] = []
        for hash in hashes where wanted.last != hash { wanted.append(hash) }
        var lists = [fresh]
        try forEachRun(db) { blob in
            // Both ascending: one merge pass over the run, whose matches come out sorted.
            var matches: [Pair] = []
            var w = 0
            for i in 0..<(blob.count / 16) {
                let pair = Self.pair(blob, i)
                while w < wanted.count && wanted[w] < pair.hash { w += 1 }
                if w == wanted.count { break }
                if wanted[w] == pair.hash { matches.append(pair) }
            }
            lists.append(matches)
        }
        try store(db, fresh)
        try cover(db)
        return Self.groups(inSorted: Self.merged(consume lists))
    }

    /// Keeps `pairs` (sorted by hash) as a run.
    private func store(_ db: Database, _ pairs: [Pair]) throws {
        guard !pairs.isEmpty else { return }
        var blob = [UInt8](repeating: 0, count: pairs.count * 16)
        blob.withUnsafeMutableBytes { out in
            for (i, pair) in pairs.enumerated() {
                out.storeBytes(of: pair.hash.littleEndian, toByteOffset: i * 16, as: UInt64.self)
                out.storeBytes(of: pair.rowid.littleEndian, toByteOffset: i * 16 + 8, as: Int64.self)
            }
        }
        try db.execute(sql: "INSERT INTO key_hash_run (name, pairs) VALUES (?, ?)", arguments: [name, Data(blob)])
    }

    /// Records that the runs hold every row of the log as it stands.
    private func cover(_ db: Database) throws {
        try db.execute(sql: """
            INSERT OR REPLACE INTO key_hash_cover (name, last_row, layout) SELECT ?, coalesce(max(rowid), 0), ? FROM \(log)
            """, arguments: [name, Self.layout])
    }

    /// A key's hash, stable across processes (a NULL key hashes as empty bytes).
    static func hash(_ key: UnsafeRawBufferPointer?) -> UInt64 {
        guard let key, let base = key.baseAddress else { return ByteHash.of(UnsafeBufferPointer<UInt8>(start: nil, count: 0)) }
        return ByteHash.of(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: key.count))
    }
}
