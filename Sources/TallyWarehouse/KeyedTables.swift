import GRDB

import TallyCore
import TallyIngest

/// A reference table keyed by id (couples, members, …), kept as a log in two
/// tables: `name` holds the row of each key that counts, and
/// `name_superseded` every other row read (each file's kept row of a key
/// whose row of a later-loaded file counts). Together they hold every row
/// of the table's files as read, less the repeats within a file that the
/// ingest rejects, so unloading a file (re-delivered, replaced or gone)
/// gives each key the row that a run over the remaining files gives
/// (``rejudge(keys:in:)``).
///
/// ```swift
/// KeyedTable.named["couple"]!.supersededTable   // "couple_superseded"
/// KeyedTable.forInputTable["members"]!.name     // "member"
/// ```
public struct KeyedTable: Sendable {
    /// The table holding the rows that count.
    public let name: String
    /// The input table its files are (`input_file.table_name`).
    public let inputTable: String
    /// Its columns, `file_id` and `line` aside, in the order the ingest binds them.
    public let columns: [String]
    /// The columns of its key.
    public let key: [String]

    /// The table holding the rows set aside.
    public var supersededTable: String { name + "_superseded" }

    /// Every keyed table.
    public static let all: [KeyedTable] = [
        KeyedTable(name: "couple", inputTable: "couples", columns: ["id", "name", "currency", "created_at"], key: ["id"]),
        KeyedTable(name: "member", inputTable: "members",
                   columns: ["id", "couple_id", "display_name", "role", "joined_at"], key: ["id"]),
        KeyedTable(name: "card", inputTable: "cards", columns: ["id", "couple_id", "owner_id", "label", "kind"], key: ["id"]),
        KeyedTable(name: "fx_rate", inputTable: "fx", columns: ["currency", "base", "date", "rate"],
                   key: ["currency", "base", "date"]),
        KeyedTable(name: "agreement", inputTable: "agreements",
                   columns: ["id", "couple_id", "description", "amount", "currency", "paid_by",
                             "split_type", "split", "tag", "day_of_month", "start_date", "end_date"], key: ["id"]),
        KeyedTable(name: "settlement", inputTable: "settlements",
                   columns: ["id", "couple_id", "from_member", "to_member", "amount", "currency", "date", "note"], key: ["id"]),
        KeyedTable(name: "challenge", inputTable: "challenges",
                   columns: ["id", "group_id", "name", "start_date", "end_date"], key: ["id"]),
        KeyedTable(name: "group_member", inputTable: "groupMembers",
                   columns: ["group_id", "user_id", "joined_at", "left_at"], key: ["group_id", "user_id", "joined_at"]),
        KeyedTable(name: "swipe_user", inputTable: "swipeUsers",
                   columns: ["id", "created_at", "gender", "city", "subscription"], key: ["id"]),
        KeyedTable(name: "product", inputTable: "products",
                   columns: ["product_id", "app", "plan", "period", "price", "currency"], key: ["product_id"]),
        KeyedTable(name: "partner_connection", inputTable: "connections",
                   columns: ["user_id", "partner_id", "connected_at", "disconnected_at"],
                   key: ["user_id", "partner_id", "connected_at"]),
    ]

    /// The keyed tables by name.
    public static let named = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The keyed tables by the input table their files are.
    public static let forInputTable = Dictionary(uniqueKeysWithValues: all.map { ($0.inputTable, $0) })

    /// How a repeat's reject names the key ("id", "group_id, user_id, joined_at").
    var keyDescription: String { key.joined(separator: ", ") }

    /// `k1 = ? AND k2 = ? …`, for the key's values in key order.
    private var keyMatch: String { key.map { "\($0) = ?" }.joined(separator: " AND ") }

    /// The keys `file` gave a row of, counting or set aside: the keys whose
    /// row that counts may change once `file` is unloaded (read before the unload).
    func keys(of file: Int64, in db: Database) throws -> [[DatabaseValue]] {
        let list = key.joined(separator: ", ")
        let rows = try Row.fetchAll(db, sql: """
            SELECT \(list) FROM \(name) WHERE file_id = ?1 UNION SELECT \(list) FROM \(supersededTable) WHERE file_id = ?1
            """, arguments: [file])
        return rows.map { row in key.indices.map { row[$0] } }
    }

    /// Judges each of `keys` again among its rows left (its file's rows were
    /// unloaded), as ``TallyCore/ReferenceRowRule`` decides, identical rows
    /// by their stored values: when the row that counts is not the one the
    /// table holds, the held row (if any) is set aside and its file's
    /// `rows_superseded` gains one, and the row that counts moves back from
    /// the rows set aside and its file's loses one. Returns how many keys
    /// took another row.
    ///
    /// An unload can change a key's row that counts even when the unloaded
    /// file's row did not count: with January's and March's rows identical
    /// and February's different, March's counts; without February, January's.
    /// The rows set aside are keyed by file (a month's copy of the table
    /// appends its rows together), so the keys' rows are found in one pass
    /// over them: an unload is rare, a month's load is not.
    @discardableResult
    func rejudge(keys: [[DatabaseValue]], in db: Database) throws -> Int {
        guard !keys.isEmpty else { return 0 }
        let all = columns + ["file_id", "line"]
        let list = all.joined(separator: ", ")
        let keyList = key.joined(separator: ", ")
        try db.execute(sql: """
            CREATE TEMP TABLE IF NOT EXISTS rejudge_\(name) AS SELECT \(keyList) FROM main.\(name) WHERE 0;
            DELETE FROM temp.rejudge_\(name);
            """)
        let remember = try db.cachedStatement(sql: """
            INSERT INTO temp.rejudge_\(name) (\(keyList)) VALUES (\(key.map { _ in "?" }.joined(separator: ", ")))
            """)
        for values in keys { try remember.execute(arguments: StatementArguments(values)) }
        // Each key's rows: 1 for the held row, 0 for one set aside; then its columns, file, load order and line.
        let joined = key.map { "k.\($0) = r.\($0)" }.joined(separator: " AND ")
        func rows(of table: String, held: Int) -> String {
            """
            SELECT \(held), \(columns.map { "r.\($0)" }.joined(separator: ", ")), r.file_id, f.load_seq, r.line
            FROM \(table) r JOIN temp.rejudge_\(name) k ON \(joined) JOIN input_file f ON f.id = r.file_id
            """
        }
        var candidates: [[DatabaseValue]: [Row]] = [:]
        let cursor = try Row.fetchCursor(db, sql: rows(of: "main.\(name)", held: 1) + " UNION ALL " + rows(of: supersededTable, held: 0))
        let keyAt = key.map { columns.firstIndex(of: $0)! + 1 }
        while let row = try cursor.next() {
            candidates[keyAt.map { row[$0] }, default: []].append(row.copy())
        }
        try db.execute(sql: "DELETE FROM temp.rejudge_\(name)")
        let setAside = try db.cachedStatement(sql: "INSERT OR FAIL INTO \(supersededTable) (\(list)) SELECT \(list) FROM main.\(name) WHERE \(keyMatch)")
        let unhold = try db.cachedStatement(sql: "DELETE FROM main.\(name) WHERE \(keyMatch)")
        let moveBack = try db.cachedStatement(sql: """
            INSERT OR FAIL INTO \(name) (\(list)) SELECT \(list) FROM \(supersededTable) WHERE \(keyMatch) AND file_id = ?
            """)
        let forget = try db.cachedStatement(sql: "DELETE FROM \(supersededTable) WHERE \(keyMatch) AND file_id = ?")
        let recount = try db.cachedStatement(sql: "UPDATE input_file SET rows_superseded = rows_superseded + ? WHERE id = ?")
        let rule = ReferenceRowRule(key: keyDescription)
        let stored = (1...columns.count).filter { !keyAt.contains($0) }
        let at = columns.count + 1
        var changed = 0
        for (values, group) in candidates {
            // Rows are identical when their stored values are (byte for byte, as the load compared them).
            let contents = group.map { row in stored.map { StoredValue(row[$0] as DatabaseValue) } }
            let outcomes = WhichRowsCount.sort(Array(group.indices), by: rule) { i, g in
                let content = contents.firstIndex(of: contents[g]).map(Int64.init)
                return ReferenceRowRule.Row(file: group[g][at], loadSeq: group[g][at + 1], line: group[g][at + 2], row: Int64(i),
                                            content: content)
            }
            guard let winner = outcomes.counted.first, (group[winner][0] as Int64) == 0 else { continue }
            let arguments = StatementArguments(values)
            if let held = group.firstIndex(where: { ($0[0] as Int64) == 1 }) {
                try setAside.execute(arguments: arguments)
                try unhold.execute(arguments: arguments)
                try recount.execute(arguments: [1, group[held][at] as Int64])
            }
            let file = StatementArguments([group[winner][at] as Int64])
            try moveBack.execute(arguments: arguments + file)
            try forget.execute(arguments: arguments + file)
            try recount.execute(arguments: [-1] + file)
            changed += 1
        }
        return changed
    }

    /// v20: a table of rows set aside for each keyed table, with the keyed
    /// table's columns, keyed by the table's key and file (a file keeps one
    /// row of a key: its later repeats are rejected) and indexed by file (an
    /// unloaded file's rows are deleted by cascade). A warehouse made before
    /// has set aside nothing: the rows it had replaced are not recovered.
    static func createSupersededTables(_ db: Database) throws {
        for table in all {
            let info = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table.name))")
            var definitions: [String] = []
            for column in table.columns {
                guard let row = info.first(where: { ($0["name"] as String) == column }) else {
                    fatalError("\(table.name) has no column \(column)")
                }
                let type: String = row["type"]
                let notNull = (row["notnull"] as Int) == 1 || table.key.contains(column)
                definitions.append("\(column) \(type)\(notNull ? " NOT NULL" : "")")
            }
            try db.execute(sql: """
                CREATE TABLE \(table.supersededTable) (
                    \(definitions.joined(separator: ", ")),
                    file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, line INTEGER NOT NULL,
                    PRIMARY KEY (\((table.key + ["file_id"]).joined(separator: ", ")))
                ) WITHOUT ROWID;
                CREATE INDEX \(table.supersededTable)_file ON \(table.supersededTable)(file_id);
                """)
        }
    }

    /// v25: the rows set aside keyed by file, then key (a file keeps one row
    /// of a key), in place of key then file: a month's copy of a table sets
    /// aside the previous copy's rows, which then go together at the end of
    /// the table instead of between every key's earlier rows, so the cost of
    /// a month's copy follows the month, not the months before. An unloaded
    /// file's rows are its key's first part (no index of their own), and
    /// ``rejudge(keys:in:)`` finds a key's rows in one pass.
    static func keySupersededByFile(_ db: Database) throws {
        for table in all {
            let info = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table.supersededTable))")
            let definitions = info.map { row -> String in
                let (name, type): (String, String) = (row["name"], row["type"])
                let notNull = (row["notnull"] as Int) == 1
                return "\(name) \(type)\(notNull ? " NOT NULL" : "")"
            }.filter { !$0.hasPrefix("file_id ") && !$0.hasPrefix("line ") }
            let list = (table.columns + ["file_id", "line"]).joined(separator: ", ")
            try db.execute(sql: """
                CREATE TEMP TABLE set_aside AS SELECT \(list) FROM main.\(table.supersededTable);
                DROP TABLE main.\(table.supersededTable);
                CREATE TABLE \(table.supersededTable) (
                    \(definitions.joined(separator: ", ")),
                    file_id INTEGER NOT NULL REFERENCES input_file(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, line INTEGER NOT NULL,
                    PRIMARY KEY (\((["file_id"] + table.key).joined(separator: ", ")))
                ) WITHOUT ROWID;
                INSERT INTO main.\(table.supersededTable) (\(list)) SELECT \(list) FROM temp.set_aside ORDER BY file_id, \(table.key.joined(separator: ", "));
                DROP TABLE temp.set_aside;
                """)
        }
    }
}

extension StoredValue {
    /// A keyed table's stored value as read back (its columns hold no blobs).
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .text(nil)
        case .int64(let v): self = .integer(v)
        case .double(let v): self = .real(v)
        case .string(let v): self = .text(v)
        case .blob: preconditionFailure("a keyed table's column holds a blob")
        }
    }
}
