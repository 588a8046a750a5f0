import Foundation
import Testing
import TallyCore
@testable import TallyPipeline

/// Partitions computed in parallel batches: every result consumed once, in
/// the order added, with batches closed by partition count or by rows.
@Suite("PartitionBatches")
struct PartitionBatchesTests {
    /// A partition of `rows` rows whose result is its index.
    struct Part: Sendable {
        let index: Int
        let rows: Int
    }

    private func run(_ parts: [Part], batchSize: Int, rowsPerBatch: Int) throws -> (consumed: [Int], sizes: [Int]) {
        var consumed: [Int] = []
        let batches = PartitionBatches<Part, Int>(batchSize: batchSize, rowsPerBatch: rowsPerBatch, rows: \.rows,
                                                  compute: { $0.index * 10 }, consume: { consumed.append($0) })
        for part in parts { try batches.add(part) }
        try batches.flush()
        return (consumed, batches.batchSizes)
    }

    @Test("a batch closes at its rows: large partitions make short batches, small ones long batches")
    func closesAtRows() throws {
        let rows = [1, 1, 1, 1, 9, 1, 1, 1, 1, 1, 1, 1, 1, 20, 2]
        let parts = rows.enumerated().map { Part(index: $0, rows: $1) }
        let (consumed, sizes) = try run(parts, batchSize: 100, rowsPerBatch: 4)
        #expect(consumed == parts.map { $0.index * 10 })
        // 1+1+1+1 | 9 | 1+1+1+1 | 1+1+1+1 | 20 | 2 (the last, at flush)
        #expect(sizes == [4, 1, 4, 4, 1, 1])
    }

    @Test("a batch closes at its partition count whatever its rows")
    func closesAtCount() throws {
        let parts = (0..<10).map { Part(index: $0, rows: 0) }
        let (consumed, sizes) = try run(parts, batchSize: 3, rowsPerBatch: 1 << 16)
        #expect(consumed == parts.map { $0.index * 10 })
        #expect(sizes == [3, 3, 3, 1])
    }

    @Test("any sizes give every result once, in order", arguments: [1, 2, 5, 64])
    func anySizes(rowsPerBatch: Int) throws {
        var random = SplitMix64(seed: UInt64(rowsPerBatch))
        let parts = (0..<500).map { Part(index: $0, rows: Int(random.next() % 7)) }
        let (consumed, sizes) = try run(parts, batchSize: 17, rowsPerBatch: rowsPerBatch)
        #expect(consumed == parts.map { $0.index * 10 })
        #expect(sizes.reduce(0, +) == parts.count)
        #expect(sizes.allSatisfy { $0 >= 1 && $0 <= 17 })
    }
}
