import GRDB
import TallyCore

/// Read-only queries for reports, within one consistent snapshot.
public struct WarehouseReader {
    let db: Database
    /// The derived tables this reader may read; nil for every one (see ``reading(_:)``).
    var declared: Set<DerivedTable>? = nil

    /// A loaded input file with its row accounting as of the last load.
    public struct InputFileSummary: Sendable {
        public var id: Int64
        public var displayPath: String
        public var dataset: String
        public var table: String
        public var bytes: Int64
        public var sha256: String
        public var rowsRead: Int
        public var rowsRejected: Int
        public var rowsSuperseded: Int
        public var unknownFields: [String]

        public init(id: Int64, displayPath: String, dataset: String, table: String, bytes: Int64, sha256: String,
                    rowsRead: Int, rowsRejected: Int, rowsSuperseded: Int, unknownFields: [String]) {
            self.id = id
            self.displayPath = displayPath
            self.dataset = dataset
            self.table = table
            self.bytes = bytes
            self.sha256 = sha256
            self.rowsRead = rowsRead
            self.rowsRejected = rowsRejected
            self.rowsSuperseded = rowsSuperseded
            self.unknownFields = unknownFields
        }
    }

    /// Every loaded input file, by display path.
    public func inputFiles() throws -> [InputFileSummary] {
        try Row.fetchAll(db, sql: "SELECT * FROM input_file ORDER BY display_path, load_seq").map { row in
            let unknown: String = row["unknown_fields"]
            return InputFileSummary(id: row["id"], displayPath: row["display_path"], dataset: row["dataset"],
                                    table: row["table_name"], bytes: row["bytes"], sha256: row["sha256"],
                                    rowsRead: row["rows_read"], rowsRejected: row["rows_rejected"],
                                    rowsSuperseded: row["rows_superseded"],
                                    unknownFields: unknown.isEmpty ? [] : unknown.split(separator: ",").map(String.init))
        }
    }

    /// Rows rejected while reading, in file and line order.
    public func ingestRejects() throws -> [Reject] {
        try Row.fetchAll(db, sql: """
            SELECT f.dataset, f.display_path, r.line, r.record_id, r.reason
            FROM ingest_reject r JOIN input_file f ON f.id = r.file_id
            ORDER BY f.display_path, r.line
            """).map { Reject(dataset: $0[0], file: $0[1], line: $0[2], id: $0[3], reason: $0[4]) }
    }

    /// Every fx rate.
    public func fxRates() throws -> [FxRate] {
        try Row.fetchAll(db, sql: "SELECT currency, base, date, rate FROM fx_rate").compactMap { row in
            guard let currency = Currency(code: row[0]), let base = Currency(code: row[1]),
                  let date = LocalDate.parse(row[2] as String), case .success(let rate) = Decimal10.parse(row[3] as String)
            else { return nil }
            return FxRate(date: date, currency: currency, base: base, rate: rate)
        }
    }

    /// Winning expense versions that cannot be used and rows whose couple is
    /// unknown: rejects that belong to no couple. The queries find the rows
    /// a rule may reject (winning versions with a parse error, rows whose
    /// couple lookup fails); ``WinningExpenseRejectRule`` and ``OrphanRule``
    /// decide and word each reject. (The failed versions are found in one
    /// scan of the versions, the unknown couples in one of the winners:
    /// through the `expense` view, each query would fetch every winner's version.)
    public func unattachedExpenseRejects() throws -> [Reject] {
        try reading(.expenseWinners)
        // Winning versions with a parse error whose couple exists (those of
        // an unknown couple are found by the winners' scan below).
        var rejects = try Row.fetchAll(db, sql: """
            SELECT f.display_path, v.line, v.id, v.error, v.deleted_at IS NOT NULL, v.couple_id
            FROM expense_version v JOIN input_file f ON f.id = v.file_id
            WHERE v.error IS NOT NULL
              AND EXISTS (SELECT 1 FROM expense_winner w
                          WHERE w.couple_id = coalesce(v.couple_id, '') AND w.id = v.id AND w.version_row = v.rowid)
              AND EXISTS (SELECT 1 FROM couple c WHERE c.id = coalesce(v.couple_id, ''))
            """).compactMap { row -> Reject? in
            WinningExpenseRejectRule.reject(error: row[3], deleted: row[4], coupleId: (row[5] as String?) ?? "", coupleExists: true)
                .map { Reject(dataset: "expenses", file: row[0], line: row[1], id: row[2], reason: $0) }
        }
        let children: [(table: String, child: OrphanRule.Child)] = [
            ("member", .member), ("card", .card), ("agreement", .agreement), ("settlement", .settlement)]
        for (table, child) in children {
            rejects += try Row.fetchAll(db, sql: """
                SELECT f.display_path, t.line, t.id, t.couple_id
                FROM \(table) t JOIN input_file f ON f.id = t.file_id
                WHERE NOT EXISTS (SELECT 1 FROM couple c WHERE c.id = t.couple_id)
                """).compactMap { row -> Reject? in
                OrphanRule.reject(child, parentId: row[3], parentExists: false)
                    .map { Reject(dataset: "expenses", file: row[0], line: row[1], id: row[2], reason: $0) }
            }
        }
        // Winners whose couple lookup fails.
        rejects += try Row.fetchAll(db, sql: """
            SELECT f.display_path, v.line, v.id, v.error, v.deleted_at IS NOT NULL, w.couple_id
            FROM expense_winner w CROSS JOIN expense_version v ON v.rowid = w.version_row
            JOIN input_file f ON f.id = v.file_id
            WHERE NOT EXISTS (SELECT 1 FROM couple c WHERE c.id = w.couple_id)
            """).compactMap { row -> Reject? in
            WinningExpenseRejectRule.reject(error: row[3], deleted: row[4], coupleId: row[5], coupleExists: false)
                .map { Reject(dataset: "expenses", file: row[0], line: row[1], id: row[2], reason: $0) }
        }
        return rejects
    }

    /// Streams every couple (or only the couple `only`, when given), in id
    /// byte order, with everything loaded for it. Memory holds one couple at a time.
    public func forEachCouple(only: String? = nil, _ body: (CouplePartition) throws -> Void) throws {
        try reading(.expenseWinners)
        // Display paths repeat on every row: one String per file.
        var paths = StringCache()
        // One couple: each query keeps its rows of that couple only.
        let arguments: StatementArguments = only.map { [$0] } ?? []
        func onlyCouple(_ column: String, where keyword: String) -> String { only == nil ? "" : "\(keyword) \(column) = ?" }
        let members = try PartitionCursor(db, sql: """
            SELECT couple_id, id, display_name FROM member \(onlyCouple("couple_id", where: "WHERE")) ORDER BY couple_id, id
            """, arguments: arguments) { c in Member(id: c.textValue(1), coupleId: c.textValue(0), displayName: c.textValue(2)) }
        let expenses = try PartitionCursor(db, sql: """
            SELECT w.couple_id, w.id, e.paid_by, e.amount, e.currency, e.date, e.description, e.tag,
                   e.agreement_id, e.split_type, e.split, f.display_path, e.line
            FROM expense_winner w CROSS JOIN expense_version e ON e.rowid = w.version_row
            JOIN input_file f ON f.id = e.file_id
            WHERE e.deleted_at IS NULL AND e.error IS NULL \(onlyCouple("w.couple_id", where: "AND"))
            ORDER BY w.couple_id, w.id
            """, arguments: arguments) { c -> ExpenseFact? in
            guard let currency = Currency(code: c.textValue(4)), let date = c.date(5),
                  case .success(let split) = SplitRuleParser.parse(type: c.string(9), split: c.string(10)) else { return nil }
            return ExpenseFact(id: c.textValue(1), coupleId: c.textValue(0), paidBy: c.textValue(2), amount: c.int64(3), currency: currency,
                               date: date, description: c.textValue(6), tag: c.textValue(7), agreementId: c.string(8), split: split,
                               source: SourceRef(file: paths.string(c.text(11) ?? .init(start: nil, count: 0)), line: Int(c.int64(12))))
        }
        let settlements = try PartitionCursor(db, sql: """
            SELECT s.couple_id, s.id, s.from_member, s.to_member, s.amount, s.currency, s.date, f.display_path, s.line
            FROM settlement s JOIN input_file f ON f.id = s.file_id \(onlyCouple("s.couple_id", where: "WHERE"))
            ORDER BY s.couple_id, s.id
            """, arguments: arguments) { c -> SettlementFact? in
            guard let currency = Currency(code: c.textValue(5)), let date = c.date(6) else { return nil }
            return SettlementFact(id: c.textValue(1), coupleId: c.textValue(0), fromMember: c.textValue(2), toMember: c.textValue(3),
                                  amount: c.int64(4), currency: currency, date: date,
                                  source: SourceRef(file: paths.string(c.text(7) ?? .init(start: nil, count: 0)), line: Int(c.int64(8))))
        }
        let agreements = try PartitionCursor(db, sql: """
            SELECT a.couple_id, a.id, a.description, a.amount, a.currency, a.paid_by, a.split_type, a.split, a.tag,
                   a.day_of_month, a.start_date, a.end_date, f.display_path, a.line
            FROM agreement a JOIN input_file f ON f.id = a.file_id \(onlyCouple("a.couple_id", where: "WHERE"))
            ORDER BY a.couple_id, a.id
            """, arguments: arguments) { c -> Agreement? in
            guard let currency = Currency(code: c.textValue(4)), let start = c.date(10),
                  case .success(let split) = SplitRuleParser.parse(type: c.string(6), split: c.string(7)) else { return nil }
            return Agreement(id: c.textValue(1), coupleId: c.textValue(0), description: c.textValue(2), amount: c.int64(3), currency: currency,
                             paidBy: c.textValue(5), split: split, tag: c.textValue(8), dayOfMonth: Int(c.int64(9)), startDate: start,
                             endDate: c.date(11), sourceFile: paths.string(c.text(12) ?? .init(start: nil, count: 0)), sourceLine: Int(c.int64(13)))
        }
        let couples = try Row.fetchCursor(db, sql: "SELECT id, name, currency FROM couple \(onlyCouple("id", where: "WHERE")) ORDER BY id",
                                          arguments: arguments)
        while let row = try couples.next() {
            let id: String = row[0]
            guard let currency = Currency(code: row[2]) else { continue }
            let partition = CouplePartition(
                couple: Couple(id: id, name: row[1], currency: currency),
                members: try members.take(key: id), expenses: try expenses.take(key: id),
                settlements: try settlements.take(key: id), agreements: try agreements.take(key: id))
            try body(partition)
        }
    }

    /// Counts for progress and summaries.
    public func count(_ table: String) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0
    }
}

/// A cursor over rows sorted by a partition key (column 0), handing out the
/// values of one key at a time. Keys compare in byte order, as SQLite's
/// BINARY collation sorts them.
///
/// Rows are read through SQLite's C API (``RawCursor``) and the key is
/// compared as bytes: the statements stage reads every expense through one
/// of these, and GRDB `Row`s would cost a value copy per column and a String
/// key per row.
final class PartitionCursor<Value> {
    private let cursor: RawCursor
    private let decode: (RawCursor) -> Value?
    /// The row read but not handed out yet: its key's bytes and its value.
    private var pendingKey: [UInt8] = []
    private var pendingValue: Value?
    private var hasPending = false

    init(_ db: Database, sql: String, arguments: StatementArguments = [], decode: @escaping (RawCursor) -> Value?) throws {
        self.cursor = try RawCursor(db, sql: sql, arguments: arguments)
        self.decode = decode
    }

    /// The values whose key is `key`, skipping any smaller keys (rows of unknown partitions).
    func take(key: String) throws -> [Value] {
        var values: [Value] = []
        let wanted = Array(key.utf8)
        while true {
            if !hasPending {
                guard try cursor.next() else { return values }
                pendingKey.removeAll(keepingCapacity: true)
                if let bytes = cursor.text(0) { pendingKey.append(contentsOf: bytes) }
                pendingValue = decode(cursor)
                hasPending = true
            }
            if pendingKey == wanted {
                if let pendingValue { values.append(pendingValue) }
                hasPending = false
            } else if pendingKey.lexicographicallyPrecedes(wanted) {
                hasPending = false
            } else {
                return values
            }
        }
    }
}
