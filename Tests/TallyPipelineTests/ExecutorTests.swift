import Foundation
import Testing
@testable import TallyPipeline
import TallyWarehouse

/// The executor: what runs beside what, decided from what each node declares.
@Suite("Executor")
struct ExecutorTests {
    struct Boom: Error {}

    /// What the nodes did, in order, and how many of each demand ran at once.
    final class Log: @unchecked Sendable {   // every field behind `lock`
        private let lock = NSLock()
        private var lines: [String] = []
        private var running: [Demand: Int] = [:]
        private(set) var mostAtOnce: [Demand: Int] = [:]
        func add(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
        func enter(_ demand: Demand) {
            lock.withLock {
                running[demand, default: 0] += 1
                mostAtOnce[demand] = max(mostAtOnce[demand] ?? 0, running[demand]!)
            }
        }
        func leave(_ demand: Demand) { lock.withLock { running[demand, default: 0] -= 1 } }
        func index(_ line: String) -> Int { all.firstIndex(of: line) ?? Int.max }
    }

    /// A node that logs its start and end, sleeping `seconds` between.
    func node(_ name: String, _ demand: Demand, reads: Set<Product> = [], produces: Set<Product> = [],
              seconds: Double = 0, fails: Bool = false, log: Log) -> StageNode<String> {
        StageNode(name: name, reads: reads, produces: produces, demand: demand) {
            log.enter(demand)
            defer { log.leave(demand) }
            log.add("\(name) start")
            Thread.sleep(forTimeInterval: seconds)
            if fails { throw Boom() }
            log.add("\(name) end")
            return name
        }
    }

    @Test func aFamilyStartsOnlyOnceTheDerivedTablesItDeclaredAreCommitted() throws {
        let log = Log()
        var graph = StageGraph<String>()
        graph.add(node("derive expenses", .warehouseWriter, produces: [.derived(.expenseWinners)], seconds: 0.15, log: log))
        graph.add(node("derive check-ins", .warehouseWriter, produces: [.derived(.checkinWinners)], seconds: 0.15, log: log))
        graph.add(node("statements", .everyCore, reads: [.derived(.expenseWinners), .dataset("expenses")], log: log))
        graph.add(node("leaderboards", .everyCore, reads: [.derived(.checkinWinners)], log: log))
        // Reads a table no node of the graph produces: committed before the run.
        graph.add(node("kpis", .oneCore, reads: [.derived(.swipeMatches)], seconds: 0.05, log: log))
        let outcome = try Executor.run(graph)
        #expect(outcome.values == ["derive expenses", "derive check-ins", "statements", "leaderboards", "kpis"])
        #expect(log.index("derive expenses end") < log.index("statements start"))
        #expect(log.index("derive check-ins end") < log.index("leaderboards start"))
        // The statements did not wait for the check-ins; the KPIs waited for nothing.
        #expect(log.index("statements start") < log.index("derive check-ins end"))
        #expect(log.index("kpis start") < log.index("derive expenses end"))
        #expect(outcome.finished.count == 5)
    }

    @Test func nodesOfOneSharedDemandRunOneAtATimeAndLanesRunBesideEachOther() throws {
        let log = Log()
        var graph = StageGraph<String>()
        for i in 0..<3 { graph.add(node("every \(i)", .everyCore, seconds: 0.05, log: log)) }
        for i in 0..<3 { graph.add(node("one \(i)", .oneCore, seconds: 0.05, log: log)) }
        for i in 0..<2 { graph.add(node("write \(i)", .warehouseWriter, seconds: 0.05, log: log)) }
        for i in 0..<3 { graph.add(node("alone \(i)", .alone, seconds: 0.1, log: log)) }
        _ = try Executor.run(graph)
        #expect(log.mostAtOnce[.everyCore] == 1)
        #expect(log.mostAtOnce[.oneCore] == 1)
        #expect(log.mostAtOnce[.warehouseWriter] == 1)
        #expect(log.mostAtOnce[.alone] == 3)
        // A lane takes its nodes in graph order when all are ready.
        #expect(log.index("every 0 end") < log.index("every 1 start"))
        #expect(log.index("every 1 end") < log.index("every 2 start"))
        // The lanes overlap: the one-core lane started before the every-core lane ended.
        #expect(log.index("one 0 start") < log.index("every 2 end"))
    }

    @Test func aLaneTakesTheFirstReadyNodeNotTheFirstNode() throws {
        let log = Log()
        var graph = StageGraph<String>()
        graph.add(node("derive", .warehouseWriter, produces: [.derived(.checkinWinners)], seconds: 0.2, log: log))
        graph.add(node("waits", .everyCore, reads: [.derived(.checkinWinners)], log: log))
        graph.add(node("ready", .everyCore, log: log))
        _ = try Executor.run(graph)
        #expect(log.index("ready end") < log.index("derive end"))
        #expect(log.index("derive end") < log.index("waits start"))
    }

    @Test func aFailingNodeStopsTheRunAndItsErrorIsReported() throws {
        let log = Log()
        var graph = StageGraph<String>()
        graph.add(node("derive", .warehouseWriter, produces: [.derived(.expenseWinners)], seconds: 0.05, fails: true, log: log))
        graph.add(node("derive next", .warehouseWriter, produces: [.derived(.checkinWinners)], log: log))
        graph.add(node("statements", .everyCore, reads: [.derived(.expenseWinners)], log: log))
        graph.add(node("running", .oneCore, seconds: 0.2, log: log))
        graph.add(node("after", .oneCore, log: log))
        #expect(throws: Boom.self) { try Executor.run(graph) }
        // Nothing started after the failure; what was running ran to its end.
        #expect(!log.all.contains("statements start"))
        #expect(!log.all.contains("derive next start"))
        #expect(!log.all.contains("after start"))
        #expect(log.all.contains("running end"))
    }

    @Test func theFirstFailureIsTheOneReported() throws {
        struct Late: Error {}
        var graph = StageGraph<String>()
        graph.add(StageNode(name: "first", demand: .everyCore) { throw Boom() })
        graph.add(StageNode(name: "late", demand: .oneCore) {
            Thread.sleep(forTimeInterval: 0.1)
            throw Late()
        })
        #expect(throws: Boom.self) { try Executor.run(graph) }
    }

    @Test func aNodeIsHandedTheValuesOfTheNodesItWaitsFor() throws {
        var graph = StageGraph<String>()
        graph.add(StageNode(name: "a", produces: [.step("a")], demand: .warehouseWriter) { "from a" })
        graph.add(StageNode(name: "b", produces: [.step("b")], demand: .oneCore) { "from b" })
        graph.add(StageNode(name: "c", reads: [.step("a"), .step("b")], demand: .alone, body: { inputs in
            inputs.joined(separator: "+")
        }))
        #expect(try Executor.run(graph).values == ["from a", "from b", "from a+from b"])
    }

    @Test func lanesFollowTheDeclaredDemands() {
        var graph = StageGraph<String>()
        for demand: Demand in [.everyCore, .alone, .oneCore, .everyCore, .alone, .warehouseWriter, .oneCore] {
            graph.add(StageNode(name: "\(demand)", demand: demand) { "" })
        }
        #expect(Executor.lanes(graph) == [[0, 3], [1], [2, 6], [4], [5]])
    }

    @Test func aGraphWaitingForItselfIsFound() {
        var graph = StageGraph<String>()
        graph.add(StageNode(name: "a", reads: [.step("b")], produces: [.step("a")], demand: .alone) { "" })
        graph.add(StageNode(name: "b", reads: [.step("a")], produces: [.step("b")], demand: .alone) { "" })
        #expect(!graph.isAcyclic)
        var chain = StageGraph<String>()
        chain.add(StageNode(name: "b", reads: [.step("a")], produces: [.step("b")], demand: .alone) { "" })
        chain.add(StageNode(name: "a", produces: [.step("a")], demand: .alone) { "" })
        #expect(chain.isAcyclic)
    }
}
