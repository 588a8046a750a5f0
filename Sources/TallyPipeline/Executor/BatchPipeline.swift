import Foundation

/// Runs a producer on a thread of its own while the calling thread consumes
/// its batches, in order: reading and decoding a file overlaps with storing
/// it, so a load uses two cores (SQLite takes one writer at a time).
///
/// At most `depth` batches wait between the two, so memory stays bounded by
/// the batch size whatever the file size. When the consumer fails, the
/// producer is stopped at its next batch; when the producer fails, the
/// batches it made before the failure are consumed, then the error is thrown.
/// Either way the producer's thread has ended when `run` returns.
enum BatchPipeline {
    static func run<Batch>(depth: Int = 4,
                           produce: @escaping (_ emit: (Batch) throws -> Void) throws -> Void,
                           consume: (Batch) throws -> Void) throws {
        try run(depth: depth, produce: produce, consumeWaiting: { batches in
            for batch in batches { try consume(batch) }
        })
    }

    /// As ``run(depth:produce:consume:)``, but the consumer takes every batch
    /// waiting at once (at least one, in order): a consumer that must queue
    /// for a shared resource (the warehouse writer, ``WriterLanes``) queues
    /// once for all of them instead of once per batch.
    static func run<Batch>(depth: Int = 4,
                           produce: @escaping (_ emit: (Batch) throws -> Void) throws -> Void,
                           consumeWaiting: ([Batch]) throws -> Void) throws {
        let channel = Channel<Batch>(depth: depth)
        let producer = UncheckedBox(produce)
        let thread = Thread {
            do {
                try producer.value { try channel.put($0) }
                channel.finish(nil)
            } catch {
                channel.finish(error)
            }
        }
        thread.stackSize = 16 << 20
        thread.start()
        do {
            while let batches = try channel.takeAll() { try consumeWaiting(batches) }
        } catch {
            channel.cancel()
            channel.waitUntilFinished()
            throw error
        }
    }
}

/// Hands batches from the producer's thread to the consumer's.
private final class Channel<Batch>: @unchecked Sendable {   // `depth` is immutable; every other field is used with `condition` locked
    private let condition = NSCondition()
    private var queue: [Batch] = []
    private var finished = false
    private var cancelled = false
    private var failure: Error?
    private let depth: Int

    init(depth: Int) { self.depth = depth }

    /// Waits for room, then queues `batch`; throws once the consumer gave up.
    func put(_ batch: Batch) throws {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= depth && !cancelled { condition.wait() }
        if cancelled { throw CancellationError() }
        queue.append(batch)
        condition.broadcast()
    }

    /// Every batch waiting (at least one), in order; nil when the producer
    /// finished and everything was taken.
    func takeAll() throws -> [Batch]? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !finished { condition.wait() }
        if !queue.isEmpty {
            condition.broadcast()
            defer { queue.removeAll(keepingCapacity: true) }
            return queue
        }
        if let failure { throw failure }
        return nil
    }

    func finish(_ error: Error?) {
        condition.lock()
        finished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    func cancel() {
        condition.lock()
        cancelled = true
        queue.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    func waitUntilFinished() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }
}

/// Carries a value that is used by one thread at a time across a thread start.
private struct UncheckedBox<Value>: @unchecked Sendable {   // the producer's thread alone uses it once started
    let value: Value
    init(_ value: Value) { self.value = value }
}
