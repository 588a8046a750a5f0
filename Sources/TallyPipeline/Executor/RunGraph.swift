import Foundation
import TallyReports
import TallyWarehouse

/// A run's graph after its ingest: the derived tables the ingest left
/// pending and the report families, each a node declaring what it reads
/// and produces, run by the ``Executor``.
///
/// - Each pending derived table is rebuilt on the warehouse writer's lane,
///   in ``Warehouse/derivationOrder``; the tail a derivation leaves
///   (``DerivationTail``) is finished on a thread of its own, beside the
///   derivations that follow it.
/// - Each family reads through a read connection of its own, limited to the
///   derived tables it declared (``DeclaredReads``), once those are
///   committed: in WAL mode (``Warehouse/allowReadsBesideWrites()``) while
///   the writer rebuilds the others. Families computing on every core run
///   one after the other; those computing on one core, beside them.
/// - Each family gathers its files in an ``OutputSet`` of its own; they join
///   the run's set, in family order, once every node succeeded.
enum RunGraph {
    /// What a node of the run's graph gives.
    enum Value {
        /// A derived table's rebuild has begun (`started`) and may have left a tail.
        case rebuilt(DerivedTable, tail: DerivationTail?, started: Date)
        case derived(DerivationTiming)
        case report(ReportOutcome)
    }

    /// Rebuilds the `pending` derived tables and writes `families`' reports,
    /// beside each other when the warehouse can be read while it is written.
    /// Returns the families' outcomes in their order and the derivations'
    /// times in the order the tables were ready.
    static func run(_ families: [any ReportStage], context: ReportContext,
                    pending: Set<DerivedTable>) throws -> (reports: [ReportOutcome], derivations: [DerivationTiming]) {
        let warehouse = context.warehouse
        guard !pending.isEmpty, try warehouse.allowReadsBesideWrites() else {
            let timings = try derive(pending, in: warehouse)
            return (try reports(families, context: context), timings)
        }
        // The families first: the calling thread serves the first lane,
        // the every-core families' (see ``Executor``).
        var graph = StageGraph<Value>()
        let outputs = addFamilies(families, context: context, to: &graph)
        addDerivations(pending, in: warehouse, to: &graph)
        let ran = Result { try Executor.run(graph) }
        // Every read connection is closed: back to the rollback journal.
        let ended = Result { try warehouse.endReadsBesideWrites() }
        let outcome = try ran.get()
        try ended.get()
        outputs.forEach(context.outputs.absorb)
        return (outcome.values.compactMap(\.report),
                outcome.finished.compactMap { outcome.values[$0].derivation })
    }

    /// Rebuilds the `pending` derived tables (a tail beside the derivations
    /// that follow it); their times in the order the tables were ready.
    static func derive(_ pending: Set<DerivedTable>, in warehouse: Warehouse) throws -> [DerivationTiming] {
        var graph = StageGraph<Value>()
        addDerivations(pending, in: warehouse, to: &graph)
        let outcome = try Executor.run(graph)
        return outcome.finished.compactMap { outcome.values[$0].derivation }
    }

    /// Writes `families`' reports from committed derived tables.
    static func reports(_ families: [any ReportStage], context: ReportContext) throws -> [ReportOutcome] {
        var graph = StageGraph<Value>()
        let outputs = addFamilies(families, context: context, to: &graph)
        let outcome = try Executor.run(graph)
        outputs.forEach(context.outputs.absorb)
        return outcome.values.compactMap(\.report)
    }

    /// Two nodes per pending table: the rebuild on the writer's lane, then
    /// its finish alone (the tail's compute, and its store, which waits for
    /// the writer's current transaction: the warehouse's connection
    /// serialises them), which produces the table.
    static func addDerivations(_ pending: Set<DerivedTable>, in warehouse: Warehouse, to graph: inout StageGraph<Value>) {
        for table in Warehouse.derivationOrder where pending.contains(table) {
            let rebuilt = Product.step("\(table.rawValue): rebuilt")
            graph.add(StageNode(name: "derive \(table.rawValue)", produces: [rebuilt], demand: .warehouseWriter) {
                let started = Date()
                return .rebuilt(table, tail: try warehouse.rebuild(table), started: started)
            })
            graph.add(StageNode(name: "derive \(table.rawValue): finish", reads: [rebuilt], produces: [.derived(table)],
                                demand: .alone, body: { inputs in
                guard case .rebuilt(_, let tail, let started)? = inputs.first else { preconditionFailure("no rebuild before its finish") }
                if let tail {
                    tail.compute()
                    try warehouse.store(tail, completing: table)
                }
                return .derived(DerivationTiming(name: table.rawValue, seconds: Date().timeIntervalSince(started)))
            }))
        }
    }

    /// One node per family, reading its datasets and declared derived
    /// tables; returns the families' output sets, in family order.
    static func addFamilies(_ families: [any ReportStage], context: ReportContext,
                            to graph: inout StageGraph<Value>) -> [OutputSet] {
        families.map { family in
            let outputs = OutputSet(csvDialect: context.config.csv.dialect)
            let reads = Set(family.datasets.map(Product.dataset)).union(family.derivedTables.map(Product.derived))
            graph.add(StageNode(name: family.name, reads: reads, demand: family.cores.demand) {
                let connection = try context.warehouse.openReadConnection()
                defer { try? connection.close() }
                var context = context
                context.reads = DeclaredReads(connection, declared: family.derivedTables)
                context.outputs = outputs
                return .report(try family.run(context))
            })
            return outputs
        }
    }
}

extension RunGraph.Value {
    var report: ReportOutcome? {
        if case .report(let outcome) = self { outcome } else { nil }
    }

    var derivation: DerivationTiming? {
        if case .derived(let timing) = self { timing } else { nil }
    }
}
