import GRDB

import TallyCore

/// A reference table keyed by id (couples, members, …), kept as a log in two
/// tables: `name` holds the row of each key that counts, and
/// `name_superseded` every other row read (each file's kept row of a key
/// whose row of a later-loaded file counts). Together they hold every row
/// of the table's files as read, less the repeats within a file that the
/// ingest rejects, so unloading a file (re-delivered, replaced or gone)
/// gives each key the row that a run over the remaining files gives
/// (``restore(keys:in:)``).
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

    /// The keys whose counting row came from `file`: the keys that need a row
    /// again once `file` is unloaded (read before the unload).
    func keys(countingFrom file: Int64, in db: Database) throws -> [[DatabaseValue]] {
        let rows = try Row.fetchAll(db, sql: "SELECT \(key.joined(separator: ", ")) FROM \(name) WHERE file_id = ?",
                                    arguments: [file])
        return rows.map { row in key.indices.map { row[$0] } }
    }

    /// Gives each of `keys` that has no counting row (its row's file was
    /// unloaded) the row that counts among its rows set aside, as
    /// ``TallyCore/ReferenceRowRule`` decides, and moves it back; its file's
    /// `rows_superseded` loses one. Returns how many rows were moved back.
    ///
    /// The rows set aside are keyed by file (a month's copy of the table
    /// appends its rows together), so the keys' candidates are found in one
    /// pass over them: an unload is rare, a month's load is not.
    @discardableResult
    func restore(keys: [[DatabaseValue]], in db: Database) throws -> Int {
        let all = columns + ["file_id", "line"]
        let list = all.joined(separator: ", ")
        let counted = try db.cachedStatement(sql: "SELECT 1 FROM \(name) WHERE \(keyMatch)")
        let missing = try keys.filter { try Int.fetchOne(counted, arguments: StatementArguments($0)) == nil }
        guard !missing.isEmpty else { return 0 }
        let keyList = key.joined(separator: ", ")
        try db.execute(sql: """
            CREATE TEMP TABLE IF NOT EXISTS restore_\(name) AS SELECT \(keyList) FROM main.\(name) WHERE 0;
            DELETE FROM temp.restore_\(name);
            """)
        let remember = try db.cachedStatement(sql: """
            INSERT INTO temp.restore_\(name) (\(keyList)) VALUES (\(key.map { _ in "?" }.joined(separator: ", ")))
            """)
        for values in missing { try remember.execute(arguments: StatementArguments(values)) }
        var candidates: [[DatabaseValue]: [Row]] = [:]
        let rows = try Row.fetchCursor(db, sql: """
            SELECT \(key.map { "s.\($0)" }.joined(separator: ", ")), s.file_id, f.load_seq, s.line
            FROM \(supersededTable) s JOIN temp.restore_\(name) k ON \(key.map { "k.\($0) = s.\($0)" }.joined(separator: " AND "))
            JOIN input_file f ON f.id = s.file_id
            """)
        while let row = try rows.next() {
            candidates[key.indices.map { row[$0] }, default: []].append(row.copy())
        }
        try db.execute(sql: "DELETE FROM temp.restore_\(name)")
        let moveBack = try db.cachedStatement(sql: """
            INSERT OR FAIL INTO \(name) (\(list)) SELECT \(list) FROM \(supersededTable) WHERE \(keyMatch) AND file_id = ?
            """)
        let forget = try db.cachedStatement(sql: "DELETE FROM \(supersededTable) WHERE \(keyMatch) AND file_id = ?")
        let recount = try db.cachedStatement(sql: "UPDATE input_file SET rows_superseded = rows_superseded - 1 WHERE id = ?")
        var moved = 0
        let at = key.count
        for values in missing {
            let outcomes = WhichRowsCount.sort(candidates[values] ?? [], by: ReferenceRowRule(key: keyDescription)) { i, row in
                ReferenceRowRule.Row(file: row[at], loadSeq: row[at + 1], line: row[at + 2], row: Int64(i))
            }
            guard let winner = outcomes.counted.first else { continue }
            let winnerFile: Int64 = winner[at]
            let arguments = StatementArguments(values)
            let file = StatementArguments([winnerFile])
            try moveBack.execute(arguments: arguments + file)
            try forget.execute(arguments: arguments + file)
            try recount.execute(arguments: file)
            moved += 1
        }
        return moved
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
    /// ``restore(keys:in:)`` finds a key's rows in one pass.
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
