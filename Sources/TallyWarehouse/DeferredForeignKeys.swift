import GRDB

/// v10 and v11: every table's key to its input file is checked when the
/// ingest commits (`DEFERRABLE INITIALLY DEFERRED`) instead of at each
/// statement.
///
/// A statement that writes many rows (a 64-row append) or may update (an
/// upsert) and whose foreign key is checked at once needs a statement
/// journal inside the ingest's transaction (to undo itself on a
/// violation), and SQLite keeps that journal in a temporary file for the
/// rest of the transaction once one statement's outgrows 64 KiB, so every
/// later append and upsert copies its pages there (gigabytes at medium: see
/// docs/performance.md). A deferred key needs no
/// statement journal (with `INSERT OR FAIL`, see `IngestSession.append`,
/// and `UpsertStatement`); `ON DELETE CASCADE` still acts at once, and a row
/// naming no loaded file still fails, at commit.
///
/// The change is to the declarations only, not to the stored rows, so it
/// edits the schema text in place (SQLite's documented procedure for
/// constraint changes: `writable_schema`, then a new `schema_version`)
/// instead of copying every table.
enum DeferredForeignKeys {
    /// The logs appended 64 rows to a statement (`IngestSession.append`): v10.
    static let logs = ["expense_version", "activity_row", "checkin_row", "subscription_event_row"]
    static let immediate = "REFERENCES input_file(id) ON DELETE CASCADE"
    static let deferred = immediate + " DEFERRABLE INITIALLY DEFERRED"

    /// v10: the logs' keys (``logs``) checked at commit.
    static func deferLogKeys(_ db: Database) throws {
        try deferKeys(of: logs, db)
    }

    /// v11: every other table's key to `input_file` checked at commit.
    static func deferRemainingKeys(_ db: Database) throws {
        let rest = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .filter { row in
                let sql: String = row["sql"] ?? ""
                return sql.contains(immediate) && !sql.contains("DEFERRABLE")
            }
            .map { row -> String in row["name"] }
        try deferKeys(of: rest, db)
    }

    /// Rewrites each table's one key to `input_file` as deferred.
    private static func deferKeys(of tables: [String], _ db: Database) throws {
        guard !tables.isEmpty else { return }
        let version = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
        try db.execute(sql: "PRAGMA writable_schema = ON")
        for table in tables {
            let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?",
                                          arguments: [table]) ?? ""
            // Exactly one such key per table: anything else is a schema this code does not know.
            guard sql.components(separatedBy: immediate).count == 2, !sql.contains("DEFERRABLE") else {
                throw DatabaseError(message: "\(table): unexpected declaration: \(sql)")
            }
            try db.execute(sql: "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?",
                           arguments: [sql.replacingOccurrences(of: immediate, with: deferred), table])
        }
        try db.execute(sql: "PRAGMA schema_version = \(version + 1)")
        try db.execute(sql: "PRAGMA writable_schema = OFF")
    }
}
