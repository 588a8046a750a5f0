import Dispatch
import Foundation

/// Runs writes one after another, in the order submitted, on a thread of its
/// own: for an output that must see items in order (a workbook's sheets) but
/// need not hold up the thread that produces them. At most `limit` writes
/// wait, so memory stays bounded when the writer is the slower side.
///
/// The first error a write throws is kept and rethrown by the next
/// ``submit(_:)`` or by ``finish()``; writes after it are skipped.
final class OrderedWriter: @unchecked Sendable {   // state behind `lock`; writes run on `queue` only
    private let queue = DispatchQueue(label: "tally.ordered-writer")
    private let room: DispatchSemaphore
    private let lock = NSLock()
    private var failure: Error?

    init(limit: Int = 256) {
        room = DispatchSemaphore(value: limit)
    }

    /// Queues `write`; throws the error of an earlier write, if any.
    func submit(_ write: @escaping @Sendable () throws -> Void) throws {
        if let failure = firstFailure { throw failure }
        room.wait()
        queue.async {
            defer { self.room.signal() }
            guard self.firstFailure == nil else { return }
            do { try write() } catch { self.lock.withLock { if self.failure == nil { self.failure = error } } }
        }
    }

    /// Waits for every queued write; throws the first error one threw.
    func finish() throws {
        waitForAll()
        if let failure = firstFailure { throw failure }
    }

    /// Waits for every queued write, whatever happened (for a caller leaving
    /// early, so that no write outlives it). Not from a write itself.
    func waitForAll() {
        queue.sync {}
    }

    private var firstFailure: Error? { lock.withLock { failure } }
}

/// A value handed from one thread to another and then used by that thread
/// only (a workbook owned by an ``OrderedWriter``'s queue, a file written by
/// a worker and committed by the caller).
struct HandedOver<Value>: @unchecked Sendable {   // used by one thread at a time: the hand-over is ordered by a queue or a semaphore
    let value: Value
}
