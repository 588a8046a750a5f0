import GRDB

/// What an ingest session keeps while it loads swipes: the person numbers
/// and the filter of ids seen so far (rows already in the warehouse included).
final class SwipeLoad {
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
}
