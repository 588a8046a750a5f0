import Foundation
import GRDB
import TallyCore
import TallyIngest

/// The write side of one ingest transaction: registers input files, stores
/// their records and rejects, and keeps derived tables (the winning expense
/// versions) up to date when the transaction ends.
public final class IngestSession {
    let db: Database
    private var statements: [String: BulkStatement] = [:]
    private var expensesChanged = false

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

    /// The display path of another loaded file with this content, if any.
    public func loadedFile(sha256: String, otherThan path: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT display_path FROM input_file WHERE sha256 = ? AND path <> ? LIMIT 1",
                            arguments: [sha256, path])
    }

    /// Registers a file about to be loaded and returns its id. A previous
    /// version loaded from the same path is removed first, with every row it
    /// brought: the new export replaces it.
    public func beginFile(_ file: InputFile, absolutePath: String, bytes: Int64, sha256: String) throws -> Int64 {
        if let old = try knownFile(path: absolutePath) {
            if file.table == .expenses { expensesChanged = true }
            try db.execute(sql: "DELETE FROM input_file WHERE id = ?", arguments: [old.id])
        }
        let seq = (try Int64.fetchOne(db, sql: "SELECT max(load_seq) FROM input_file") ?? 0) + 1
        try db.execute(sql: """
            INSERT INTO input_file (path, display_path, dataset, table_name, bytes, sha256, load_seq)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, arguments: [absolutePath, file.relativePath, file.table.dataset, file.table.rawValue, bytes, sha256, seq])
        if file.table == .expenses { expensesChanged = true }
        return db.lastInsertedRowID
    }

    /// Records the counts of a loaded file.
    public func finishFile(_ fileId: Int64, read: Int, rejected: Int, superseded: Int, unknownFields: [String]) throws {
        try db.execute(sql: """
            UPDATE input_file SET rows_read = ?, rows_rejected = ?, rows_superseded = ?, unknown_fields = ? WHERE id = ?
            """, arguments: [read, rejected, superseded, unknownFields.joined(separator: ","), fileId])
    }

    /// Stores a reject found while reading.
    public func reject(file fileId: Int64, line: Int, id: String, reason: String) throws {
        let s = try statement("INSERT INTO ingest_reject (file_id, line, record_id, reason) VALUES (?, ?, ?, ?)")
        s.bind(1, fileId)
        s.bind(2, line)
        s.bind(3, id)
        s.bind(4, reason)
        try s.step()
    }

    // MARK: - expenses/ tables
    //
    // Keyed tables upsert by key: a row from a later file replaces the
    // stored one. A second row with the same key in the same file is not
    // stored, and the insert returns false so the caller can reject it.

    public func insert(_ r: CoupleRecord, file: Int64, line: Int) throws -> Bool {
        let s = try statement(upsert("couple", ["id", "name", "currency", "created_at"], key: ["id"]))
        s.bind(1, r.id); s.bind(2, r.name); s.bind(3, r.currency.code); s.bind(4, r.createdAt?.microseconds)
        return try finishUpsert(s, file: file, line: line, next: 5)
    }

    public func insert(_ r: MemberRecord, file: Int64, line: Int) throws -> Bool {
        let s = try statement(upsert("member", ["id", "couple_id", "display_name", "role", "joined_at"], key: ["id"]))
        s.bind(1, r.id); s.bind(2, r.coupleId); s.bind(3, r.displayName); s.bind(4, r.role); s.bind(5, r.joinedAt?.microseconds)
        return try finishUpsert(s, file: file, line: line, next: 6)
    }

    public func insert(_ r: CardRecord, file: Int64, line: Int) throws -> Bool {
        let s = try statement(upsert("card", ["id", "couple_id", "owner_id", "label", "kind"], key: ["id"]))
        s.bind(1, r.id); s.bind(2, r.coupleId); s.bind(3, r.ownerId); s.bind(4, r.label); s.bind(5, r.kind)
        return try finishUpsert(s, file: file, line: line, next: 6)
    }

    public func insert(_ r: FxRecord, file: Int64, line: Int) throws -> Bool {
        let s = try statement(upsert("fx_rate", ["currency", "base", "date", "rate"], key: ["currency", "base", "date"]))
        s.bind(1, r.rate.currency.code); s.bind(2, r.rate.base.code); s.bind(3, r.rate.date.description)
        s.bind(4, r.rate.rate.description)
        return try finishUpsert(s, file: file, line: line, next: 5)
    }

    public func insert(_ r: AgreementRecord, file: Int64, line: Int) throws -> Bool {
        let s = try statement(upsert("agreement", ["id", "couple_id", "description", "amount", "currency", "paid_by",
                                                   "split_type", "split", "tag", "day_of_month", "start_date", "end_date"],
                                     key: ["id"]))
        s.bind(1, r.id); s.bind(2, r.coupleId); s.bind(3, r.description); s.bind(4, r.amount)
        s.bind(5, r.currency.code); s.bind(6, r.paidBy); s.bind(7, r.split.type.rawValue)
        s.bind(8, SplitRuleParser.format(r.split)); s.bind(9, r.tag); s.bind(10, r.dayOfMonth)
        s.bind(11, r.startDate.description); s.bind(12, r.endDate?.description)
        return try finishUpsert(s, file: file, line: line, next: 13)
    }

    public func insert(_ r: SettlementRecord, file: Int64, line: Int) throws -> Bool {
        let s = try statement(upsert("settlement", ["id", "couple_id", "from_member", "to_member", "amount", "currency",
                                                    "date", "note"], key: ["id"]))
        s.bind(1, r.id); s.bind(2, r.coupleId); s.bind(3, r.fromMember); s.bind(4, r.toMember); s.bind(5, r.amount)
        s.bind(6, r.currency.code); s.bind(7, r.date.description); s.bind(8, r.note)
        return try finishUpsert(s, file: file, line: line, next: 9)
    }

    /// Stores one version of an expense (every version is kept; see ``finish()``).
    public func insert(_ v: ExpenseVersion, file: Int64, line: Int) throws {
        let s = try statement("""
            INSERT INTO expense_version (id, updated_at, deleted_at, couple_id, paid_by, amount, currency, date,
                description, tag, card_id, agreement_id, split_type, split, error, file_id, line)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        s.bind(1, v.id); s.bind(2, v.updatedAt.microseconds); s.bind(3, v.deletedAt?.microseconds)
        if let b = v.body {
            s.bind(4, b.coupleId); s.bind(5, b.paidBy); s.bind(6, b.amount); s.bind(7, b.currency.code)
            s.bind(8, b.date.description); s.bind(9, b.description); s.bind(10, b.tag); s.bind(11, b.cardId)
            s.bind(12, b.agreementId); s.bind(13, b.split.type.rawValue); s.bind(14, SplitRuleParser.format(b.split))
        }
        s.bind(15, v.error); s.bind(16, file); s.bind(17, line)
        try s.step()
        expensesChanged = true
    }

    /// Brings derived tables up to date; called before the transaction commits.
    func finish() throws {
        guard expensesChanged else { return }
        // The winner per id: latest updatedAt; ties go to the later load, then the later line.
        try db.execute(sql: """
            DELETE FROM expense;
            INSERT INTO expense
            SELECT id, updated_at, deleted_at, couple_id, paid_by, amount, currency, date, description, tag,
                   card_id, agreement_id, split_type, split, error, file_id, line
            FROM (
                SELECT v.*, ROW_NUMBER() OVER (
                    PARTITION BY v.id ORDER BY v.updated_at DESC, f.load_seq DESC, v.line DESC) AS rank
                FROM expense_version v JOIN input_file f ON f.id = v.file_id
            ) WHERE rank = 1;
            UPDATE input_file SET rows_superseded =
                (SELECT count(*) FROM expense_version v WHERE v.file_id = input_file.id)
              - (SELECT count(*) FROM expense e WHERE e.file_id = input_file.id)
            WHERE table_name = 'expenses';
            """)
    }

    // MARK: - helpers

    private func statement(_ sql: String) throws -> BulkStatement {
        if let cached = statements[sql] { return cached }
        let made = try BulkStatement(db, sql: sql)
        statements[sql] = made
        return made
    }

    private func finishUpsert(_ s: BulkStatement, file: Int64, line: Int, next: Int32) throws -> Bool {
        s.bind(next, file)
        s.bind(next + 1, line)
        return try s.step() > 0
    }

    /// An upsert that replaces a row from another file, and leaves a row from
    /// the same file alone (a duplicate key within one file).
    private func upsert(_ table: String, _ columns: [String], key: [String]) -> String {
        let all = columns + ["file_id", "line"]
        let placeholders = Array(repeating: "?", count: all.count).joined(separator: ", ")
        let updates = all.filter { !key.contains($0) }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        return """
            INSERT INTO \(table) (\(all.joined(separator: ", "))) VALUES (\(placeholders))
            ON CONFLICT(\(key.joined(separator: ", "))) DO UPDATE SET \(updates)
            WHERE \(table).file_id <> excluded.file_id
            """
    }
}
