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
public final class SwipeStager: @unchecked Sendable {
    var persons = SwipePersonIndex()
    var ids: SwipeIdFilter

    /// Restores the people and the ids already stored, sizing the filter for
    /// them plus about `incomingBytes` of new swipes.
    init(_ db: Database, incomingBytes: Int64) throws {
        let stored = try Int.fetchOne(db, sql: "SELECT count(*) FROM swipe_row") ?? 0
        // A swipe line takes ≥ 40 bytes even gzipped (measured ~78), so this
        // over-counts rows: the filter errs on the roomy side.
        ids = SwipeIdFilter(expected: stored + Int(incomingBytes / 40))
        let people = try RawCursor(db, sql: "SELECT id, name FROM swipe_person ORDER BY id")
        while try people.next() {
            persons.restore(id: people.int64(0), name: people.withText(1) { String(decoding: $0, as: UTF8.self) })
        }
        let rows = try RawCursor(db, sql: "SELECT id FROM swipe_row")
        while try rows.next() { _ = rows.withText(0) { ids.insert($0) } }
    }

    /// Adds swipe `r`, read at `line`, to `batch`.
    public func stage(_ r: SwipeFields, line: Int, into batch: inout SwipeBatch) {
        let from = persons.number(r.fromUserId), to = persons.number(r.toUserId)
        batch.people += persons.takeAdded()
        if ids.insert(r.id) { batch.candidates.append(batch.count) }
        batch.idBytes.append(contentsOf: r.id)
        batch.idEnds.append(batch.idBytes.count)
        batch.from.append(from)
        batch.to.append(to)
        batch.actions.append(r.action)
        batch.instants.append(r.timestamp.microseconds)
        batch.lines.append(line)
    }
}

/// Swipes staged for storing (``SwipeStager``); a batch crosses from the
/// reading thread to the writer.
public struct SwipeBatch: Sendable {
    var idBytes: [UInt8] = []
    var idEnds: [Int] = []
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
}
