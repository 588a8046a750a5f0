import GRDB
import TallyIngest

/// Input files refused as a whole by the last ingest of their data folder
/// (see `FileRefusal` in TallyPipeline): kept in the warehouse so that a
/// `tally report` run after `tally ingest` knows which tables lack a file
/// and says so, as `tally run` does.
enum RefusedFileSchema {
    /// v15: the `refused_file` table.
    static func createTable(_ db: Database) throws {
        try db.execute(sql: """
            -- One row per refused file (absolute path); none of its rows is loaded.
            CREATE TABLE refused_file (
                path TEXT PRIMARY KEY, display_path TEXT NOT NULL, dataset TEXT NOT NULL,
                table_name TEXT NOT NULL, bytes INTEGER NOT NULL, reason TEXT NOT NULL,
                earlier_version_kept INTEGER NOT NULL
            ) WITHOUT ROWID;
            """)
    }
}

/// A file refused as a whole, as the warehouse records it.
public struct RefusedFile: Sendable, Equatable {
    /// The absolute path.
    public var path: String
    /// The path in its data folder, as reports show it.
    public var displayPath: String
    public var dataset: String
    public var table: String
    public var bytes: Int64
    public var reason: String
    /// Whether the version of the file loaded before stays loaded.
    public var earlierVersionKept: Bool

    public init(path: String, displayPath: String, dataset: String, table: String, bytes: Int64, reason: String,
                earlierVersionKept: Bool) {
        self.path = path
        self.displayPath = displayPath
        self.dataset = dataset
        self.table = table
        self.bytes = bytes
        self.reason = reason
        self.earlierVersionKept = earlierVersionKept
    }
}

extension IngestSession {
    /// Replaces the refusals recorded for files under `folder` (absolute)
    /// with `refused`: an ingest of a data folder is the current state of
    /// its files, refusals included.
    public func recordRefusals(under folder: String, _ refused: [RefusedFile]) throws {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        try db.execute(sql: "DELETE FROM refused_file WHERE substr(path, 1, ?) = ?", arguments: [prefix.utf8.count, prefix])
        for r in refused {
            try db.execute(sql: "INSERT OR REPLACE INTO refused_file VALUES (?, ?, ?, ?, ?, ?, ?)",
                           arguments: [r.path, r.displayPath, r.dataset, r.table, r.bytes, r.reason, r.earlierVersionKept])
        }
    }
}

extension WarehouseReader {
    /// Every file refused by the last ingest of its folder, by display path.
    public func refusedFiles() throws -> [RefusedFile] {
        try Row.fetchAll(db, sql: "SELECT * FROM refused_file ORDER BY display_path, path").map { row in
            RefusedFile(path: row["path"], displayPath: row["display_path"], dataset: row["dataset"], table: row["table_name"],
                        bytes: row["bytes"], reason: row["reason"], earlierVersionKept: row["earlier_version_kept"])
        }
    }
}
