import GRDB
import TallyCore
import GRDBSQLite

/// A query stepped through SQLite's C API, its columns read in place.
///
/// The read-side twin of ``BulkStatement``, for scans of millions of rows
/// (the match pass, the subscribers' events): GRDB's `Row` cursor copies each
/// value into Swift types, which would be most of those scans' time.
final class RawCursor {
    private let statement: Statement
    private let db: Database
    private var handle: OpaquePointer { statement.sqliteStatement }

    init(_ db: Database, sql: String, arguments: StatementArguments = []) throws {
        self.db = db
        statement = try db.makeStatement(sql: sql)
        // No arguments: parameters are bound later (``forEach(_:body:)``).
        if !arguments.isEmpty { try statement.setArguments(arguments) }
    }

    /// Steps to the next row; false after the last one.
    func next() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    /// The column as a REAL.
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    /// How many columns the query selects.
    var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The UTF-8 bytes of a text column, valid until the next call to
    /// ``next()``; nil for NULL.
    func text(_ column: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard let base = sqlite3_column_text(handle, column) else { return nil }
        return UnsafeBufferPointer(start: base, count: Int(sqlite3_column_bytes(handle, column)))
    }

    /// A BLOB column's bytes (nil for NULL; empty for an empty blob), valid until the next step.
    func blob(_ column: Int32) -> UnsafeRawBufferPointer? {
        let base = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        guard base != nil || sqlite3_column_type(handle, column) != SQLITE_NULL else { return nil }
        return UnsafeRawBufferPointer(start: base, count: count)
    }

    /// A text column's bytes as raw memory (nil for NULL), valid until the next step.
    func bytes(_ column: Int32) -> UnsafeRawBufferPointer? { text(column).map(UnsafeRawBufferPointer.init) }

    /// A text column as a String (nil for NULL).
    func string(_ column: Int32) -> String? { text(column).map { String(decoding: $0, as: UTF8.self) } }

    /// A NOT NULL text column as a String ("" for NULL).
    func textValue(_ column: Int32) -> String { string(column) ?? "" }

    /// A `YYYY-MM-DD` text column as a date (nil for NULL or another text).
    func date(_ column: Int32) -> LocalDate? { text(column).flatMap { LocalDate.parse(utf8: $0) } }

    /// Runs the query again from the start with `arguments` (integers) bound
    /// to its parameters, calling `body` per row; the statement is prepared once.
    func forEach(_ arguments: Int64..., body: (RawCursor) throws -> Void) throws {
        sqlite3_reset(handle)
        for (i, value) in arguments.enumerated() { sqlite3_bind_int64(handle, Int32(i + 1), value) }
        defer { sqlite3_reset(handle) }
        while try next() { try body(self) }
    }

    /// Calls `body` with the column's UTF-8 bytes (valid only during the call).
    func withText<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        // Text first, then its length (SQLite's documented order).
        guard let base = sqlite3_column_text(handle, column) else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return body(UnsafeBufferPointer(start: base, count: Int(sqlite3_column_bytes(handle, column))))
    }

    deinit { sqlite3_reset(handle) }
}
