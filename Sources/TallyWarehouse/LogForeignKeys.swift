import GRDB

/// v10: the append-only logs check their file's foreign key when the ingest
/// commits (`DEFERRABLE INITIALLY DEFERRED`) instead of at each statement.
///
/// An `INSERT` of many rows whose foreign key is checked at once needs a
/// statement journal inside the ingest's transaction (to undo its own rows
/// on a violation), and SQLite kept that journal in a temporary file for the
/// rest of the transaction once one statement's outgrew 64 KiB. Measured at
/// medium (`perf trace`): the 64-row appends of these four logs wrote ~12 GB
/// of journal pages to /var/tmp, ~0.6 s of the writer's time. A deferred
/// key needs no statement journal (with `INSERT OR FAIL`, see
/// `IngestSession.append`); `ON DELETE CASCADE` still acts at once, and a
/// row naming no loaded file still fails, at commit.
///
/// The change is to the declarations only, not to the stored rows, so it
/// edits the schema text in place (SQLite's documented procedure for
/// constraint changes: `writable_schema`, then a new `schema_version`)
/// instead of copying every log.
enum LogForeignKeys {
    /// The logs appended 64 rows to a statement (`IngestSession.append`).
    static let tables = ["expense_version", "activity_row", "checkin_row", "subscription_event_row"]
    static let immediate = "REFERENCES input_file(id) ON DELETE CASCADE"
    static let deferred = immediate + " DEFERRABLE INITIALLY DEFERRED"

    static func register(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v10: log foreign keys checked at commit") { db in
            let version = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
            try db.execute(sql: "PRAGMA writable_schema = ON")
            for table in tables {
                let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?",
                                              arguments: [table]) ?? ""
                // Exactly one key per log: anything else is a schema this code does not know.
                guard sql.components(separatedBy: immediate).count == 2, !sql.contains("DEFERRABLE") else {
                    throw DatabaseError(message: "v10: unexpected declaration of \(table): \(sql)")
                }
                try db.execute(sql: "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?",
                               arguments: [sql.replacingOccurrences(of: immediate, with: deferred), table])
            }
            try db.execute(sql: "PRAGMA schema_version = \(version + 1)")
            try db.execute(sql: "PRAGMA writable_schema = OFF")
        }
    }
}
