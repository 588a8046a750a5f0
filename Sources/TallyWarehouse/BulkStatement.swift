import GRDB
import GRDBSQLite

/// A prepared statement bound and stepped through SQLite's C API.
///
/// The warehouse keeps GRDB for its schema and queries; bulk loads use this
/// path instead, because binding and stepping the prepared statement
/// directly skips the conversion of every argument to GRDB's values, which
/// costs as much as the insert itself (see docs/performance.md).
struct BulkStatement {
    private let statement: Statement
    private let db: Database
    fileprivate var handle: OpaquePointer { statement.sqliteStatement }
    fileprivate static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ db: Database, sql: String) throws {
        self.db = db
        self.statement = try db.makeStatement(sql: sql)
    }

    func bind(_ index: Int32, _ value: String?) {
        guard let value else { sqlite3_bind_null(handle, index); return }
        var copy = value
        copy.withUTF8 { utf8 in
            _ = sqlite3_bind_text(handle, index, utf8.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                                  Int32(utf8.count), BulkStatement.transient)
        }
    }

    func bind(_ index: Int32, _ value: Int64?) {
        guard let value else { sqlite3_bind_null(handle, index); return }
        sqlite3_bind_int64(handle, index, value)
    }

    func bind(_ index: Int32, _ value: Int?) { bind(index, value.map(Int64.init)) }

    func bind(_ index: Int32, _ value: Double?) {
        guard let value else { sqlite3_bind_null(handle, index); return }
        sqlite3_bind_double(handle, index, value)
    }

    /// Runs the statement once with the bound values; returns the rows changed.
    @discardableResult
    func step() throws -> Int {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE || code == SQLITE_ROW else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        return Int(sqlite3_changes(db.sqliteConnection))
    }
}

extension BulkStatement {
    /// Runs a query once with the bound values and returns its first row's
    /// first `columns` columns as integers (nil when it selects no row).
    func firstIntegers(_ columns: Int32) throws -> [Int64]? {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return (0..<columns).map { sqlite3_column_int64(handle, $0) }
        case SQLITE_DONE: return nil
        case let code:
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
    }
}

extension BulkStatement {
    /// Binds UTF-8 bytes as text without making a String, and without SQLite
    /// copying them: the bytes must stay valid until ``step()`` returns
    /// (which resets the statement and clears its bindings).
    func bind(_ index: Int32, borrowing bytes: UnsafeBufferPointer<UInt8>?) {
        guard let bytes, let base = bytes.baseAddress else { sqlite3_bind_null(handle, index); return }
        _ = sqlite3_bind_text(handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                              Int32(bytes.count), nil)
    }

    /// Binds UTF-8 bytes as text, an empty buffer as the empty text (never
    /// NULL), copied by SQLite.
    func bind(_ index: Int32, text bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            _ = sqlite3_bind_text(handle, index, "", 0, BulkStatement.transient)
            return
        }
        _ = sqlite3_bind_text(handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                              Int32(bytes.count), BulkStatement.transient)
    }

    /// Binds bytes as a BLOB without SQLite copying them: the bytes must stay
    /// valid until ``step()`` returns.
    func bind(_ index: Int32, blob bytes: UnsafeRawBufferPointer) {
        _ = sqlite3_bind_blob64(handle, index, bytes.baseAddress, sqlite3_uint64(bytes.count), nil)
    }

    /// Binds UTF-8 bytes as text without making a String (SQLite copies them).
    func bind(_ index: Int32, bytes: UnsafeBufferPointer<UInt8>?) {
        guard let bytes, let base = bytes.baseAddress else { sqlite3_bind_null(handle, index); return }
        _ = sqlite3_bind_text(handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                              Int32(bytes.count), BulkStatement.transient)
    }
}
