import Foundation
import TallyReports

/// Runs the report stages in two lanes: the stages that use every core
/// (statements, leaderboards: partitions computed in parallel) one after the
/// other on the calling thread, and the stages that compute on one thread
/// and only read (activity, KPIs) on a thread of their own, beside them.
///
/// Run one after the other, the four stages would keep little more than one
/// core busy (activity and KPIs compute on one); side by side, those
/// seconds overlap the parallel stages' waits (SQLite reads, file writes).
///
/// Each lane gathers its files in its own ``OutputSet``; the side lane's
/// join the main set once both lanes finished, so nothing is moved into
/// place unless every stage succeeded. Outcomes come back in
/// ``ReportStages/all`` order, whatever the lane.
///
/// Both lanes read through read connections of their own (the warehouse's
/// connection may be rebuilding derived tables meanwhile), and each stage
/// first waits for the derived tables it reads (``DerivedTablesGate``).
enum ReportLanes {
    static func run(_ stages: [any ReportStage], context: ReportContext) throws -> [ReportOutcome] {
        var mainContext = context
        let mainReads = try context.warehouse.openReadConnection()
        mainContext.reads = mainReads
        defer { try? mainReads.close() }
        let side = stages.filter(\.readsOnOneCore)
        guard !side.isEmpty else { return try stages.map { try runStage($0, mainContext) } }
        var sideContext = context
        sideContext.outputs = OutputSet()
        let sideReads = try context.warehouse.openReadConnection()
        sideContext.reads = sideReads
        defer { try? sideReads.close() }
        let lane = BackgroundRun { try side.map { try runStage($0, sideContext) } }
        let mainResult = Result { try stages.filter { !$0.readsOnOneCore }.map { try runStage($0, mainContext) } }
        let sideResult = lane.wait()
        var main = try mainResult.get().makeIterator(), beside = try sideResult.get().makeIterator()
        context.outputs.absorb(sideContext.outputs)
        return stages.map { $0.readsOnOneCore ? beside.next()! : main.next()! }
    }

    /// Runs `stage` once the derived tables it reads are rebuilt.
    static func runStage(_ stage: any ReportStage, _ context: ReportContext) throws -> ReportOutcome {
        try context.derived?.wait(for: stage.derivedTables)
        return try stage.run(context)
    }
}
