import GRDB
import TallyCore

/// Per-key results a later run may take as stored instead of reading the
/// key's rows again, and the changes of each derived table's keys that say
/// when a stored result no longer holds.
///
/// - **Key changes** (`key_change_scope`, `key_change`): a derivation that
///   refreshes a table keyed by report partition (`checkin_winner`, by
///   challenge; `subscription_event`, by subscriber; `expense_winner`, by
///   couple and month) numbers each of its
///   refreshes (`seq`) and logs the keys each refresh changed; a refresh
///   from scratch changes every key (`all_since`). A key unchanged since
///   refresh `s` has the rows it had then.
/// - **Key states** (`key_state`, `key_state_set`): a family's results per
///   key, each with the refresh of its rows' scope it was computed at, the
///   fingerprint of what else it read (its reference rows, as the family
///   spells them), and its result as the family encodes it. The set of a
///   family is complete: it holds every key the family chose to keep at the
///   run that last wrote it, and `key_state_set` says at which refresh and
///   under which settings (the build, the configuration) that was.
///
/// The warehouse stores and looks up; whether a result may be taken is the
/// family's rule (for the leaderboards, ``TallyCore/SettledBoard``).
///
/// ```swift
/// let changes = try reader.keyChanges(scope: "checkins")
/// let set = try reader.keyStates(family: "leaderboards")
/// if let state = set?.states["ch1"], changes.unchanged("ch1", since: state.seq) { … }
/// ```
public enum KeyStates {
    /// The scope of `checkin_winner`'s keys: its rows by challenge.
    public static let checkinScope = CheckinLogSchema.changeScope
    /// The scope of `subscription_event`'s keys: its rows by subscriber (``WarehouseReader/subscriberKey(app:userId:)``).
    public static let subscriptionScope = SubscriptionLogSchema.changeScope
    /// The scope of `expense_winner`'s keys: its rows by couple and by how far back a change reaches
    /// (`YYYY-MM|coupleId`, see ``WarehouseReader/coupleChanges(since:)``).
    public static let coupleScope = ExpensesSchema.changeScope

    /// v26: key changes and key states, empty (the next derivation of each
    /// scope is counted from here; no family has a set yet).
    static func createTables(_ db: Database) throws {
        try db.execute(sql: """
            -- Per scope (a derived table's rows by report partition): the number of
            -- its last refresh, and of its last refresh from scratch.
            CREATE TABLE key_change_scope (
                scope TEXT PRIMARY KEY, seq INTEGER NOT NULL, all_since INTEGER NOT NULL
            ) WITHOUT ROWID;
            -- Per key of a scope: the last refresh that changed its rows.
            CREATE TABLE key_change (
                scope TEXT NOT NULL, key TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (scope, key)
            ) WITHOUT ROWID;
            -- Per family: the refresh and settings its kept results were last written at.
            CREATE TABLE key_state_set (
                family TEXT PRIMARY KEY, seq INTEGER NOT NULL, settings TEXT NOT NULL
            ) WITHOUT ROWID;
            -- Per family and key: a kept result, the refresh of its rows and the fingerprint of its other inputs.
            CREATE TABLE key_state (
                family TEXT NOT NULL, key TEXT NOT NULL, seq INTEGER NOT NULL, fingerprint TEXT NOT NULL,
                state BLOB NOT NULL, PRIMARY KEY (family, key)
            ) WITHOUT ROWID;
            """)
    }

    /// v28: key changes as a log by refresh, each refresh's keys appended
    /// (no row updated in place), so that recording a refresh costs its
    /// keys and a run reads the keys changed since its kept results, not
    /// every key its scope ever changed; a kept set names the scope it
    /// reads, and storing it drops the changes no set of that scope reads
    /// any more. The changes held until then are dropped, and each scope
    /// counts as changed in full at its last refresh (every kept result is
    /// computed again, once).
    static func logChangesByRefresh(_ db: Database) throws {
        try db.execute(sql: """
            DROP TABLE key_change;
            -- Per scope and refresh: the keys whose rows the refresh changed (none
            -- at or before every kept set of the scope: those are no longer read).
            CREATE TABLE key_change (
                scope TEXT NOT NULL, seq INTEGER NOT NULL, key TEXT NOT NULL, PRIMARY KEY (scope, seq, key)
            ) WITHOUT ROWID;
            UPDATE key_change_scope SET all_since = seq;
            -- The scope whose changes a family's kept results read.
            ALTER TABLE key_state_set ADD COLUMN scope TEXT NOT NULL DEFAULT '';
            """)
    }

    /// Starts a refresh of `scope`'s keys: returns its number. Called in the
    /// transaction of the derivation that refreshes them.
    static func beginRefresh(_ db: Database, scope: String) throws -> Int64 {
        try db.execute(sql: """
            INSERT INTO key_change_scope (scope, seq, all_since) VALUES (?, 1, 0)
            ON CONFLICT (scope) DO UPDATE SET seq = seq + 1
            """, arguments: [scope])
        return try Int64.fetchOne(db, sql: "SELECT seq FROM key_change_scope WHERE scope = ?", arguments: [scope]) ?? 1
    }

    /// Records that refresh `seq` of `scope` changed every key (a refresh from scratch).
    static func changedAll(_ db: Database, scope: String, seq: Int64) throws {
        try db.execute(sql: "UPDATE key_change_scope SET all_since = ? WHERE scope = ?", arguments: [seq, scope])
        try db.execute(sql: "DELETE FROM key_change WHERE scope = ?", arguments: [scope])
    }

    /// Records that refresh `seq` of `scope` changed the keys `select` lists
    /// (an SQL query of one column, never null; duplicates are fine).
    static func changed(_ db: Database, scope: String, seq: Int64, select: String, arguments: StatementArguments = []) throws {
        var keys = Set<String>()
        let rows = try RawCursor(db, sql: select, arguments: arguments)
        while try rows.next() { keys.insert(rows.textValue(0)) }
        try changed(db, scope: scope, seq: seq, keys: keys)
    }

    /// Records that refresh `seq` of `scope` changed `keys`: one row each,
    /// appended in key order at the end of the log. Single-row inserts that
    /// undo nothing need no statement journal (an `INSERT … SELECT` that may
    /// conflict keeps one in a temporary file for as many rows as it writes).
    static func changed(_ db: Database, scope: String, seq: Int64, keys: Set<String>) throws {
        let insert = try BulkStatement(db, sql: "INSERT OR IGNORE INTO key_change (scope, seq, key) VALUES (?, ?, ?)")
        // Sorted (String order, which is byte order for the ASCII ids keys are made of; any order is correct).
        for key in keys.sorted() {
            insert.bind(1, scope); insert.bind(2, seq); insert.bind(3, key)
            try insert.step()
        }
    }
}

/// What the refreshes of one scope changed (``WarehouseReader/keyChanges(scope:)``).
public struct KeyChanges: Sendable, Equatable {
    /// The last refresh (0: none recorded yet).
    public var seq: Int64
    /// The last refresh from scratch.
    public var allSince: Int64
    /// Per key, the last refresh that changed it (keys changed since the last refresh from scratch).
    public var changed: [String: Int64]

    public init(seq: Int64 = 0, allSince: Int64 = 0, changed: [String: Int64] = [:]) {
        self.seq = seq
        self.allSince = allSince
        self.changed = changed
    }

    /// Whether `key`'s rows are those it had at refresh `seq`.
    public func unchanged(_ key: String, since seq: Int64) -> Bool {
        allSince <= seq && (changed[key] ?? 0) <= seq
    }
}

/// A family's kept results (``WarehouseReader/keyStates(family:)``).
public struct KeyStateSet: Sendable {
    /// One kept result.
    public struct State: Sendable, Equatable {
        /// The refresh of the key's scope its rows were read at.
        public var seq: Int64
        /// The family's fingerprint of the key's other inputs.
        public var fingerprint: String
        /// The result, as the family encodes it.
        public var state: [UInt8]

        public init(seq: Int64, fingerprint: String, state: [UInt8]) {
            self.seq = seq
            self.fingerprint = fingerprint
            self.state = state
        }
    }

    /// The refresh of the scope at the run that last wrote the set.
    public var seq: Int64
    /// The settings (build, configuration) the set was written under.
    public var settings: String
    public var states: [String: State]

    public init(seq: Int64, settings: String, states: [String: State]) {
        self.seq = seq
        self.settings = settings
        self.states = states
    }
}

/// A family's kept results as a run leaves them: its set written at `seq`
/// of the key changes of `scope` under `settings`, holding exactly `kept`
/// keys: those in `written` with their new results, the others as stored.
public struct KeyStateUpdate: Sendable {
    public var family: String
    /// The scope of the key changes the family's kept results read (``KeyStates``).
    public var scope: String
    public var seq: Int64
    public var settings: String
    /// Every key the set holds after the run.
    public var kept: Set<String>
    /// The keys computed in this run, with their results.
    public var written: [String: KeyStateSet.State]

    public init(family: String, scope: String, seq: Int64, settings: String, kept: Set<String>,
                written: [String: KeyStateSet.State]) {
        self.family = family
        self.scope = scope
        self.seq = seq
        self.settings = settings
        self.kept = kept
        self.written = written
    }
}

extension WarehouseReader {
    /// What the refreshes of `scope` changed: every key, or with `since`,
    /// the keys changed after refresh `since` (enough to ask
    /// ``KeyChanges/unchanged(_:since:)`` about any refresh from `since` on).
    public func keyChanges(scope: String, since: Int64 = 0) throws -> KeyChanges {
        var changes = KeyChanges()
        if let row = try Row.fetchOne(db, sql: "SELECT seq, all_since FROM key_change_scope WHERE scope = ?", arguments: [scope]) {
            changes.seq = row[0]
            changes.allSince = row[1]
        }
        // By refresh: a key's last change comes last.
        let rows = try RawCursor(db, sql: "SELECT key, seq FROM key_change WHERE scope = ? AND seq > ? ORDER BY seq",
                                 arguments: [scope, since])
        while try rows.next() { changes.changed[rows.textValue(0)] = rows.int64(1) }
        return changes
    }

    /// `family`'s kept results, or nil when it has none; with `results:
    /// false`, each key's refresh and fingerprint only (its result empty:
    /// read it key by key with ``keyStateCursor(family:)``).
    public func keyStates(family: String, results: Bool = true) throws -> KeyStateSet? {
        guard let row = try Row.fetchOne(db, sql: "SELECT seq, settings FROM key_state_set WHERE family = ?",
                                         arguments: [family]) else { return nil }
        var set = KeyStateSet(seq: row[0], settings: row[1], states: [:])
        let rows = try RawCursor(db, sql: "SELECT key, seq, fingerprint\(results ? ", state" : "") FROM key_state WHERE family = ?",
                                 arguments: [family])
        while try rows.next() {
            let state = results ? rows.blob(3).map { [UInt8]($0) } ?? [] : []
            set.states[rows.textValue(0)] = .init(seq: rows.int64(1), fingerprint: rows.textValue(2), state: state)
        }
        return set
    }

    /// `family`'s kept results in key byte order, taken key by key beside a
    /// scan in the same order (memory for one result at a time).
    public func keyStateCursor(family: String) throws -> KeyStateCursor {
        KeyStateCursor(try PartitionCursor(db, sql: "SELECT key, seq, fingerprint, state FROM key_state WHERE family = ? ORDER BY key",
                                           arguments: [family]) { c in
            KeyStateSet.State(seq: c.int64(1), fingerprint: c.textValue(2), state: c.blob(3).map { [UInt8]($0) } ?? [])
        })
    }
}

/// A family's kept results in key byte order (``WarehouseReader/keyStateCursor(family:)``).
public final class KeyStateCursor {
    private let cursor: PartitionCursor<KeyStateSet.State>

    init(_ cursor: PartitionCursor<KeyStateSet.State>) { self.cursor = cursor }

    /// The result kept for `key`, passing every smaller key; keys must come in byte order.
    public func take(key: String) throws -> KeyStateSet.State? { try cursor.take(key: key).first }
}

extension KeyStateUpdate {
    /// Writes the update in `db`'s transaction: the set's record, the keys it
    /// no longer holds removed, the written ones replaced.
    func store(_ db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO key_state_set (family, seq, settings, scope) VALUES (?, ?, ?, ?)",
                       arguments: [family, seq, settings, scope])
        // The changes at or before every kept set of the scope are read by none of them any more.
        try db.execute(sql: """
            DELETE FROM key_change WHERE scope = ?1 AND seq <= (SELECT min(seq) FROM key_state_set WHERE scope = ?1)
            """, arguments: [scope])
        var gone: [String] = []
        let keys = try RawCursor(db, sql: "SELECT key FROM key_state WHERE family = ?", arguments: [family])
        while try keys.next() {
            let key = keys.textValue(0)
            if !kept.contains(key) { gone.append(key) }
        }
        let delete = try BulkStatement(db, sql: "DELETE FROM key_state WHERE family = ? AND key = ?")
        for key in gone {
            delete.bind(1, family); delete.bind(2, key)
            try delete.step()
        }
        let insert = try BulkStatement(db, sql: """
            INSERT OR REPLACE INTO key_state (family, key, seq, fingerprint, state) VALUES (?, ?, ?, ?, ?)
            """)
        for (key, state) in written.sorted(by: { ByteOrder.precedes($0.key, $1.key) }) {
            insert.bind(1, family); insert.bind(2, key); insert.bind(3, state.seq); insert.bind(4, state.fingerprint)
            try state.state.withUnsafeBytes { bytes in
                insert.bind(5, blob: bytes)
                try insert.step()
            }
        }
    }
}
