import Testing
@testable import TallyWarehouse

@Suite("Key hashes: rows whose keys may repeat")
struct KeyHashesTests {
    /// The groups by hash of every size of input, found with a dictionary.
    static func expected(_ pairs: [(hash: Int, rowid: Int64)]) -> Set<[Int64]> {
        Set(Dictionary(grouping: pairs, by: \.hash).values.filter { $0.count > 1 }.map { $0.map(\.rowid).sorted() })
    }

    @Test("the pairs sort by the hash unsigned, and collisions are the groups of rows sharing a hash, rowids ascending, below and above the radix threshold")
    func collisionsMatchGrouping() {
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 2, 100, KeyHashes.radixThreshold - 1, KeyHashes.radixThreshold, 50_000] {
            // Hashes from a small range collide often; some differ only in their high bits; rowids come in any order.
            var pairs: [(hash: Int, rowid: Int64)] = []
            for i in 0..<count {
                let hash: Int
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: hash = Int.random(in: -50...50, using: &generator)
                case 1: hash = Int.random(in: 0..<4, using: &generator) << 60 | 7
                default: hash = Int.random(in: .min ... .max, using: &generator)
                }
                pairs.append((hash, Int64(i)))
            }
            pairs.shuffle(using: &generator)
            var hashes = KeyHashes()
            for pair in pairs { hashes.add(hash: pair.hash, rowid: pair.rowid) }
            let sorted = hashes.sortedPairs()
            #expect(sorted.map(\.rowid).sorted() == pairs.map(\.rowid).sorted())
            #expect(zip(sorted, sorted.dropFirst()).allSatisfy { a, b in
                (UInt(bitPattern: a.hash), a.rowid) < (UInt(bitPattern: b.hash), b.rowid)
            }, "sorted by the hash's bits unsigned, then rowid: \(count) rows")
            let groups = hashes.collisions()
            #expect(groups.allSatisfy { $0 == $0.sorted() })
            #expect(Set(groups) == Self.expected(pairs), "\(count) rows")
            #expect(groups.count == Set(groups).count)
        }
    }
}
