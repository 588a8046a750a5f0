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

/// Strings made once for bytes that repeat across rows (product ids, paywall
/// contexts): the same bytes give the same String, with no allocation after
/// the first. Holds at most `limit` distinct values; past that, Strings are
/// made afresh (memory stays bounded whatever the data).
struct StringCache {
    private var slots: [(hash: UInt64, value: String)?]
    private var count = 0

    init(limit: Int = 512) {
        var size = 16
        while size < 2 * limit { size *= 2 }
        slots = Array(repeating: nil, count: size)
    }

    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325   // FNV-1a
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        while let slot = slots[i] {
            if slot.hash == hash, StringCache.equal(slot.value, bytes) { return slot.value }
            i = (i + 1) & mask
        }
        let made = String(decoding: bytes, as: UTF8.self)
        if 2 * (count + 1) <= slots.count {
            slots[i] = (hash, made)
            count += 1
        }
        return made
    }

    static func equal(_ string: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var copy = string
        return copy.withUTF8 { utf8 in
            utf8.count == bytes.count && (bytes.isEmpty || memcmp(utf8.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
    }
}
