import GRDB
import TallyCore
import TallyIngest

/// Stores the rows of the `swipes/` and `subscriptions/` tables and of App
/// Store Connect reports.
extension IngestSession {
    public func insert(_ r: SwipeUserRecord, file: Int64, line: Int) throws -> Bool {
        try storeKeyed("swipe_user", ReferenceColumns.values(r), file: file, line: line)
    }

    /// The stager of this session's swipes (made on first use, from what the
    /// warehouse holds). Stage on a reading thread, store here.
    public func swipeStager() throws -> SwipeStager {
        if let swipeStagerMade { return swipeStagerMade }
        let made = try SwipeStager(db, incomingBytes: swipesFileBytes)
        swipeStagerMade = made
        return made
    }

    /// Appends one swipe row (see ``store(_:file:)`` for many).
    public func insert(_ r: SwipeFields, file: Int64, line: Int) throws {
        var batch = SwipeBatch()
        let stager = try swipeStager()
        stager.stage(r, line: line, into: &batch)
        stager.seal(&batch)
        try store(batch, file: file)
    }

    /// Appends staged swipes: their new people, the ids that may repeat,
    /// and the rows. Which row of a repeated id counts is decided after the
    /// load (``SwipeLogSchema/derivation``). Rejects are the caller's.
    public func store(_ batch: SwipeBatch, file: Int64) throws {
        precondition(batch.from.count == batch.count, "a swipe batch is stored only once sealed (SwipeStager.seal)")
        swipeSpans[file]?.add(batch.instants)   // begun with the file (beginFile)
        for (id, name) in batch.people {
            let person = try statement("INSERT INTO swipe_person (id, name) VALUES (?, ?)")
            person.bind(1, id); person.bind(2, name)
            try person.step()
        }
        for i in batch.candidates {
            let candidate = try statement("INSERT OR IGNORE INTO swipe_id_candidate (id) VALUES (?)")
            batch.withId(i) { candidate.bind(1, bytes: $0) }
            try candidate.step()
        }
        // Rows go 64 to a statement: one VDBE run and one step per 64 rows
        // (the writer thread bounds the swipes load).
        let columns = ["id", "from_person", "to_person", "action", "at", "file_id", "line"]
        let many = 64
        let wide = try multiRowInsert("swipe_row", columns, rows: many)
        let single = try multiRowInsert("swipe_row", columns, rows: 1)
        var i = 0
        while i < batch.count {
            let (s, rows) = batch.count - i >= many ? (wide, many) : (single, 1)
            for r in 0..<rows {
                let row = i + r, at = Int32(r * columns.count)
                batch.withId(row) { s.bind(at + 1, bytes: $0) }
                s.bind(at + 2, batch.from[row]); s.bind(at + 3, batch.to[row]); s.bind(at + 4, batch.actions[row].rawValue)
                s.bind(at + 5, batch.instants[row]); s.bind(at + 6, file); s.bind(at + 7, batch.lines[row])
            }
            try s.step()
            i += rows
        }
    }

    public func insert(_ r: ProductRecord, file: Int64, line: Int) throws -> Bool {
        try storeKeyed("product", ReferenceColumns.values(r), file: file, line: line)
    }

    /// Appends a subscription event row. Which row of a repeated id counts,
    /// and which repeats are rejects, is decided after the load
    /// (``SubscriptionLogSchema/events``).
    public func insert(_ r: SubscriptionEventRecord, file: Int64, line: Int) throws {
        let s = try eventStatement()
        s.bind(1, r.id); s.bind(2, r.app); s.bind(3, r.userId); s.bind(4, r.event.kind.rawValue)
        s.bind(5, r.event.productId); s.bind(6, r.event.context); s.bind(7, r.event.timestamp.microseconds)
        s.bind(8, file); s.bind(9, line)
        try s.step()
    }

    /// Appends a subscription event row from the bytes the reader holds.
    /// Repeated ids are settled after the load, as for a record.
    public func insert(_ r: SubscriptionEventFields, file: Int64) throws {
        var batch = RowBatch()
        Self.stage(r, into: &batch)
        try store(events: batch, file: file)
    }

    /// The subscription event columns a ``RowBatch`` stages, in order (see ``stage(_:into:)``).
    static let eventColumns = ["id", "app", "user_id", "event", "product_id", "context", "at"]

    /// Stages event `r` for ``store(events:file:)`` (pure: runs on a reading thread).
    public static func stage(_ r: SubscriptionEventFields, into batch: inout RowBatch) {
        batch.append(r.id); batch.append(r.app); batch.append(r.userId); batch.append(r.kind.rawValue)
        batch.append(r.productId); batch.append(r.context); batch.append(r.timestamp.microseconds)
        batch.endRow(line: r.line)
    }

    /// Appends staged events. Repeated ids are settled after the load, as for a record.
    public func store(events batch: RowBatch, file: Int64) throws {
        _ = try append(batch, to: "subscription_event_row", columns: Self.eventColumns, file: file)
    }

    private func eventStatement() throws -> BulkStatement {
        try statement("""
            INSERT INTO subscription_event_row (id, app, user_id, event, product_id, context, at, file_id, line)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
    }

    public func insert(_ r: ConnectionRecord, file: Int64, line: Int) throws -> Bool {
        try storeKeyed("partner_connection", ReferenceColumns.values(r), file: file, line: line)
    }

    /// Stores one row of an App Store Connect Subscription Event report.
    public func insert(_ r: AppStoreEventCount, file: Int64, line: Int) throws {
        let s = try statement("""
            INSERT INTO appstore_event_count (date, app, subscription, apple_event, event, quantity, file_id, line)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        s.bind(1, r.date.description); s.bind(2, r.app); s.bind(3, r.subscription); s.bind(4, r.appleEvent)
        s.bind(5, r.event.rawValue); s.bind(6, r.quantity); s.bind(7, file); s.bind(8, line)
        try s.step()
    }
}
