import Foundation
import GRDB
import TallyCore

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

/// A member's closing balance on a couple's published statement.
public struct CoupleClosing: Sendable, Equatable {
    public var coupleId: String
    public var memberId: String
    /// In the couple's currency's minor units.
    public var closing: Int64

    public init(coupleId: String, memberId: String, closing: Int64) {
        self.coupleId = coupleId
        self.memberId = memberId
        self.closing = closing
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
    /// With `closings`, the couples' closing balances of `run`'s month
    /// replace those recorded for that month before; with `keyStates`, each
    /// family's kept results become those the run leaves (``KeyStateUpdate``).
    public func record(_ publication: Publication, outPath: String, run: PublishedRun? = nil,
                       closings: [CoupleClosing] = [], keyStates: [KeyStateUpdate] = []) throws {
        try queue.write { db in
            for update in keyStates { try update.store(db) }
            if let run, !closings.isEmpty {
                try db.execute(sql: "DELETE FROM couple_closing WHERE month = ?", arguments: [run.period])
                let loadSeq = try Int64.fetchOne(db, sql: "SELECT coalesce(max(load_seq), 0) FROM input_file") ?? 0
                // Bound value by value (a couple's two members on every month's run, at its end).
                let insert = try BulkStatement(db, sql: """
                    INSERT INTO couple_closing (month, couple_id, member_id, closing, load_seq) VALUES (?, ?, ?, ?, ?)
                    """)
                for c in closings {
                    insert.bind(1, run.period); insert.bind(2, c.coupleId); insert.bind(3, c.memberId)
                    insert.bind(4, c.closing); insert.bind(5, loadSeq)
                    try insert.step()
                }
            }
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

    /// The sequence number of the last run that published reports of `period`, if any.
    public func lastRunSeq(period: YearMonth) throws -> Int64? {
        try queue.read { db in
            try Int64.fetchOne(db, sql: "SELECT max(seq) FROM run_history WHERE period = ?", arguments: [period.description])
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
    /// The couples' statements of `month` as published from this warehouse,
    /// couple by couple in couple id byte order, taken beside a scan in the
    /// same order (``PublishedClosingCursor/take(key:)``): each member's
    /// closing balance, and the input files (display paths) loaded after
    /// publication. `only`: that couple's alone.
    public func publishedClosingCursor(month: YearMonth, only couple: String? = nil) throws -> PublishedClosingCursor {
        var since: [Int64: Set<String>] = [:]
        var changed: [Int64: [String: Set<String>]] = [:]
        for seq in try Int64.fetchAll(db, sql: "SELECT DISTINCT load_seq FROM couple_closing WHERE month = ?1 AND (?2 IS NULL OR couple_id = ?2)",
                                      arguments: [month.description, couple]) {
            since[seq] = Set(try String.fetchAll(db, sql: "SELECT display_path FROM input_file WHERE load_seq > ?", arguments: [seq]))
            changed[seq] = try changedAgreements(since: seq, only: couple)
        }
        let rows = try PartitionCursor(db, sql: """
            SELECT couple_id, member_id, closing, load_seq FROM couple_closing WHERE month = ?1 AND (?2 IS NULL OR couple_id = ?2)
            ORDER BY couple_id
            """, arguments: [month.description, couple]) { c in (member: c.textValue(1), closing: c.int64(2), loadSeq: c.int64(3)) }
        return PublishedClosingCursor(month: month, rows: rows, since: since, changed: changed)
    }

    /// The agreements counting now from a file loaded after `load_seq` `seq`
    /// whose content no file loaded by then gave (new, or changed), by couple.
    /// The agreements files loaded by then are few (a month's folder each),
    /// listed once, and the rows they set aside are keyed by file: one
    /// look-up per agreement and file (joined to the files per agreement,
    /// SQLite would scan every row set aside for each agreement).
    private func changedAgreements(since seq: Int64, only couple: String?) throws -> [String: Set<String>] {
        let same = ["couple_id", "description", "amount", "currency", "paid_by", "split_type", "split", "tag", "day_of_month",
                    "start_date"].map { "s.\($0) = a.\($0)" }.joined(separator: " AND ")
        let rows = try Row.fetchCursor(db, sql: """
            SELECT a.couple_id, a.id FROM agreement a JOIN input_file f ON f.id = a.file_id
            WHERE f.load_seq > ?1 AND (?2 IS NULL OR a.couple_id = ?2) AND NOT EXISTS (
                SELECT 1 FROM agreement_superseded s
                WHERE s.file_id IN (SELECT id FROM input_file WHERE load_seq <= ?1 AND table_name = 'agreements')
                  AND s.id = a.id AND \(same) AND s.end_date IS a.end_date)
            """, arguments: [seq, couple])
        var changed: [String: Set<String>] = [:]
        while let row = try rows.next() { changed[row[0], default: []].insert(row[1]) }
        return changed
    }

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

/// The couples' published closings of a month in couple id order
/// (``WarehouseReader/publishedClosingCursor(month:only:)``): memory for
/// one couple's at a time, beside the files and agreements loaded since.
public final class PublishedClosingCursor {
    private let month: YearMonth
    private let rows: PartitionCursor<(member: String, closing: Int64, loadSeq: Int64)>
    private let since: [Int64: Set<String>]
    private let changed: [Int64: [String: Set<String>]]

    init(month: YearMonth, rows: PartitionCursor<(member: String, closing: Int64, loadSeq: Int64)>,
         since: [Int64: Set<String>], changed: [Int64: [String: Set<String>]]) {
        self.month = month
        self.rows = rows
        self.since = since
        self.changed = changed
    }

    /// What couple `key`'s statement of the month was published with, nil
    /// when none was, passing every smaller key; keys must come in byte order.
    public func take(key: String) throws -> PublishedClosing? {
        let members = try rows.take(key: key)
        guard let seq = members.last?.loadSeq else { return nil }
        var closing: [String: Int64] = [:]
        for member in members { closing[member.member] = member.closing }
        return PublishedClosing(month: month, closing: closing, filesSince: since[seq] ?? [],
                                changedAgreements: changed[seq]?[key] ?? [])
    }
}
