import GRDB
import GRDBSQLite

/// Steps through a query's rows with SQLite's C API, handing out columns as
/// integers or borrowed bytes: for derivations that scan millions of rows,
/// where making a GRDB `Row` and Strings per row would cost more than the
/// work itself. Prepared once; ``forEach(_:body:)`` may run it many times.
struct RawRows {
    private let statement: Statement
    private let db: Database

    init(_ db: Database, sql: String) throws {
        self.db = db
        self.statement = try db.makeStatement(sql: sql)
    }

    /// One row's columns, valid only during the callback.
    struct Columns {
        fileprivate let handle: OpaquePointer

        func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

        /// The column's UTF-8 bytes (nil when NULL), borrowed from SQLite until the next step.
        func bytes(_ column: Int32) -> UnsafeRawBufferPointer? {
            guard let text = sqlite3_column_text(handle, column) else { return nil }
            return UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column)))
        }

        func string(_ column: Int32) -> String? {
            bytes(column).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Runs the query with `arguments` (integers) bound to its parameters, calling `body` per row.
    func forEach(_ arguments: Int64..., body: (Columns) throws -> Void) throws {
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle); sqlite3_clear_bindings(handle) }
        for (i, value) in arguments.enumerated() { sqlite3_bind_int64(handle, Int32(i + 1), value) }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            try body(Columns(handle: handle))
        }
    }
}

/// Strings made from column bytes, reusing the one already made for the
/// same bytes: for values repeated on many rows (a challenge's group, its
/// users and their names), so each is allocated once, not once per row.
struct StringCache {
    private var strings: [Int: String] = [:]

    /// The string of `bytes` (UTF-8).
    mutating func string(_ bytes: UnsafeRawBufferPointer) -> String {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        let key = hasher.finalize()
        if let cached = strings[key], cached.utf8.elementsEqual(bytes) { return cached }
        let made = String(decoding: bytes, as: UTF8.self)
        strings[key] = made
        return made
    }

    /// Forgets every string (to bound memory between partitions).
    mutating func removeAll() {
        strings.removeAll(keepingCapacity: true)
    }
}
