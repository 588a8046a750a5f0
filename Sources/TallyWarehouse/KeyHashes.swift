import GRDB

/// Finds keys that may repeat among many rows without keeping the keys or
/// sorting them in SQLite: remembers a 64-bit hash of each key with the rowid
/// of its row (16 bytes a row), then sorts those pairs in memory. Rows whose
/// hashes collide are candidates only; the caller compares their stored keys.
///
/// Hashing and sorting 16-byte pairs take a fraction of the time of
/// `GROUP BY id HAVING count(*) > 1`, which has SQLite sort the keys themselves.
///
/// After an ingest that only appended rows, a derivation needs only the
/// groups that an appended row joins: ``KeyHashRuns`` keeps the pairs of
/// the rows derived before, so that only the appended rows are hashed.
struct KeyHashes {
    private var entries: [(hash: Int, rowid: Int64)] = []

    init() {}

    /// Remembers `key` (its UTF-8 bytes) as the key of row `rowid`.
    mutating func add(_ key: String, rowid: Int64) {
        var key = key
        add(hash: key.withUTF8 { KeyHashes.hash(UnsafeRawBufferPointer($0)) }, rowid: rowid)
    }

    /// Remembers the key bytes `key` as the key of row `rowid`.
    mutating func add(bytes key: UnsafeRawBufferPointer, rowid: Int64) {
        add(hash: KeyHashes.hash(key), rowid: rowid)
    }

    /// Remembers a key by its hash (``hash(_:)``) as the key of row `rowid`.
    mutating func add(hash: Int, rowid: Int64) {
        entries.append((hash, rowid))
        isSorted = false
    }

    /// Whether `entries` are in ``sortedPairs()``'s order.
    private var isSorted = true

    /// The pairs added, sorted by hash (its bits read as unsigned), then rowid.
    mutating func sortedPairs() -> [(hash: Int, rowid: Int64)] {
        sort()
        return entries
    }

    private mutating func sort() {
        guard !isSorted else { return }
        if entries.count < Self.radixThreshold {
            entries.sort { (UInt(bitPattern: $0.hash), $0.rowid) < (UInt(bitPattern: $1.hash), $1.rowid) }
        } else {
            Self.radixSortByHash(&entries)
        }
        isSorted = true
    }

    /// How many rows were added.
    var count: Int { entries.count }

    /// The rows whose key hash is shared with another row: one group per hash,
    /// rowids ascending in each group, groups in no particular order.
    mutating func collisions() -> [[Int64]] {
        sort()
        var groups: [[Int64]] = []
        var start = 0
        while start < entries.count {
            var end = start + 1
            while end < entries.count, entries[end].hash == entries[start].hash { end += 1 }
            if end - start > 1 { groups.append(entries[start..<end].map(\.rowid)) }
            start = end
        }
        return groups
    }

    /// From how many rows the pairs are first put in buckets by the top bits
    /// of their hash: below it, the bucket tables would cost more than the comparisons.
    static let radixThreshold = 4096

    /// Sorts `entries` by hash (its bits read as unsigned), then rowid, in place: one pass moves each
    /// pair into its bucket of the hash's top 16 bits (an American flag
    /// sort: counts, then cycles of swaps), then each bucket, a few pairs
    /// for hashes spread as they are, is sorted on its own. Linear in the
    /// rows where a comparison sort of millions of pairs is not, and no
    /// second copy of them. A bucket of many equal hashes (a key repeated on
    /// many rows) goes through the standard sort.
    static func radixSortByHash(_ entries: inout [(hash: Int, rowid: Int64)]) {
        let buckets = 1 << 16
        func bucket(_ hash: Int) -> Int { Int(truncatingIfNeeded: UInt64(bitPattern: Int64(hash)) >> 48) }
        var next = [Int](repeating: 0, count: buckets + 1)
        entries.withUnsafeMutableBufferPointer { pairs in
            next.withUnsafeMutableBufferPointer { next in
                for pair in pairs { next[bucket(pair.hash) + 1] += 1 }
                for b in 0..<buckets { next[b + 1] += next[b] }
                // next[b] is where bucket b's next pair goes; bucket b ends where b + 1 starts.
                let ends = Array(next[1...])
                for b in 0..<buckets {
                    while next[b] < ends[b] {
                        var pair = pairs[next[b]]
                        var home = bucket(pair.hash)
                        while home != b {
                            swap(&pair, &pairs[next[home]])
                            next[home] += 1
                            home = bucket(pair.hash)
                        }
                        pairs[next[b]] = pair
                        next[b] += 1
                    }
                }
                var start = 0
                for b in 0..<buckets {
                    let end = ends[b]
                    defer { start = end }
                    guard end - start > 1 else { continue }
                    var run = UnsafeMutableBufferPointer(rebasing: pairs[start..<end])
                    if run.count > 32 {
                        run.sort { ($0.hash, $0.rowid) < ($1.hash, $1.rowid) }
                        continue
                    }
                    for i in 1..<run.count {   // insertion sort: a bucket holds a few pairs
                        let pair = run[i]
                        var j = i
                        while j > 0, (pair.hash, pair.rowid) < (run[j - 1].hash, run[j - 1].rowid) {
                            run[j] = run[j - 1]
                            j -= 1
                        }
                        run[j] = pair
                    }
                }
            }
        }
    }

    /// The hash a key's bytes are remembered by: the same for equal bytes
    /// within one process (seeded per process, as `Hasher` is).
    static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        return hasher.finalize()
    }
}
