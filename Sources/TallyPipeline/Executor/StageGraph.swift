import TallyWarehouse

/// Something a unit of work reads or produces: a dataset the ingest loaded,
/// a derived table, or an intermediate step of a unit split in parts (a
/// derivation's tail). A product no node of a graph produces is there
/// already (loaded or committed before the graph runs).
enum Product: Hashable, Sendable {
    case dataset(String)
    case derived(DerivedTable)
    case step(String)
}

/// What a unit of work demands of the machine, as it declares it: the
/// executor decides from it what runs beside what (see ``Executor``).
enum Demand: Hashable, Sendable {
    /// Writes the warehouse: SQLite takes one writer, so such work runs one
    /// at a time, on the writer's lane.
    case warehouseWriter
    /// Computes its partitions on every core (``PartitionBatches``): two such
    /// at once would only share the cores, so they run one after the other.
    case everyCore
    /// Computes on one core and only reads: such work runs one after the
    /// other, on a lane beside the every-core work.
    case oneCore
    /// Computes on one core and needs no shared resource (no warehouse, no
    /// lane): it starts as soon as what it reads is ready.
    case alone
}

/// How a report family computes, as it declares it: on every core (its
/// partitions in parallel batches) or on one.
enum CoreUse: Sendable {
    case every
    case one

    var demand: Demand { self == .every ? .everyCore : .oneCore }
}

/// One unit of work: what it reads, what it produces once it succeeds, what
/// it demands, and its body. The body knows nothing of threads: it runs
/// once, on whichever thread the executor gives it, after everything it
/// reads is produced, and is handed the values of the nodes that produced
/// it (in the order of the graph).
struct StageNode<Value> {
    var name: String
    var reads: Set<Product> = []
    var produces: Set<Product> = []
    var demand: Demand
    var body: (_ inputs: [Value]) throws -> Value

    init(name: String, reads: Set<Product> = [], produces: Set<Product> = [], demand: Demand,
         body: @escaping (_ inputs: [Value]) throws -> Value) {
        (self.name, self.reads, self.produces, self.demand, self.body) = (name, reads, produces, demand, body)
    }

    /// A node that needs no value of the nodes it waits for.
    init(name: String, reads: Set<Product> = [], produces: Set<Product> = [], demand: Demand,
         _ body: @escaping () throws -> Value) {
        self.init(name: name, reads: reads, produces: produces, demand: demand, body: { _ in try body() })
    }
}

/// Units of work and what each reads and produces, in the order of
/// preference: among the units of one lane that are ready, the first goes first.
///
/// ```swift
/// var graph = StageGraph<String>()
/// graph.add(StageNode(name: "derive", produces: [.derived(.expenseWinners)], demand: .warehouseWriter) { "derived" })
/// graph.add(StageNode(name: "statements", reads: [.derived(.expenseWinners)], demand: .everyCore) { "written" })
/// let values = try Executor.run(graph).values   // ["derived", "written"]
/// ```
struct StageGraph<Value> {
    private(set) var nodes: [StageNode<Value>] = []

    init() {}

    /// Adds `node`. Each product has one producer; a node may read what a
    /// node added after it produces, as long as no node waits, through
    /// others, for itself (``isAcyclic``, checked by ``Executor/run(_:)``).
    mutating func add(_ node: StageNode<Value>) {
        precondition(nodes.allSatisfy { $0.produces.isDisjoint(with: node.produces) },
                     "\(node.name): a product has one producer")
        nodes.append(node)
    }

    /// The index of the node producing each product of the graph.
    var producers: [Product: Int] {
        var producers: [Product: Int] = [:]
        for (i, node) in nodes.enumerated() { for product in node.produces { producers[product] = i } }
        return producers
    }

    /// The nodes each node waits for (the producers of what it reads).
    var dependencies: [[Int]] {
        let producers = producers
        return nodes.map { node in Array(Set(node.reads.compactMap { producers[$0] })).sorted() }
    }

    /// True when no node waits, directly or not, for itself.
    var isAcyclic: Bool {
        let dependencies = dependencies
        var remaining = dependencies.map(\.count)
        var waiting: [Int: [Int]] = [:]   // producer → the nodes waiting for it
        for (i, deps) in dependencies.enumerated() { for d in deps { waiting[d, default: []].append(i) } }
        var ready = remaining.indices.filter { remaining[$0] == 0 }
        var done = 0
        while let i = ready.popLast() {
            done += 1
            for w in waiting[i] ?? [] {
                remaining[w] -= 1
                if remaining[w] == 0 { ready.append(w) }
            }
        }
        return done == nodes.count
    }
}
