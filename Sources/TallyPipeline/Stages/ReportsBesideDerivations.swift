import Foundation
import TallyWarehouse

/// Writes the reports while the warehouse rebuilds the derived tables the
/// ingest left pending: the rebuild runs on a thread of its own, on the
/// warehouse's connection, in WAL mode; each report stage reads through a
/// read connection and starts once the tables it reads are committed
/// (``DerivedTablesGate``).
///
/// Measured at medium scale: the derived tables took ~7 s after the loads
/// and kept ~1.1 cores busy, and every report waited for all of them.
enum ReportsBesideDerivations {
    static func run(_ stages: [any ReportStage], context: ReportContext,
                    pending: Set<DerivedTable>) throws -> (reports: [ReportOutcome], derivations: [DerivationTiming]) {
        let warehouse = context.warehouse
        guard !pending.isEmpty, try warehouse.allowReadsBesideWrites() else {
            let timings = try warehouse.derivePending()
            return (try ReportLanes.run(stages, context: context), timings)
        }
        let gate = DerivedTablesGate(pending: pending)
        var context = context
        context.derived = gate
        let rebuild = Rebuild(warehouse: warehouse, gate: gate)
        let thread = Thread { rebuild.run() }
        thread.stackSize = 16 << 20
        thread.start()
        let reports = Result { try ReportLanes.run(stages, context: context) }
        rebuild.finished.wait()
        // The lanes closed their read connections: back to the rollback journal.
        let ended = Result { try warehouse.endReadsBesideWrites() }
        // The rebuild's failure first: stages waiting for its tables failed because of it.
        let timings = try rebuild.result.get()
        let outcomes = try reports.get()
        try ended.get()
        return (outcomes, timings)
    }
}

/// The derived tables' rebuild, run on its thread; `result` is set before
/// `finished` is signalled. The warehouse's connection is GRDB's serial
/// queue: the leaderboards' snapshot store waits for the rebuild's current
/// transaction, and the reports read on connections of their own.
private final class Rebuild: @unchecked Sendable {
    let warehouse: Warehouse
    let gate: DerivedTablesGate
    let finished = DispatchSemaphore(value: 0)
    var result: Result<[DerivationTiming], Error> = .success([])

    init(warehouse: Warehouse, gate: DerivedTablesGate) {
        self.warehouse = warehouse
        self.gate = gate
    }

    func run() {
        result = Result { try warehouse.derivePending(ready: gate.open) }
        if case .failure(let error) = result { gate.fail(error) }
        finished.signal()
    }
}
