import GRDB

/// Where each swipes file's rows lie in the log (`swipe_row`, by rowid) and
/// the instants they cover, so that a read of the swipes of a window of time
/// (``WarehouseReader/forEachSwipe(from:to:_:)``: the KPIs' period and the
/// month before it) scans the rows of the files that cover the window, not
/// the whole log: with a year of monthly files behind it, a month's KPIs
/// read two files' rows instead of thirteen.
///
/// A file's span is recorded as its load finishes, begun when it begins
/// (``IngestSession/beginFile(_:absolutePath:bytes:sha256:)``)
/// and ended by ``IngestSession/finishFile(_:read:rejected:superseded:unknownFields:fingerprint:)``:
/// the rowids its rows took (SQLite gives an appended row the largest rowid
/// plus one, so a file's rows are the rowids past the largest before its
/// load, as many as it stored: checked, and no span is recorded otherwise)
/// and the earliest and latest instants among them (none for a file without
/// rows). A span goes with its file (`ON DELETE CASCADE`). A read that finds
/// a swipes file without a span scans the whole log.
///
/// ```swift
/// // The rowid ranges to scan for the swipes of October (and September).
/// try SwipeSpans.ranges(db, from: septemberStart, to: novemberStart)   // [8_345_757...10_025_799]
/// ```
enum SwipeSpans {
    /// v30: the spans of the swipes files, those loaded before it found by one scan of the log.
    static func createTable(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE swipe_span (
                file_id INTEGER PRIMARY KEY REFERENCES input_file(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
                first_row INTEGER NOT NULL, last_row INTEGER NOT NULL,
                first_at INTEGER, last_at INTEGER
            );
            INSERT INTO swipe_span (file_id, first_row, last_row, first_at, last_at)
            SELECT file_id, min(rowid), max(rowid), min(at), max(at) FROM swipe_row GROUP BY file_id;
            INSERT INTO swipe_span (file_id, first_row, last_row)
            SELECT id, 1, 0 FROM input_file f
            WHERE table_name = 'swipes' AND NOT EXISTS (SELECT 1 FROM swipe_span s WHERE s.file_id = f.id);
            """)
    }

    /// The rows of one file being loaded: how the log stood before its first
    /// row, how many it stored, and the instants they cover.
    struct Pending {
        var lastRowBefore: Int64
        var rows: Int64 = 0
        var firstAt: Int64 = .max
        var lastAt: Int64 = .min

        /// A file's rows about to be appended to the log as `db` holds it.
        init(_ db: Database) throws {
            lastRowBefore = try Int64.fetchOne(db, sql: "SELECT max(rowid) FROM swipe_row") ?? 0
        }

        mutating func add(_ instants: [Int64]) {
            rows += Int64(instants.count)
            for at in instants {
                firstAt = min(firstAt, at)
                lastAt = max(lastAt, at)
            }
        }

        /// Records the file's span, when its rows took the rowids right after
        /// the log's largest before them (else none: its reads scan the log).
        func record(_ db: Database, file: Int64) throws {
            let lastRow = try Int64.fetchOne(db, sql: "SELECT max(rowid) FROM swipe_row") ?? 0
            guard lastRow - lastRowBefore == rows else { return }
            try db.execute(sql: """
                INSERT OR REPLACE INTO swipe_span (file_id, first_row, last_row, first_at, last_at) VALUES (?, ?, ?, ?, ?)
                """, arguments: [file, lastRowBefore + 1, lastRow, rows > 0 ? firstAt : nil, rows > 0 ? lastAt : nil])
        }
    }

    /// The rowid ranges holding every swipe made in `[from, to)`: the spans
    /// of the files covering some of it, overlapping ones merged (so no row
    /// is read twice), in rowid order; nil when a swipes file has no span.
    static func ranges(_ db: Database, from: Int64, to: Int64) throws -> [ClosedRange<Int64>]? {
        let unknown = try Int.fetchOne(db, sql: """
            SELECT count(*) FROM input_file f
            WHERE table_name = 'swipes' AND NOT EXISTS (SELECT 1 FROM swipe_span s WHERE s.file_id = f.id)
            """) ?? 0
        guard unknown == 0 else { return nil }
        let spans = try Row.fetchAll(db, sql: """
            SELECT first_row, last_row FROM swipe_span
            WHERE last_at >= ? AND first_at < ? AND first_row <= last_row ORDER BY first_row
            """, arguments: [from, to])
        var merged: [ClosedRange<Int64>] = []
        for span in spans {
            let range = (span[0] as Int64)...(span[1] as Int64)
            if let last = merged.last, range.lowerBound <= last.upperBound + 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}
