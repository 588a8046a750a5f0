import Foundation

/// Runs a ``StageGraph``: decides from each node's declarations what runs
/// beside what, and runs it. The one place where a run's units of work get
/// threads.
///
/// - Nodes of one shared ``Demand`` (the warehouse writer, every core, one
///   core) form a lane: one thread that runs them one at a time, each time
///   the first of its nodes (in graph order) whose inputs are produced.
///   Lanes run beside one another. A node demanding ``Demand/alone`` is a
///   lane of its own.
/// - A node starts only once every node producing what it reads has
///   succeeded; what no node produces is there already.
/// - After each node, the memory it freed goes back to the system
///   (``FreedMemory``), so what one stage leaves free does not add to the
///   next one's peak.
/// - The first node to fail stops the run: no node starts after it, the
///   nodes running finish, and ``run(_:)`` throws its error once every
///   lane's thread has ended.
///
/// The calling thread serves the graph's first lane (the lane of its first
/// node), so memory its earlier work freed (the ingest's) is reused there;
/// every other lane is a thread of its own (16 MiB of stack, as the main
/// thread has). Lanes are threads rather than tasks: their nodes block on SQLite and compute for seconds, and the every-
/// core nodes spread their partitions over Dispatch's pool, which a
/// cooperative pool of as many threads as cores would then starve.
enum Executor {
    /// What a graph's run gave: every node's value, in graph order, and the
    /// order the nodes finished in.
    struct Outcome<Value> {
        var values: [Value]
        var finished: [Int]
    }

    static func run<Value>(_ graph: StageGraph<Value>) throws -> Outcome<Value> {
        precondition(graph.isAcyclic, "a stage graph waits for itself")
        guard !graph.nodes.isEmpty else { return Outcome(values: [], finished: []) }
        let schedule = Schedule(graph)
        let lanes = lanes(graph)
        for lane in lanes.dropFirst() {
            let thread = Thread { schedule.serve(lane) }
            thread.stackSize = 16 << 20
            thread.start()
        }
        schedule.serve(lanes[0])
        return try schedule.outcome()
    }

    /// The lanes: the nodes of each shared demand, in graph order, and each
    /// node that runs alone on a lane of its own.
    static func lanes<Value>(_ graph: StageGraph<Value>) -> [[Int]] {
        var shared: [Demand: Int] = [:]
        var lanes: [[Int]] = []
        for (i, node) in graph.nodes.enumerated() {
            if node.demand != .alone, let lane = shared[node.demand] {
                lanes[lane].append(i)
            } else {
                if node.demand != .alone { shared[node.demand] = lanes.count }
                lanes.append([i])
            }
        }
        return lanes
    }
}

/// A graph's run in progress, shared by its lanes' threads.
///
/// `@unchecked Sendable`: every field but `dependencies` (immutable) is read
/// and written with `condition` locked; a node's body runs once, on the one
/// lane that took it.
///
/// A body is let go once it ran, and every body once the last lane ends:
/// what they hold (a warehouse, files not yet in place) is released before
/// ``outcome()`` returns, not whenever a lane's thread is torn down.
private final class Schedule<Value>: @unchecked Sendable {
    private var bodies: [(([Value]) throws -> Value)?]
    private let dependencies: [[Int]]
    private let condition = NSCondition()
    private var results: [Value?]
    private var finished: [Int] = []
    private var failure: Error?
    private var lanesRunning = 0

    init(_ graph: StageGraph<Value>) {
        bodies = graph.nodes.map(\.body)
        dependencies = graph.dependencies
        results = Array(repeating: nil, count: graph.nodes.count)
        lanesRunning = Executor.lanes(graph).count
    }

    /// Runs `lane`'s nodes (indices, in order of preference) as they become
    /// ready, until all ran or a node failed.
    func serve(_ lane: [Int]) {
        var remaining = lane
        while let (node, body, inputs) = next(&remaining) {
            let result = Result { try body(inputs) }
            FreedMemory.release()
            condition.lock()
            switch result {
            case .success(let value):
                results[node] = value
                finished.append(node)
            case .failure(let error):
                if failure == nil { failure = error }
            }
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        lanesRunning -= 1
        if lanesRunning == 0 { bodies.removeAll() }
        condition.broadcast()
        condition.unlock()
    }

    /// Takes the first of `remaining` whose inputs are produced, waiting
    /// until one is; nil once none remains or a node failed.
    private func next(_ remaining: inout [Int]) -> (Int, ([Value]) throws -> Value, [Value])? {
        condition.lock()
        defer { condition.unlock() }
        while failure == nil, !remaining.isEmpty {
            if let k = remaining.firstIndex(where: { dependencies[$0].allSatisfy { results[$0] != nil } }) {
                let node = remaining.remove(at: k)
                defer { bodies[node] = nil }
                return (node, bodies[node]!, dependencies[node].map { results[$0]! })
            }
            condition.wait()
        }
        return nil
    }

    /// Waits for every lane to end; every node's value, or the first failure.
    func outcome() throws -> Executor.Outcome<Value> {
        condition.lock()
        defer { condition.unlock() }
        while lanesRunning > 0 { condition.wait() }
        if let failure { throw failure }
        return Executor.Outcome(values: results.map { $0! }, finished: finished)
    }
}
