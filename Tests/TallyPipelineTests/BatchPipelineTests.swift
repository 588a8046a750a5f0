import Foundation
import Testing
@testable import TallyPipeline

@Suite("BatchPipeline: reading on one thread, storing on another")
struct BatchPipelineTests {
    struct Boom: Error, Equatable { var at: Int }

    @Test func batchesArriveInOrderAndAllOfThem() throws {
        var seen: [Int] = []
        try BatchPipeline.run(depth: 2, produce: { emit in
            for i in 0..<10_000 { try emit(i) }
        }, consume: { seen.append($0) })
        #expect(seen == Array(0..<10_000))
    }

    @Test func aConsumerTakingEveryWaitingBatchGetsThemAllInOrderAtMostDepthAtATime() throws {
        var seen: [Int] = []
        var largest = 0
        try BatchPipeline.run(depth: 8, produce: { emit in
            for i in 0..<10_000 { try emit(i) }
        }, consumeWaiting: { batches in
            #expect(!batches.isEmpty)
            largest = max(largest, batches.count)
            // A slow first call: the producer fills the queue meanwhile.
            if seen.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
            seen += batches
        })
        #expect(seen == Array(0..<10_000))
        #expect(largest > 1 && largest <= 8)
    }

    @Test func aProducerFailureComesAfterTheBatchesMadeBeforeIt() {
        var seen: [Int] = []
        #expect(throws: Boom(at: 50)) {
            try BatchPipeline.run(depth: 3, produce: { emit in
                for i in 0..<50 { try emit(i) }
                throw Boom(at: 50)
            }, consume: { seen.append($0) })
        }
        #expect(seen == Array(0..<50))
    }

    @Test func aConsumerFailureStopsTheProducer() {
        let produced = Counter()
        #expect(throws: Boom(at: 5)) {
            try BatchPipeline.run(depth: 2, produce: { emit in
                for i in 0..<1_000_000 {
                    try emit(i)
                    produced.add()
                }
            }, consume: { if $0 == 5 { throw Boom(at: 5) } })
        }
        // The producer ran at most a few batches ahead, and has stopped.
        let stopped = produced.value
        #expect(stopped < 20)
        Thread.sleep(forTimeInterval: 0.05)
        #expect(produced.value == stopped)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.lock(); count += 1; lock.unlock() }
        var value: Int { lock.lock(); defer { lock.unlock() }; return count }
    }
}
