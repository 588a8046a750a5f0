import GRDB
import TallyCore
import TallyIngest

/// Turns decoded swipes into rows ready to store: numbers their users and
/// flags ids that may repeat. Pure Swift, no SQLite, so it can run on a
/// reading thread while the writer stores the previous batch
/// (``IngestSession/store(_:file:)``).
///
/// One stager serves an ingest session (``IngestSession/swipeStager()``): it
/// starts from the people and ids already stored. Use it from one thread at
/// a time (the reading thread of the file being loaded).
public final class SwipeStager: @unchecked Sendable {   // used by one thread at a time (the loading file's reading thread), handed over by the load
    var persons = SwipePersonIndex()
    var ids: SwipeIdFilters

    /// Whether the id filter was the one kept in the warehouse (``SwipeIdFilters/stored(_:)``),
    /// not one made by hashing every stored id again.
    let restoredFilter: Bool

    /// Restores the people and the ids already stored: the filter kept in
    /// the warehouse, with a new generation when about `incomingBytes` of
    /// new swipes would outgrow its newest (``SwipeIdFilters``), else a new
    /// one fed every stored id.
    init(_ db: Database, incomingBytes: Int64) throws {
        // No fewer than the rows stored (removed rows leave gaps in the rowids), without counting them.
        let stored = try Int.fetchOne(db, sql: "SELECT max(rowid) FROM swipe_row") ?? 0
        // A swipe line takes ≥ 40 bytes even gzipped (typically ~78), so this
        // over-counts rows: the filter errs on the roomy side.
        let incoming = Int(incomingBytes / 40)
        let kept = try SwipeIdFilters.stored(db)
        ids = kept ?? SwipeIdFilters(expected: stored + incoming)
        restoredFilter = kept != nil
        ids.prepare(for: incoming, stored: stored)
        let people = try RawCursor(db, sql: "SELECT id, name FROM swipe_person ORDER BY id")
        while try people.next() {
            persons.restore(id: people.int64(0), name: people.withText(1) { String(decoding: $0, as: UTF8.self) })
        }
        guard kept == nil else { return }
        let rows = try RawCursor(db, sql: "SELECT id FROM swipe_row")
        while try rows.next() { _ = rows.withText(0) { ids.insert(hash: ByteHash.of($0)) } }
    }

    /// Keeps the id filter in the warehouse for the next ingest; called in
    /// the transaction that stores this stager's swipes.
    func keepFilter(_ db: Database) throws {
        try ids.store(db, replacing: !restoredFilter)
    }

    /// Adds swipe `r`, read at `line`, to `batch`; ``seal(_:)`` then numbers
    /// its users and flags its ids, before the batch is stored.
    public func stage(_ r: SwipeFields, line: Int, into batch: inout SwipeBatch) {
        batch.idBytes.append(contentsOf: r.id)
        batch.idEnds.append(batch.idBytes.count)
        batch.userBytes.append(contentsOf: r.fromUserId)
        batch.userEnds.append(batch.userBytes.count)
        batch.userBytes.append(contentsOf: r.toUserId)
        batch.userEnds.append(batch.userBytes.count)
        batch.actions.append(r.action)
        batch.instants.append(r.timestamp.microseconds)
        batch.lines.append(line)
    }

    /// Numbers the users of the swipes staged in `batch` and flags the ids
    /// the filter may have seen, row by row as if each were looked up when
    /// staged.
    ///
    /// Batched for memory-level parallelism: each lookup is a cache miss
    /// or three in tables of megabytes (person slots, names, filter blocks),
    /// and one lookup after another would leave the thread waiting on
    /// memory. Rows go in chunks: first every chunk row's slots and
    /// blocks are touched (independent loads the CPU overlaps), then the
    /// names those slots point to, then the lookups proper, which hit.
    public func seal(_ batch: inout SwipeBatch) {
        let count = batch.count
        guard batch.from.count < count else { return }
        var userHashes = [UInt64](repeating: 0, count: 2 * count), idHashes = [UInt64](repeating: 0, count: count)
        for i in 0..<count {
            batch.withId(i) { idHashes[i] = ByteHash.of($0) }
            batch.withUser(2 * i) { userHashes[2 * i] = ByteHash.of($0) }
            batch.withUser(2 * i + 1) { userHashes[2 * i + 1] = ByteHash.of($0) }
        }
        batch.from.reserveCapacity(count)
        batch.to.reserveCapacity(count)
        let chunk = 32
        var touched: UInt64 = 0
        for first in stride(from: 0, to: count, by: chunk) {
            let rows = first..<min(first + chunk, count)
            for i in rows {
                touched &+= persons.touchSlot(userHashes[2 * i]) &+ persons.touchSlot(userHashes[2 * i + 1])
                touched &+= ids.touchBlock(idHashes[i])
            }
            for i in rows {
                touched &+= persons.touchName(userHashes[2 * i]) &+ persons.touchName(userHashes[2 * i + 1])
            }
            for i in rows {
                let from = batch.withUser(2 * i) { persons.number($0, hash: userHashes[2 * i]) }
                let to = batch.withUser(2 * i + 1) { persons.number($0, hash: userHashes[2 * i + 1]) }
                batch.from.append(from)
                batch.to.append(to)
                if ids.insert(hash: idHashes[i]) { batch.candidates.append(i) }
            }
        }
        batch.people += persons.takeAdded()
        // Keeps the touching loads from being optimised away.
        touchedSink = touched
    }

    /// The sum of the touched words (never read; see ``seal(_:)``).
    private(set) var touchedSink: UInt64 = 0
}

/// Swipes staged for storing (``SwipeStager``); a batch crosses from the
/// reading thread to the writer.
public struct SwipeBatch: Sendable {
    var idBytes: [UInt8] = []
    var idEnds: [Int] = []
    /// Each swipe's from and to user ids, one after the other (2 per row).
    var userBytes: [UInt8] = []
    var userEnds: [Int] = []
    /// Person numbers, filled by ``SwipeStager/seal(_:)``.
    var from: [Int64] = []
    var to: [Int64] = []
    var actions: [SwipeAction] = []
    var instants: [Int64] = []
    var lines: [Int] = []
    /// Rows (indexes) whose id the filter may have seen before.
    var candidates: [Int] = []
    /// People first named in this batch (number, user id).
    var people: [(Int64, String)] = []

    public init() {}

    /// The swipes staged.
    public var count: Int { lines.count }

    /// The id of swipe `i`, as UTF-8 bytes, valid during `body`.
    func withId<T>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        try idBytes.withUnsafeBufferPointer { all in
            let start = i == 0 ? 0 : idEnds[i - 1]
            return try body(UnsafeBufferPointer(rebasing: all[start..<idEnds[i]]))
        }
    }

    /// User id `u` (swipe `u / 2`'s from user when even, its to user when odd).
    func withUser<T>(_ u: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        try userBytes.withUnsafeBufferPointer { all in
            let start = u == 0 ? 0 : userEnds[u - 1]
            return try body(UnsafeBufferPointer(rebasing: all[start..<userEnds[u]]))
        }
    }
}
