import Foundation
import GRDB

/// The reports last published into an out folder, as recorded in the warehouse.
public struct Publication: Sendable, Equatable {
    /// The digest of everything the reports depend on.
    public var key: String
    /// The digest of the files the run left in the out folder.
    public var files: String
    /// run.json as published, without run-specific facts.
    public var manifest: Data
    /// The rows of rejects.csv.
    public var rejects: Int
    /// The report stages' terminal summary lines.
    public var summary: [String]

    public init(key: String, files: String, manifest: Data, rejects: Int, summary: [String]) {
        self.key = key
        self.files = files
        self.manifest = manifest
        self.rejects = rejects
        self.summary = summary
    }
}

/// A run that published reports, as the run history keeps it.
public struct PublishedRun: Sendable, Equatable {
    /// The month reported, `YYYY-MM`.
    public var period: String
    /// Its headline figures, as run.json lists them (JSON).
    public var figures: Data

    public init(period: String, figures: Data) {
        self.period = period
        self.figures = figures
    }
}

extension Warehouse {
    /// The publication recorded for the out folder at `outPath` (absolute), if any.
    public func publication(outPath: String) throws -> Publication? {
        try queue.read { db in
            try Row.fetchOne(db, sql: "SELECT key, files, manifest, rejects, summary FROM report_publication WHERE out_path = ?",
                             arguments: [outPath]).map { row in
                let summary: String = row["summary"]
                return Publication(key: row["key"], files: row["files"], manifest: row["manifest"], rejects: row["rejects"],
                                   summary: summary.isEmpty ? [] : summary.components(separatedBy: "\n"))
            }
        }
    }

    /// Records `publication` for the out folder at `outPath`, replacing the
    /// previous one, and appends `run` to the run history, in one transaction.
    public func record(_ publication: Publication, outPath: String, run: PublishedRun? = nil) throws {
        try queue.write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO report_publication (out_path, key, files, manifest, rejects, summary) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [outPath, publication.key, publication.files, publication.manifest, publication.rejects,
                                 publication.summary.joined(separator: "\n")])
            if let run {
                try db.execute(sql: "INSERT INTO run_history (period, out_path, figures) VALUES (?, ?, ?)",
                               arguments: [run.period, outPath, run.figures])
            }
        }
    }

    /// The last run that published reports from this warehouse, if any.
    public func lastPublishedRun() throws -> PublishedRun? {
        try queue.read { db in
            try Row.fetchOne(db, sql: "SELECT period, figures FROM run_history ORDER BY seq DESC LIMIT 1").map {
                PublishedRun(period: $0["period"], figures: $0["figures"])
            }
        }
    }
}

extension WarehouseReader {
    /// A digest source of everything in the warehouse that reports read
    /// beyond configuration: each loaded file (path, content, load order,
    /// accounting).
    public func reportInputsDigest() throws -> String {
        let files = try String.fetchAll(db, sql: """
            SELECT path || char(1) || sha256 || char(1) || load_seq || char(1) || rows_read || char(1) || rows_rejected
                   || char(1) || rows_superseded || char(1) || unknown_fields || char(1) || table_name
            FROM input_file ORDER BY path
            """)
        return files.joined(separator: "\n")
    }
}
