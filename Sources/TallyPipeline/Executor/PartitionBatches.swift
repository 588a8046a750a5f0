import Dispatch

/// Computes partitions (couples, challenges, users) on every core while
/// keeping their order: partitions are gathered into batches as the
/// warehouse streams them; a full batch is computed in the background, in
/// parallel, while the caller consumes the previous batch's results (in the
/// order the partitions came) and goes on reading the next one. Output stays
/// byte-identical to a serial run; memory holds at most three batches (one
/// being gathered, one computed, one consumed).
///
/// A batch closes at `batchSize` partitions or once its partitions hold
/// `rowsPerBatch` rows (as `rows` counts them), whichever comes first, so
/// memory follows rows rather than keys: a few large partitions (a
/// challenge of thousands of check-ins, a couple with years of expenses)
/// make a short batch, many small ones a long batch.
///
/// ```swift
/// let batches = PartitionBatches<ChallengeRows, Board>(rows: { $0.checkins.count },
///                                                      compute: board, consume: write)
/// try reader.forEachChallengeKey { try batches.add($0) }
/// try batches.flush()
/// ```
final class PartitionBatches<Partition: Sendable, Result: Sendable> {
    private let batchSize: Int
    private let rowsPerBatch: Int
    private let rows: (Partition) -> Int
    private let compute: @Sendable (Partition) -> Result
    private let consume: (Result) throws -> Void
    private var pending: [Partition] = []
    private var pendingRows = 0
    /// How many batches were started, and how many partitions each held.
    private(set) var batchSizes: [Int] = []
    /// The batch being computed in the background, consumed when the next one starts (or at ``flush()``).
    private var computing: Batch?

    /// `compute` runs concurrently and must be pure; `consume` runs on the caller's thread, in order.
    init(batchSize: Int = 512, rowsPerBatch: Int = 1 << 15, rows: @escaping (Partition) -> Int = { _ in 1 },
         compute: @escaping @Sendable (Partition) -> Result, consume: @escaping (Result) throws -> Void) {
        precondition(batchSize > 0 && rowsPerBatch > 0, "a batch holds at least one partition")
        self.batchSize = batchSize
        self.rowsPerBatch = rowsPerBatch
        self.rows = rows
        self.compute = compute
        self.consume = consume
        pending.reserveCapacity(batchSize)
    }

    /// A batch still computing when the caller gave up (an error) is waited
    /// for, so no background work outlives the batches.
    deinit { computing?.done.wait() }

    /// Adds a partition; when a batch is full, starts computing it and consumes the previous one.
    func add(_ partition: Partition) throws {
        pendingRows += rows(partition)
        pending.append(partition)
        if pending.count >= batchSize || pendingRows >= rowsPerBatch { try rotate() }
    }

    /// Computes and consumes everything added. Call once at the end.
    func flush() throws {
        if !pending.isEmpty { try rotate() }
        if let last = computing {
            computing = nil
            try consumeAll(last)
        }
    }

    private func rotate() throws {
        let previous = computing
        computing = start()
        if let previous { try consumeAll(previous) }
    }

    /// Starts computing the pending partitions in the background.
    private func start() -> Batch {
        let partitions = pending
        pending.removeAll(keepingCapacity: true)
        pendingRows = 0
        let batch = Batch(count: partitions.count)
        batchSizes.append(partitions.count)
        let compute = self.compute
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: partitions.count) { i in
                batch.slots[i] = compute(partitions[i])
            }
            batch.done.signal()
        }
        return batch
    }

    /// Waits for `batch` and consumes its results in order.
    private func consumeAll(_ batch: Batch) throws {
        batch.done.wait()
        for i in 0..<batch.slots.count {
            let result = batch.slots[i]!
            batch.slots[i] = nil
            try consume(result)
        }
    }

    /// One batch's results, a slot per partition. Each slot is written by one
    /// iteration of the computation and read only after `done` is signalled.
    private final class Batch: @unchecked Sendable {   // one writer per slot, read after `done` (a semaphore orders them)
        let slots: UnsafeMutableBufferPointer<Result?>
        let done = DispatchSemaphore(value: 0)

        init(count: Int) {
            slots = .allocate(capacity: count)
            slots.initialize(repeating: nil)
        }

        deinit {
            slots.deinitialize()
            slots.deallocate()
        }
    }
}
