import Foundation
import TallyWarehouse

/// Writes the reports while the warehouse rebuilds the derived tables the
/// ingest left pending: the rebuild runs on a thread of its own, on the
/// warehouse's connection, in WAL mode; each report stage reads through a
/// read connection and starts once the tables it reads are committed
/// (``DerivedTablesGate``).
///
/// Rebuilding the derived tables takes seconds, mostly on one core; run
/// before the reports, every report would wait for all of them.
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
        // The warehouse's connection is GRDB's serial queue: the leaderboards'
        // snapshot store waits for the rebuild's current transaction, and the
        // reports read on connections of their own.
        let rebuild = BackgroundRun { () throws -> [DerivationTiming] in
            do {
                return try warehouse.derivePending(ready: gate.open)
            } catch {
                gate.fail(error)
                throw error
            }
        }
        let reports = Result { try ReportLanes.run(stages, context: context) }
        let rebuilt = rebuild.wait()
        // The lanes closed their read connections: back to the rollback journal.
        let ended = Result { try warehouse.endReadsBesideWrites() }
        // The rebuild's failure first: stages waiting for its tables failed because of it.
        let timings = try rebuilt.get()
        let outcomes = try reports.get()
        try ended.get()
        return (outcomes, timings)
    }
}
