import Foundation
import GRDB
import GRDBSQLite

/// A query stepped through SQLite's C API, its columns read in place: the
/// read-side twin of ``BulkStatement``, for scans of millions of rows where
/// decoding every column through GRDB's `Row` (a String per text column)
/// measured as most of the time.
struct RawRows {
    private let statement: Statement
    private let db: Database
    private var handle: OpaquePointer { statement.sqliteStatement }

    init(_ db: Database, sql: String) throws {
        self.db = db
        statement = try db.makeStatement(sql: sql)
    }

    /// Moves to the next row; false after the last one.
    func next() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        return false
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    /// The UTF-8 bytes of a text column, valid until the next call to
    /// ``next()``; nil for NULL.
    func text(_ column: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard let base = sqlite3_column_text(handle, column) else { return nil }
        return UnsafeBufferPointer(start: base, count: Int(sqlite3_column_bytes(handle, column)))
    }
}
