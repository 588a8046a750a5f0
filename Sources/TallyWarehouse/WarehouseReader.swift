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

    /// Every loaded file's display path, by file id: scans name a row's file
    /// by its id and look its path up here, rather than joining `input_file`
    /// and making a String per row.
    func displayPaths() throws -> [Int64: String] {
        Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, display_path FROM input_file")
            .map { ($0[0] as Int64, $0[1] as String) })
    }

    /// Rows rejected while reading, in file and line order.
    public func ingestRejects() throws -> [Reject] {
        try Row.fetchAll(db, sql: """
            SELECT f.dataset, f.display_path, r.line, r.record_id, r.reason, r.reason_code
            FROM ingest_reject r JOIN input_file f ON f.id = r.file_id
            ORDER BY f.display_path, r.line
            """).map { row in
                Reject(dataset: row[0], file: row[1], line: row[2], id: row[3],
                       reason: RejectReason(code: RejectCode(stored: row[5]), text: row[4]))
            }
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

    /// Streams every couple key (or only `only`, when given), in id byte
    /// order, with every row loaded under it as read (``CoupleRows``): the
    /// couple's row if any, its members, cards, agreements and settlements,
    /// the winning version of each of its expenses, live, deleted or
    /// failed, and its rows that could not be decoded. A key no `couples` row has is streamed too (its rows are
    /// orphans); a failed winning version with no couple id is under the key
    /// `""`. The scans only group rows by key: ``TallyCore/StatementsFamily/partition(_:)``
    /// decides what counts. Memory holds one key at a time.
    ///
    /// With `openings`, the couples it names have only their expenses
    /// dated from its month on read (``TallyCore/LedgerOpening/isOnOrAfter(_:month:)``:
    /// the caller holds an opening of that month for each), by one scan of
    /// the versions' dates; every other key has all its rows read, by key;
    /// the keys it lists beside are streamed whether or not a row of the
    /// other tables names them.
    public func forEachCoupleKey(only: String? = nil, openings: CoupleOpenings? = nil,
                                 _ body: (CoupleRows) throws -> Void) throws {
        try reading(.expenseWinners)
        let paths = try displayPaths()
        func source(_ c: RawCursor, _ file: Int32) -> SourceRef {
            SourceRef(file: paths[c.int64(file)] ?? "", line: Int(c.int64(file + 1)))
        }
        // One couple: each query keeps its rows of that couple only.
        let arguments: StatementArguments = only.map { [$0] } ?? []
        func onlyCouple(_ column: String, where keyword: String) -> String { only == nil ? "" : "\(keyword) \(column) = ?" }
        let couples = try PartitionCursor(db, sql: """
            SELECT id, name, currency FROM couple \(onlyCouple("id", where: "WHERE")) ORDER BY id
            """, arguments: arguments) { c -> Couple? in
            Currency(code: c.textValue(2)).map { Couple(id: c.textValue(0), name: c.textValue(1), currency: $0) }
        }
        let members = try PartitionCursor(db, sql: """
            SELECT m.couple_id, m.id, m.display_name, m.file_id, m.line
            FROM member m \(onlyCouple("m.couple_id", where: "WHERE"))
            ORDER BY m.couple_id, m.id
            """, arguments: arguments) { c in
            CoupleRows.Sourced(Member(id: c.textValue(1), coupleId: c.textValue(0), displayName: c.textValue(2)), source: source(c, 3))
        }
        let cards = try PartitionCursor(db, sql: """
            SELECT k.couple_id, k.id, k.file_id, k.line
            FROM card k \(onlyCouple("k.couple_id", where: "WHERE"))
            ORDER BY k.couple_id, k.id
            """, arguments: arguments) { c in CoupleRows.Sourced(c.textValue(1), source: source(c, 2)) }
        let expenses = try winningExpenses(only: only, from: openings?.month, paths: paths)
        let settlements = try PartitionCursor(db, sql: """
            SELECT s.couple_id, s.id, s.from_member, s.to_member, s.amount, s.currency, s.date, s.file_id, s.line
            FROM settlement s \(onlyCouple("s.couple_id", where: "WHERE"))
            ORDER BY s.couple_id, s.id
            """, arguments: arguments) { c -> SettlementFact? in
            guard let currency = Currency(code: c.textValue(5)), let date = c.date(6) else { return nil }
            return SettlementFact(id: c.textValue(1), coupleId: c.textValue(0), fromMember: c.textValue(2), toMember: c.textValue(3),
                                  amount: c.int64(4), currency: currency, date: date, source: source(c, 7))
        }
        let agreements = try PartitionCursor(db, sql: """
            SELECT a.couple_id, a.id, a.description, a.amount, a.currency, a.paid_by, a.split_type, a.split, a.tag,
                   a.day_of_month, a.start_date, a.end_date, a.file_id, a.line
            FROM agreement a \(onlyCouple("a.couple_id", where: "WHERE"))
            ORDER BY a.couple_id, a.id
            """, arguments: arguments) { c -> Agreement? in
            guard let currency = Currency(code: c.textValue(4)), let start = c.date(10),
                  case .success(let split) = SplitRuleParser.parse(typeUTF8: c.text(6), splitUTF8: c.text(7)) else { return nil }
            return Agreement(id: c.textValue(1), coupleId: c.textValue(0), description: c.textValue(2), amount: c.int64(3), currency: currency,
                             paidBy: c.textValue(5), split: split, tag: c.textValue(8), dayOfMonth: Int(c.int64(9)), startDate: start,
                             endDate: c.date(11), sourceFile: paths[c.int64(12)] ?? "", sourceLine: Int(c.int64(13)))
        }
        let refused = try PartitionCursor(db, sql: """
            SELECT couple_id, id, kind, date, description, amount, currency, reason_code
            FROM refused_couple_row \(onlyCouple("couple_id", where: "WHERE"))
            ORDER BY couple_id, id, file_id, rowid
            """, arguments: arguments) { c -> RefusedRow? in
            LeftOutRow.Kind(rawValue: c.textValue(2)).map { kind in
                RefusedRow(kind: kind, id: c.textValue(1), written: WrittenRow(
                    coupleId: c.textValue(0), date: c.string(3), description: c.string(4), amount: c.string(5),
                    currency: c.string(6)), reason: RejectCode(stored: c.textValue(7)))
            }
        }
        let listed = KeyList(openings?.keys ?? [])
        let scans: [any KeyedScan] = [couples, members, cards, expenses, settlements, agreements, refused, listed]
        while let key = try smallestNextKey(scans) {
            var rows = CoupleRows(key: String(decoding: key, as: UTF8.self), couple: try couples.take(key: key).first)
            rows.members = try members.take(key: key)
            rows.cards = try cards.take(key: key)
            rows.expenses = try expenses.take(key: key)
            listed.take(key: key)
            if let openings, !openings.couples.contains(rows.key) {
                rows.expenses = try winningExpenses(only: rows.key, paths: paths).take(key: key)
            }
            rows.settlements = try settlements.take(key: key)
            rows.agreements = try agreements.take(key: key)
            rows.refused = try refused.take(key: key)
            try body(rows)
        }
    }

    /// What the refreshes of the expense winners changed (``KeyStates/coupleScope``):
    /// every couple, or the keys `YYYY-MM|coupleId` changed after refresh
    /// `since`, each naming the earliest month its change reaches back to
    /// (`|coupleId`: any month; ``TallyCore/LedgerOpening/change(reachingBack:isBefore:)``).
    public func coupleChanges(since: Int64 = 0) throws -> KeyChanges {
        try keyChanges(scope: ExpensesSchema.changeScope, since: since)
    }

    /// The couples ``forEachCoupleKey(only:openings:_:)`` reads from a
    /// month on, and the keys it streams beside the tables' keys.
    public struct CoupleOpenings: Sendable {
        /// The first month of the expenses read for ``couples``.
        public var month: YearMonth
        /// The couples whose expenses are read from ``month`` on.
        public var couples: Set<String>
        /// Keys streamed even when no couple, member, card, agreement,
        /// settlement, refused row or expense of ``month`` on names them
        /// (keys a caller knows hold expenses dated earlier, such as orphans').
        public var keys: Set<String>

        public init(month: YearMonth, couples: Set<String>, keys: Set<String>) {
            self.month = month
            self.couples = couples
            self.keys = keys
        }
    }

    /// The winning version of every expense id (or of couple `only`'s; or
    /// those whose date text is at least `YYYY-MM` of `from`), by couple then
    /// id (bytes), live, deleted or failed, as read; files named by `paths` (``displayPaths()``).
    func winningExpenses(only: String?, from month: YearMonth? = nil, paths: [Int64: String]) throws
        -> PartitionCursor<CoupleRows.WinningExpense>
    {
        var arguments: StatementArguments = only.map { [$0] } ?? []
        var filter = only == nil ? "" : "WHERE w.couple_id = ?"
        var from = "expense_winner w CROSS JOIN expense_version e ON e.rowid = w.version_row"
        if let month {
            // From the versions' dates (their index) to their winners; a version that lost has no winner row.
            from = """
                expense_version e CROSS JOIN expense_winner w
                ON w.couple_id = coalesce(e.couple_id, '') AND w.id = e.id AND w.version_row = e.rowid
                """
            filter += (filter.isEmpty ? "WHERE " : " AND ") + "e.date >= ?"
            arguments += [month.description]
        }
        return try PartitionCursor(db, sql: """
            SELECT w.couple_id, w.id, e.paid_by, e.amount, e.currency, e.date, e.description, e.tag,
                   e.agreement_id, e.split_type, e.split, e.file_id, e.line, e.deleted_at IS NOT NULL, e.error,
                   e.error_code, e.written_amount
            FROM \(from) \(filter)
            ORDER BY w.couple_id, w.id
            """, arguments: arguments) { c -> CoupleRows.WinningExpense in
            let deleted = c.int64(13) != 0
            let source = SourceRef(file: paths[c.int64(11)] ?? "", line: Int(c.int64(12)))
            let id = c.textValue(1)
            let error = c.string(14).map { RejectReason(code: RejectCode(stored: c.string(15) ?? ""), text: $0) }
            var fact: ExpenseFact?
            if !deleted, error == nil, let currency = Currency(code: c.textValue(4)), let date = c.date(5),
               case .success(let split) = SplitRuleParser.parse(typeUTF8: c.text(9), splitUTF8: c.text(10)) {
                fact = ExpenseFact(id: id, coupleId: c.textValue(0), paidBy: c.textValue(2), amount: c.int64(3),
                                   currency: currency, date: date, description: c.textValue(6), tag: c.textValue(7),
                                   agreementId: c.string(8), split: split, source: source)
            }
            // A version that failed validation keeps what it wrote in its columns (``IngestSession/stage(_:line:into:)``).
            let written = error == nil ? nil : WrittenRow(coupleId: c.string(0).flatMap { $0.isEmpty ? nil : $0 },
                                                          date: c.string(5), description: c.string(6),
                                                          amount: c.string(16), currency: c.string(4))
            return CoupleRows.WinningExpense(id: id, source: source, fact: fact, deleted: deleted,
                                             error: error, written: written)
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
final class PartitionCursor<Value>: KeyedScan {
    private let cursor: RawCursor
    private let decode: (RawCursor) -> Value?
    /// The row read but not handed out yet: its key's bytes and its value.
    private var pendingKey: [UInt8] = []
    private var pendingValue: Value?
    private var hasPending = false
    private var ended = false

    init(_ db: Database, sql: String, arguments: StatementArguments = [], decode: @escaping (RawCursor) -> Value?) throws {
        self.cursor = try RawCursor(db, sql: sql, arguments: arguments)
        self.decode = decode
    }

    /// The key of the next row not handed out yet; nil after the last row.
    func nextKey() throws -> [UInt8]? {
        if !hasPending {
            guard !ended, try cursor.next() else { ended = true; return nil }
            pendingKey.removeAll(keepingCapacity: true)
            if let bytes = cursor.text(0) { pendingKey.append(contentsOf: bytes) }
            pendingValue = decode(cursor)
            hasPending = true
        }
        return pendingKey
    }

    /// The values whose key is `key`, skipping any smaller keys (rows of unknown partitions).
    func take(key: String) throws -> [Value] { try take(key: Array(key.utf8)) }

    /// The values whose key's bytes are `wanted`, skipping any smaller keys.
    func take(key wanted: [UInt8]) throws -> [Value] {
        var values: [Value] = []
        while let key = try nextKey() {
            if key == wanted {
                // Moved out, not copied: a copy would retain every String of the row, and the next row's
                // decode release them again.
                if let value = pendingValue.take() { values.append(value) }
                hasPending = false
            } else if key.lexicographicallyPrecedes(wanted) {
                hasPending = false
            } else {
                break
            }
        }
        return values
    }
}

/// A scan of rows in key order whose next key can be looked at (the
/// cursors a merge of several scans by key advances together).
protocol KeyedScan: AnyObject {
    func nextKey() throws -> [UInt8]?
}

/// Keys given as a set, as a scan in byte order (keys to stream beside a table's).
final class KeyList: KeyedScan {
    private var keys: ArraySlice<[UInt8]>

    init(_ keys: Set<String>) {
        self.keys = keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }[...]
    }

    func nextKey() throws -> [UInt8]? { keys.first }

    /// Passes `key` and any smaller keys.
    func take(key: [UInt8]) {
        while let first = keys.first, !key.lexicographicallyPrecedes(first) { keys.removeFirst() }
    }
}

/// The smallest next key (bytes) of `scans`, nil once every scan has ended:
/// the key a merge of scans by key takes next.
func smallestNextKey(_ scans: [any KeyedScan]) throws -> [UInt8]? {
    var smallest: [UInt8]?
    for scan in scans {
        if let key = try scan.nextKey(), smallest.map({ key.lexicographicallyPrecedes($0) }) ?? true { smallest = key }
    }
    return smallest
}
