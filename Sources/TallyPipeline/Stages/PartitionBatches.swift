import Dispatch

/// Computes partitions (couples, challenges, users) on every core while
/// keeping their order: partitions are gathered into batches as the
/// warehouse streams them, each batch is computed in parallel, and results
/// are consumed in the order the partitions came. Output stays byte-identical
/// to a serial run; memory holds one batch.
final class PartitionBatches<Partition: Sendable, Result: Sendable> {
    private let batchSize: Int
    private let compute: @Sendable (Partition) -> Result
    private let consume: (Result) throws -> Void
    private var pending: [Partition] = []

    /// `compute` runs concurrently and must be pure; `consume` runs on the caller's thread, in order.
    init(batchSize: Int = 512, compute: @escaping @Sendable (Partition) -> Result, consume: @escaping (Result) throws -> Void) {
        self.batchSize = batchSize
        self.compute = compute
        self.consume = consume
        pending.reserveCapacity(batchSize)
    }

    /// Adds a partition; computes and consumes a batch when it is full.
    func add(_ partition: Partition) throws {
        pending.append(partition)
        if pending.count >= batchSize { try flush() }
    }

    /// Computes and consumes what is pending. Call once at the end.
    func flush() throws {
        guard !pending.isEmpty else { return }
        let batch = pending
        pending.removeAll(keepingCapacity: true)
        let results = UnsafeMutableBufferPointer<Result?>.allocate(capacity: batch.count)
        results.initialize(repeating: nil)
        defer { results.deinitialize(); results.deallocate() }
        nonisolated(unsafe) let slots = results   // each iteration writes only its own slot
        let compute = self.compute
        DispatchQueue.concurrentPerform(iterations: batch.count) { i in
            slots[i] = compute(batch[i])
        }
        for result in results { try consume(result!) }
    }
}
