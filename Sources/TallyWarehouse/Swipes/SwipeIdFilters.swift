import GRDB

/// The swipe id filter as generations of ``SwipeIdFilter``, kept in the
/// warehouse between ingests, so that no ingest hashes every stored id
/// again as the log grows.
///
/// An id may have been seen when any generation says so; a new id goes into
/// the newest generation only. When the swipes about to be loaded would
/// outgrow the newest generation's capacity, a new generation starts beside
/// it, sized for at least every id stored so far, so generations double and
/// stay few (a log of 80M ids holds four or five), each an extra cache line
/// per id looked up. Only the newest generation changes in an ingest, and
/// only it is written back. Correctness never depends on the filter: a
/// "maybe seen" only makes a candidate that the exact comparison settles.
///
/// ```swift
/// var ids = try SwipeIdFilters.stored(db) ?? SwipeIdFilters(expected: storedIds + incoming)
/// ids.prepare(for: incoming, stored: storedIds)
/// if ids.insert(hash: ByteHash.of(id)) { /* a candidate */ }
/// try ids.store(db)
/// ```
struct SwipeIdFilters {
    /// Full generations, oldest first: looked up, never changed.
    private(set) var older: [SwipeIdFilter] = []
    private(set) var newest: SwipeIdFilter
    /// The newest generation's number (its row), and the ids put into it.
    private var generation: Int64
    private var newestIds: Int

    /// A first generation sized for about `expected` ids.
    init(expected: Int) {
        newest = SwipeIdFilter(expected: expected)
        generation = 1
        newestIds = 0
    }

    /// How many generations there are.
    var generations: Int { older.count + 1 }

    /// Starts a new generation when `incoming` more ids would outgrow the
    /// newest one: sized for at least every id so far (`stored`).
    mutating func prepare(for incoming: Int, stored: Int) {
        guard newestIds + incoming > newest.capacity else { return }
        older.append(newest)
        newest = SwipeIdFilter(expected: max(incoming, stored, newest.capacity))
        generation += 1
        newestIds = 0
    }

    /// Adds the id whose ``ByteHash`` is `hash`; returns true when it may have been added before.
    mutating func insert(hash: UInt64) -> Bool {
        for filter in older where filter.contains(hash: hash) { return true }
        let seen = newest.insert(hash: hash)
        if !seen { newestIds += 1 }
        return seen
    }

    /// Loads the blocks an id whose ``ByteHash`` is `hash` looks up (to warm
    /// the cache before a batch of inserts); returns what it read.
    func touchBlock(_ hash: UInt64) -> UInt64 {
        older.reduce(newest.touchBlock(hash)) { $0 &+ $1.touchBlock(hash) }
    }

    // MARK: - Kept in the warehouse

    /// v27: the filter kept as generations, one row each; a filter kept by
    /// v19 becomes the first generation, holding every id stored.
    static func keepGenerations(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TEMP TABLE kept_swipe_id_filter AS SELECT layout, bits FROM swipe_id_filter;
            DROP TABLE swipe_id_filter;
            CREATE TABLE swipe_id_filter (
                generation INTEGER PRIMARY KEY, layout INTEGER NOT NULL, ids INTEGER NOT NULL, bits BLOB NOT NULL
            );
            INSERT INTO swipe_id_filter (generation, layout, ids, bits)
            SELECT 1, layout, (SELECT coalesce(max(rowid), 0) FROM swipe_row), bits FROM temp.kept_swipe_id_filter;
            DROP TABLE temp.kept_swipe_id_filter;
            """)
    }

    /// The generations kept in the warehouse, when every one is of this
    /// ``SwipeIdFilter/layout`` and readable; nil otherwise (the caller hashes
    /// the stored ids into a new filter). A kept filter holds every id
    /// stored since it was first kept (``store(_:)``, in the transaction of
    /// each ingest that adds swipes), and perhaps ids since removed, which
    /// only cost a candidate each.
    static func stored(_ db: Database) throws -> SwipeIdFilters? {
        let read = try RawCursor(db, sql: "SELECT generation, layout, ids, bits FROM swipe_id_filter ORDER BY generation")
        var filters: [(generation: Int64, ids: Int, filter: SwipeIdFilter)] = []
        while try read.next() {
            guard read.int64(1) == SwipeIdFilter.layout, let blob = read.blob(3),
                  let filter = SwipeIdFilter(blob: blob) else { return nil }
            filters.append((read.int64(0), Int(read.int64(2)), filter))
        }
        guard let last = filters.last else { return nil }
        var kept = SwipeIdFilters(expected: 1)
        kept.older = filters.dropLast().map(\.filter)
        kept.newest = last.filter
        kept.generation = last.generation
        kept.newestIds = last.ids
        return kept
    }

    /// Keeps the filter in the warehouse: the newest generation's row
    /// written, the older ones as they are; a filter made anew replaces
    /// whatever was kept.
    func store(_ db: Database, replacing: Bool) throws {
        if replacing { try db.execute(sql: "DELETE FROM swipe_id_filter") }
        let write = try BulkStatement(db, sql: """
            INSERT OR REPLACE INTO swipe_id_filter (generation, layout, ids, bits) VALUES (?, ?, ?, ?)
            """)
        write.bind(1, generation)
        write.bind(2, SwipeIdFilter.layout)
        write.bind(3, newestIds)
        try newest.withBits { bytes in
            write.bind(4, blob: bytes)
            try write.step()
        }
    }
}
