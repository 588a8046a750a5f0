import GRDB

/// Streams key groups (the rows sharing a key, the input of a TallyCore
/// row rule) out of a query ordered by its key: only one group is held in
/// memory at a time.
enum KeyGroupCursor {
    /// Runs `sql`, whose first column is a text key and whose rows come
    /// ordered by it (`ORDER BY key`: equal keys, compared as bytes, are
    /// adjacent), and calls `body` with each group of two or more rows whose
    /// keys are equal byte for byte, as `read` describes them.
    ///
    /// ```swift
    /// try KeyGroupCursor.forEachGroup(db, sql: "SELECT id, rowid FROM t WHERE … ORDER BY id",
    ///                                 read: { $0.int64(1) }) { rowids in … }
    /// ```
    static func forEachGroup<Row>(_ db: Database, sql: String, read: (RawCursor) -> Row,
                                  _ body: ([Row]) throws -> Void) throws {
        let cursor = try RawCursor(db, sql: sql)
        var key: [UInt8] = []
        var group: [Row] = []
        while try cursor.next() {
            let same = cursor.withText(0) { $0.elementsEqual(key) }
            if !same {
                if group.count > 1 { try body(group) }
                group.removeAll(keepingCapacity: true)
                key = cursor.withText(0) { Array($0) }
            }
            group.append(read(cursor))
        }
        if group.count > 1 { try body(group) }
    }
}
