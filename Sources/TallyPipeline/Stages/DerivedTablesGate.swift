import Foundation
import TallyWarehouse

/// Lets report stages wait for the derived tables they read while the
/// warehouse rebuilds them on another thread (``Warehouse/derivePending(ready:)``),
/// so that each stage starts as soon as its own tables are ready.
///
/// Rebuilding the derived tables takes seconds, mostly on one core: no
/// report should wait for all of them.
final class DerivedTablesGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: Set<DerivedTable>
    private var failure: Error?

    /// A gate closed on `pending` (open on every other table).
    init(pending: Set<DerivedTable>) {
        self.pending = pending
    }

    /// `table` is rebuilt and committed.
    func open(_ table: DerivedTable) {
        condition.lock()
        pending.remove(table)
        condition.broadcast()
        condition.unlock()
    }

    /// The rebuild failed: every wait, now or later, throws `error` (rather
    /// than a stage reading a table that will not be rebuilt).
    func fail(_ error: Error) {
        condition.lock()
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// Returns once every one of `tables` is rebuilt; throws if the rebuild failed first.
    func wait(for tables: Set<DerivedTable>) throws {
        condition.lock()
        defer { condition.unlock() }
        while failure == nil, !pending.isDisjoint(with: tables) { condition.wait() }
        if let failure, !pending.isDisjoint(with: tables) { throw DerivationFailed(underlying: failure) }
    }
}

/// A report stage did not run because the derived tables it reads could not
/// be rebuilt; the rebuild's own error is what the run reports.
struct DerivationFailed: Error {
    var underlying: Error
}
