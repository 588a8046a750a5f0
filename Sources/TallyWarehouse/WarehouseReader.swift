import GRDB
import TallyCore

/// Read-only queries for reports, within one consistent snapshot.
public struct WarehouseReader {
    let db: Database

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

    /// Winning expense versions that cannot be used (their parse error) and
    /// rows whose couple is unknown: rejects that belong to no couple.
    public func unattachedExpenseRejects() throws -> [Reject] {
        var rejects = try Row.fetchAll(db, sql: """
            SELECT f.display_path, e.line, e.id, e.error
            FROM expense e JOIN input_file f ON f.id = e.file_id
            WHERE e.error IS NOT NULL AND e.deleted_at IS NULL
            """).map { Reject(dataset: "expenses", file: $0[0], line: $0[1], id: $0[2], reason: $0[3]) }
        for (table, what) in [("member", "member"), ("card", "card"), ("agreement", "agreement"), ("settlement", "settlement")] {
            rejects += try Row.fetchAll(db, sql: """
                SELECT f.display_path, t.line, t.id, t.couple_id
                FROM \(table) t JOIN input_file f ON f.id = t.file_id
                WHERE NOT EXISTS (SELECT 1 FROM couple c WHERE c.id = t.couple_id)
                """).map { Reject(dataset: "expenses", file: $0[0], line: $0[1], id: $0[2],
                                  reason: "\(what) of unknown couple '\($0[3] as String)'") }
        }
        rejects += try Row.fetchAll(db, sql: """
            SELECT f.display_path, e.line, e.id, e.couple_id
            FROM expense e JOIN input_file f ON f.id = e.file_id
            WHERE e.error IS NULL AND e.deleted_at IS NULL
              AND NOT EXISTS (SELECT 1 FROM couple c WHERE c.id = e.couple_id)
            """).map { Reject(dataset: "expenses", file: $0[0], line: $0[1], id: $0[2],
                              reason: "expense of unknown couple '\($0[3] as String)'") }
        return rejects
    }

    /// Streams every couple, in id byte order, with everything loaded for it.
    /// Memory holds one couple at a time.
    public func forEachCouple(_ body: (CouplePartition) throws -> Void) throws {
        let members = try PartitionCursor(db, sql: """
            SELECT couple_id, id, display_name FROM member ORDER BY couple_id, id
            """) { row in Member(id: row[1], coupleId: row[0], displayName: row[2]) }
        let expenses = try PartitionCursor(db, sql: """
            SELECT e.couple_id, e.id, e.paid_by, e.amount, e.currency, e.date, e.description, e.tag,
                   e.agreement_id, e.split_type, e.split, f.display_path, e.line
            FROM expense e JOIN input_file f ON f.id = e.file_id
            WHERE e.deleted_at IS NULL AND e.error IS NULL
            ORDER BY e.couple_id, e.id
            """) { row -> ExpenseFact? in
            guard let currency = Currency(code: row[4]), let date = LocalDate.parse(row[5] as String),
                  case .success(let split) = SplitRuleParser.parse(type: row[9], split: row[10]) else { return nil }
            return ExpenseFact(id: row[1], coupleId: row[0], paidBy: row[2], amount: row[3], currency: currency,
                               date: date, description: row[6], tag: row[7], agreementId: row[8], split: split,
                               source: SourceRef(file: row[11], line: row[12]))
        }
        let settlements = try PartitionCursor(db, sql: """
            SELECT s.couple_id, s.id, s.from_member, s.to_member, s.amount, s.currency, s.date, f.display_path, s.line
            FROM settlement s JOIN input_file f ON f.id = s.file_id ORDER BY s.couple_id, s.id
            """) { row -> SettlementFact? in
            guard let currency = Currency(code: row[5]), let date = LocalDate.parse(row[6] as String) else { return nil }
            return SettlementFact(id: row[1], coupleId: row[0], fromMember: row[2], toMember: row[3], amount: row[4],
                                  currency: currency, date: date, source: SourceRef(file: row[7], line: row[8]))
        }
        let agreements = try PartitionCursor(db, sql: """
            SELECT a.couple_id, a.id, a.description, a.amount, a.currency, a.paid_by, a.split_type, a.split, a.tag,
                   a.day_of_month, a.start_date, a.end_date, f.display_path, a.line
            FROM agreement a JOIN input_file f ON f.id = a.file_id ORDER BY a.couple_id, a.id
            """) { row -> Agreement? in
            guard let currency = Currency(code: row[4]), let start = LocalDate.parse(row[10] as String),
                  case .success(let split) = SplitRuleParser.parse(type: row[6], split: row[7]) else { return nil }
            let end = (row[11] as String?).flatMap { LocalDate.parse($0) }
            return Agreement(id: row[1], coupleId: row[0], description: row[2], amount: row[3], currency: currency,
                             paidBy: row[5], split: split, tag: row[8], dayOfMonth: row[9], startDate: start,
                             endDate: end, sourceFile: row[12], sourceLine: row[13])
        }
        let couples = try Row.fetchCursor(db, sql: "SELECT id, name, currency FROM couple ORDER BY id")
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

/// One couple and everything loaded for it: the unit of work for statements.
public struct CouplePartition: Sendable {
    public var couple: Couple
    public var members: [Member]
    public var expenses: [ExpenseFact]
    public var settlements: [SettlementFact]
    public var agreements: [Agreement]
}

/// A cursor over rows sorted by a partition key (column 0), handing out the
/// values of one key at a time. Keys compare in byte order, as SQLite's
/// BINARY collation sorts them.
final class PartitionCursor<Value> {
    private let cursor: RowCursor
    private let decode: (Row) -> Value?
    private var pending: (key: String, value: Value?)?

    init(_ db: Database, sql: String, decode: @escaping (Row) -> Value?) throws {
        self.cursor = try Row.fetchCursor(db, sql: sql)
        self.decode = decode
    }

    /// The values whose key is `key`, skipping any smaller keys (rows of unknown partitions).
    func take(key: String) throws -> [Value] {
        var values: [Value] = []
        while true {
            if pending == nil {
                guard let row = try cursor.next() else { return values }
                pending = (row[0], decode(row))
            }
            let (pendingKey, value) = pending!
            if pendingKey == key {
                if let value { values.append(value) }
                pending = nil
            } else if pendingKey.utf8.lexicographicallyPrecedes(key.utf8) {
                pending = nil
            } else {
                return values
            }
        }
    }
}
