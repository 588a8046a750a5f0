import Foundation
import GRDB
import TallyCore
import TallyIngest

/// The write side of one ingest transaction: registers input files, stores
/// their records and rejects, and records which derived tables (the winning
/// expense versions, …) its changes call for.
public final class IngestSession {
    let db: Database
    private var literalStatements: [Int: BulkStatement] = [:]
    private var upsertStatements: [String: UpsertStatement] = [:]
    private var multiRowStatements: [String: BulkStatement] = [:]
    /// Input tables (`InputFile.tableName`) whose rows changed in this transaction.
    private(set) var changedTables: Set<String> = []
    /// The size of the last swipes file begun (sizes the swipe id filter).
    /// Per table, not per session: files of other datasets may begin
    /// between a swipes file's start and its first batch (`WriterLanes`).
    private(set) var swipesFileBytes: Int64 = 0
    /// Person numbers and the id filter of the swipes loaded in this session.
    var swipeStagerMade: SwipeStager?
    /// Per file being loaded into an append-only log whose key must not
    /// repeat within a file (check-ins): the hashes of the keys appended.
    var appendedKeys: [Int64: KeyHashes] = [:]
    /// Per swipes file being loaded: where its rows go in the log (``SwipeSpans``).
    var swipeSpans: [Int64: SwipeSpans.Pending] = [:]

    init(db: Database) { self.db = db }

    /// What the warehouse knows of a file already loaded from `path`.
    public struct KnownFile: Sendable {
        public var id: Int64
        public var sha256: String
        public var displayPath: String
    }

    /// The file loaded from `path` (absolute), if any.
    public func knownFile(path: String) throws -> KnownFile? {
        try Row.fetchOne(db, sql: "SELECT id, sha256, display_path FROM input_file WHERE path = ?", arguments: [path])
            .map { KnownFile(id: $0["id"], sha256: $0["sha256"], displayPath: $0["display_path"]) }
    }

    /// Unloads files loaded earlier from under `folder` (an absolute path) that
    /// are no longer there, with every row they brought: a data folder is the
    /// current state of its own files. Files loaded from other folders stay.
    /// Returns the display paths unloaded.
    public func unloadVanished(under folder: String, present: Set<String>) throws -> [String] {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let rows = try Row.fetchAll(db, sql: "SELECT id, path, display_path, table_name FROM input_file WHERE substr(path, 1, ?) = ?",
                                    arguments: [prefix.utf8.count, prefix])
        var unloaded: [String] = []
        for row in rows {
            let path: String = row["path"]
            guard !present.contains(path) else { continue }
            try unload(fileId: row["id"])
            changedTables.insert(row["table_name"])
            unloaded.append(row["display_path"])
        }
        return unloaded.sorted()
    }

    /// Registers a file about to be loaded and returns its id. A previous
    /// version loaded from the same path is removed first, with every row it
    /// brought: the new export replaces it.
    public func beginFile(_ file: InputFile, absolutePath: String, bytes: Int64, sha256: String) throws -> Int64 {
        if let old = try knownFile(path: absolutePath) { try unload(fileId: old.id) }
        changedTables.insert(file.tableName)
        if file.tableName == SwipeLogSchema.table { swipesFileBytes = bytes }
        let seq = (try Int64.fetchOne(db, sql: "SELECT max(load_seq) FROM input_file") ?? 0) + 1
        try db.execute(sql: """
            INSERT INTO input_file (path, display_path, dataset, table_name, bytes, sha256, load_seq)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, arguments: [absolutePath, try displayPath(file.relativePath, absolutePath: absolutePath),
                             file.dataset, file.tableName, bytes, sha256, seq])
        let id = db.lastInsertedRowID
        if file.tableName == SwipeLogSchema.table { swipeSpans[id] = try SwipeSpans.Pending(db) }
        return id
    }

    /// How reports name a file: its path in its data folder, unless a file
    /// loaded from another folder already shows as that (monthly folders run
    /// into one warehouse both hold `expenses/expenses.csv`); then the
    /// folder's name leads it (`2026-10/expenses/expenses.csv`), or, if that
    /// is taken too, the absolute path. Display paths stay unique, so
    /// rejects and row accounting never mix two files.
    func displayPath(_ relative: String, absolutePath: String) throws -> String {
        func taken(_ candidate: String) throws -> Bool {
            try Int.fetchOne(db, sql: "SELECT 1 FROM input_file WHERE display_path = ? AND path <> ?",
                             arguments: [candidate, absolutePath]) != nil
        }
        guard try taken(relative) else { return relative }
        let folder = URL(fileURLWithPath: String(absolutePath.dropLast(relative.count))).lastPathComponent
        let named = folder.isEmpty ? absolutePath : folder + "/" + relative
        return try taken(named) ? absolutePath : named
    }

    /// Removes a loaded file with every row it brought (by foreign key, and
    /// from the logs that have none). A keyed table's keys it gave a row of
    /// are judged again among the rows left (``KeyedTable/rejudge(keys:in:)``). The derived tables' next
    /// derivations start from scratch (``DerivationMarks``).
    private func unload(fileId: Int64) throws {
        let inputTable = try String.fetchOne(db, sql: "SELECT table_name FROM input_file WHERE id = ?", arguments: [fileId])
        let keyed = inputTable.flatMap { KeyedTable.forInputTable[$0] }
        let keys = try keyed?.keys(of: fileId, in: db) ?? []
        for log in WarehouseSchema.logsWithoutForeignKey {
            try db.execute(sql: "DELETE FROM \(log) WHERE file_id = ?", arguments: [fileId])
        }
        try db.execute(sql: "DELETE FROM input_file WHERE id = ?", arguments: [fileId])
        try keyed?.rejudge(keys: keys, in: db)
        try DerivationMarks.forgetAll(db)
    }

    /// Records the counts of a loaded file, and its size and sha256 when
    /// they were taken as it loaded (`fingerprint`; ``beginFile(_:absolutePath:bytes:sha256:)``
    /// then had none); then adds the rows its load superseded in earlier
    /// files to theirs (``UpsertStatement/flushSuperseded(finishing:)``).
    public func finishFile(_ fileId: Int64, read: Int, rejected: Int, superseded: Int, unknownFields: [String],
                           fingerprint: (bytes: Int64, sha256: String)? = nil) throws {
        try db.execute(sql: """
            UPDATE input_file SET rows_read = ?, rows_rejected = ?, rows_superseded = ?, unknown_fields = ? WHERE id = ?
            """, arguments: [read, rejected, superseded, unknownFields.joined(separator: ","), fileId])
        if let fingerprint {
            try db.execute(sql: "UPDATE input_file SET bytes = ?, sha256 = ? WHERE id = ?",
                           arguments: [fingerprint.bytes, fingerprint.sha256, fileId])
        }
        for upsert in upsertStatements.values { try upsert.flushSuperseded(finishing: fileId) }
        if let span = swipeSpans.removeValue(forKey: fileId) { try span.record(db, file: fileId) }
    }

    /// The absolute paths of every file loaded.
    public func loadedPaths() throws -> Set<String> {
        Set(try String.fetchAll(db, sql: "SELECT path FROM input_file"))
    }

    /// Stores a reject found while reading. Only the id's first
    /// ``rejectIdLength`` characters are kept (a hostile id can be huge).
    /// A couple's expense or settlement that could not be decoded (`refused`) is also kept as written,
    /// for its couple's statement (`refused_couple_row`).
    public func reject(file fileId: Int64, line: Int, id: String, reason: RejectReason, refused: RefusedRow? = nil) throws {
        if let refused, let couple = refused.written.coupleId {
            let r = try statement("""
                INSERT INTO refused_couple_row (file_id, couple_id, id, kind, date, description, amount, currency, reason_code)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            r.bind(1, fileId)
            for (i, text) in [couple, String(refused.id.prefix(Self.rejectIdLength)), refused.kind.rawValue].enumerated() {
                r.bind(Int32(i + 2), text)
            }
            for (i, text) in [refused.written.date, refused.written.description, refused.written.amount,
                              refused.written.currency].enumerated() {
                r.bind(Int32(i + 5), text)
            }
            r.bind(9, refused.reason.rawValue)
            try r.step()
        }
        let s = try statement("INSERT INTO ingest_reject (file_id, line, record_id, reason, reason_code) VALUES (?, ?, ?, ?, ?)")
        s.bind(1, fileId)
        s.bind(2, line)
        s.bind(3, String(id.prefix(Self.rejectIdLength)))
        s.bind(4, reason.text)
        s.bind(5, reason.code.rawValue)
        try s.step()
    }

    /// The most characters of a rejected record's id that are stored.
    public static let rejectIdLength = 200

    /// Stores a reject found after the load (by a derivation), as ``reject(file:line:id:reason:)`` does.
    static func storeReject(_ db: Database, file fileId: Int64, line: Int, id: String, reason: RejectReason) throws {
        try db.cachedStatement(sql: """
            INSERT INTO ingest_reject (file_id, line, record_id, reason, reason_code) VALUES (?, ?, ?, ?, ?)
            """).execute(arguments: [fileId, line, String(id.prefix(rejectIdLength)), reason.text, reason.code.rawValue])
    }

    /// Records which derived tables this ingest's changes call for (see
    /// ``Warehouse/derivePending(ready:)``); called before the transaction
    /// commits, so that the loads and the need to derive from them are kept
    /// or lost together.
    func markDerivationsPending() throws {
        // The swipes' person index and id filter (tens of MB) serve loads
        // only; the filter is kept for the next ingest's.
        try swipeStagerMade?.keepFilter(db)
        swipeStagerMade = nil
        for upsert in upsertStatements.values { try upsert.flushSuperseded(finishing: nil) }   // a load not finished by finishFile
        for derivation in WarehouseSchema.derivations where !derivation.inputs.isDisjoint(with: changedTables) {
            try db.execute(sql: "INSERT OR IGNORE INTO derivation_pending (name) VALUES (?)",
                           arguments: [derivation.table.rawValue])
        }
    }

    // MARK: - helpers

    /// The prepared statement for `sql`, prepared once per session. Keyed by
    /// the literal's address: hashing the SQL text on every row would be a
    /// visible share of load time.
    func statement(_ sql: StaticString) throws -> BulkStatement {
        let key = Int(bitPattern: sql.utf8Start)
        if let cached = literalStatements[key] { return cached }
        let made = try BulkStatement(db, sql: sql.description)
        literalStatements[key] = made
        return made
    }

    /// Stores `row` of keyed table `table` (its columns in order:
    /// ``TallyIngest/ReferenceColumns``) read at `line` of `file`, as
    /// ``UpsertStatement`` does; false when the rule rejects it (a repeat within its file).
    func storeKeyed(_ table: String, _ row: [StoredValue], file: Int64, line: Int) throws -> Bool {
        try upsert(table).step(row, file: file, line: line)
    }

    /// `INSERT INTO table (columns) VALUES (…), (…), …` for `rows` rows at
    /// once, prepared once per session. For the largest logs: one step per
    /// `rows` rows instead of one per row (parameters bind in row order).
    /// Appends `batch`'s rows to the log `table`: `columns` from the batch's
    /// cells, then `file_id` and `line`, 64 rows to a statement (one VDBE
    /// run per 64 rows: the largest saving on the writer's thread for the
    /// swipes). Returns the rowid of each row, in order
    /// (appended rows take consecutive rowids).
    func append(_ batch: RowBatch, to table: String, columns: [String], file: Int64) throws -> ClosedRange<Int64>? {
        guard batch.count > 0 else { return nil }
        precondition(batch.width == columns.count, "\(table): \(batch.width) staged cells per row for \(columns.count) columns")
        let all = columns + ["file_id", "line"]
        let many = 64
        var first: Int64?
        var row = 0
        while row < batch.count {
            let rows = batch.count - row >= many ? many : 1
            let statement = try multiRowInsert(table, all, rows: rows)
            for r in 0..<rows {
                let at = Int32(r * all.count)
                batch.bind(row: row + r, to: statement, from: at + 1)
                statement.bind(at + Int32(columns.count) + 1, file)
                statement.bind(at + Int32(columns.count) + 2, batch.lines[row + r])
            }
            try statement.step()
            if first == nil { first = db.lastInsertedRowID - Int64(rows) + 1 }
            row += rows
        }
        let last = db.lastInsertedRowID
        precondition(last - first! + 1 == Int64(batch.count), "\(table): appended rows did not take consecutive rowids")
        return first!...last
    }

    func multiRowInsert(_ table: String, _ columns: [String], rows: Int) throws -> BulkStatement {
        let key = "\(table) \(rows)"
        if let cached = multiRowStatements[key] { return cached }
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        let values = Array(repeating: row, count: rows).joined(separator: ", ")
        // OR FAIL, not the default ABORT: a multi-row INSERT whose constraints
        // may ABORT needs a statement journal (to undo its own rows) inside
        // the ingest's transaction, and once one statement's journal passes
        // 64 KiB SQLite keeps it in a temporary file for the whole
        // transaction, each append copying its table's last pages there
        // (gigabytes at medium: docs/performance.md). No
        // failure is undone row by row here: any error ends the ingest and
        // rolls its whole transaction back. (A foreign key checked at once
        // needs the journal too: the keys are deferred, see
        // `DeferredForeignKeys`.)
        let made = try BulkStatement(db, sql: "INSERT OR FAIL INTO \(table) (\(columns.joined(separator: ", "))) VALUES \(values)")
        multiRowStatements[key] = made
        return made
    }

    /// An upsert that replaces a row from another file, and leaves a row from
    /// the same file alone (a duplicate key within one file). Prepared once
    /// per session and table.
    func upsert(_ table: String) throws -> UpsertStatement {
        if let cached = upsertStatements[table] { return cached }
        guard let keyed = KeyedTable.named[table] else { preconditionFailure("\(table) is not a keyed table") }
        let made = try UpsertStatement(db, keyed)
        upsertStatements[table] = made
        return made
    }
}
