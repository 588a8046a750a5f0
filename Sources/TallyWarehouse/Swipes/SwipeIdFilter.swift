import GRDB

/// A Bloom filter of swipe ids, to find repeated ids without sorting every
/// swipe: one generation of ``SwipeIdFilters``, the filter of the ids
/// loaded so far.
///
/// A repeated swipe id is rare (a re-sent export row), but finding them with
/// SQL means sorting every id of a month (10M at medium). The filter
/// answers "maybe seen" for every repeat and for a small share of new ids
/// (false positives, a fraction of a percent at the sizing below); those ids
/// become candidates whose rows are then compared exactly in SQL, so the
/// result is exact.
///
/// Blocked: all probes of an id fall in one 512-bit block (one cache line),
/// so an insert costs one cache miss instead of one per probe, on every
/// row of a swipes load. Memory is 16 bits per expected id,
/// at least 16 MiB and at most 128 MiB (past ~64M ids the false-positive
/// rate rises; correctness never depends on it). Written by hand: the package
/// mirror has no Bloom filter.
struct SwipeIdFilter {
    private var words: [UInt64]
    private let blockMask: UInt64
    private static let probes: UInt64 = 8

    /// A filter sized for about `expected` ids.
    init(expected: Int) {
        self.init(words: Array(repeating: 0, count: Self.bits(expected: expected) / 64))
    }

    private init(words: [UInt64]) {
        self.words = words
        blockMask = UInt64(words.count * 64 / 512 - 1)
    }

    /// The bits of a filter sized for about `expected` ids: a power of two.
    static func bits(expected: Int) -> Int {
        let wanted = max(expected, 1) * 16
        var bits = 1 << 27
        while bits < wanted && bits < 1 << 30 { bits <<= 1 }
        return bits
    }

    // MARK: - Kept in the warehouse

    /// The version of the filter's layout: which bits an id sets (``ByteHash``,
    /// the block and the probes). A stored filter of another layout is
    /// never used, so this changes with any of them; a filter that misses
    /// an id it was given would let a repeated swipe count twice.
    static let layout: Int64 = 1

    /// v19: the filter kept between ingests (one row), so that an ingest of
    /// a month's swipes need not hash every id already stored again.
    static func createTable(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE swipe_id_filter (
                id INTEGER PRIMARY KEY CHECK (id = 1), layout INTEGER NOT NULL, bits BLOB NOT NULL
            )
            """)
    }

    /// The filter of a stored blob, when it has a filter's shape.
    init?(blob: UnsafeRawBufferPointer) {
        guard blob.count % 64 == 0, blob.count > 0, (blob.count * 8).nonzeroBitCount == 1 else { return nil }
        var words = [UInt64](repeating: 0, count: blob.count / 8)
        words.withUnsafeMutableBytes { $0.copyMemory(from: blob) }
        self.init(words: words)
    }

    /// The filter's bits, for storing.
    func withBits<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try words.withUnsafeBytes(body)
    }

    /// How many ids the filter holds at the false-positive rate it is sized for.
    var capacity: Int { words.count * 64 / 16 }

    /// Whether the id whose ``ByteHash`` is `hash` may have been added (sets nothing).
    func contains(hash: UInt64) -> Bool {
        let block = Int((hash >> 32) & blockMask) * 8
        var bits = (hash ^ (hash >> 29)) &* 0x9e37_79b9_7f4a_7c15
        return words.withUnsafeBufferPointer { words in
            for _ in 0..<Self.probes {
                let bit = Int(bits & 511)
                bits = (bits >> 9) | (bits << 55)
                if words[block + bit >> 6] & (UInt64(1) << UInt64(bit & 63)) == 0 { return false }
            }
            return true
        }
    }

    /// Adds `bytes`; returns true when they may have been added before.
    mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        insert(hash: ByteHash.of(bytes))
    }

    /// Loads the block of an id whose ``ByteHash`` is `hash` (to warm the
    /// cache before a batch of inserts); returns what it read.
    func touchBlock(_ hash: UInt64) -> UInt64 {
        let word = Int((hash >> 32) & blockMask) * 8
        return words.withUnsafeBufferPointer { $0[word] }
    }

    /// ``insert(_:)`` for an id whose ``ByteHash`` is `hash`.
    mutating func insert(hash: UInt64) -> Bool {
        let block = Int((hash >> 32) & blockMask) * 8
        // The probes take their bits from a remix, not from the block's bits.
        var bits = (hash ^ (hash >> 29)) &* 0x9e37_79b9_7f4a_7c15
        var seen = true
        words.withUnsafeMutableBufferPointer { words in
            for _ in 0..<Self.probes {
                // Nine bits per probe pick one of the block's 512 bits.
                let bit = Int(bits & 511)
                bits = (bits >> 9) | (bits << 55)
                let word = block + bit >> 6, flag = UInt64(1) << UInt64(bit & 63)
                if words[word] & flag == 0 {
                    seen = false
                    words[word] |= flag
                }
            }
        }
        return seen
    }
}
