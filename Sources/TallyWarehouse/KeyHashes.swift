/// Finds keys that may repeat among many rows without keeping the keys or
/// sorting them in SQLite: remembers a 64-bit hash of each key with the rowid
/// of its row (16 bytes a row), then sorts those pairs in memory. Rows whose
/// hashes collide are candidates only; the caller compares their stored keys.
///
/// Hashing and sorting 16-byte pairs take a fraction of the time of
/// `GROUP BY id HAVING count(*) > 1`, which has SQLite sort the keys themselves.
struct KeyHashes {
    private var entries: [(hash: Int, rowid: Int64)] = []

    /// Remembers `key` (its UTF-8 bytes) as the key of row `rowid`.
    mutating func add(_ key: String, rowid: Int64) {
        var key = key
        entries.append((key.withUTF8 { KeyHashes.hash(UnsafeRawBufferPointer($0)) }, rowid))
    }

    /// Remembers the key bytes `key` as the key of row `rowid`.
    mutating func add(bytes key: UnsafeRawBufferPointer, rowid: Int64) {
        entries.append((KeyHashes.hash(key), rowid))
    }

    /// Remembers a key by its hash (``hash(_:)``) as the key of row `rowid`.
    mutating func add(hash: Int, rowid: Int64) {
        entries.append((hash, rowid))
    }

    /// How many rows were added.
    var count: Int { entries.count }

    /// The rows whose key hash is shared with another row: one group per hash,
    /// rowids ascending in each group, groups in no particular order.
    mutating func collisions() -> [[Int64]] {
        if entries.count < Self.radixThreshold {
            entries.sort { ($0.hash, $0.rowid) < ($1.hash, $1.rowid) }
        } else {
            Self.radixSortByHash(&entries)
        }
        var groups: [[Int64]] = []
        var start = 0
        while start < entries.count {
            var end = start + 1
            while end < entries.count, entries[end].hash == entries[start].hash { end += 1 }
            if end - start > 1 { groups.append(entries[start..<end].map(\.rowid).sorted()) }
            start = end
        }
        return groups
    }

    /// From how many rows the pairs are sorted by radix rather than compared:
    /// below it, the counting tables would cost more than the comparisons.
    static let radixThreshold = 4096

    /// Sorts `entries` by the bits of their hash, 16 at a time from the
    /// lowest (four stable counting passes, through a scratch copy): linear in
    /// the rows, where a comparison sort of millions of pairs is not. Equal
    /// hashes end up together, which is all ``collisions()`` needs.
    static func radixSortByHash(_ entries: inout [(hash: Int, rowid: Int64)]) {
        var scratch = entries
        var counts = [Int](repeating: 0, count: 1 << 16)
        entries.withUnsafeMutableBufferPointer { original in
            scratch.withUnsafeMutableBufferPointer { copy in
                counts.withUnsafeMutableBufferPointer { counts in
                    var source = original, target = copy
                    for pass in 0..<4 {
                        let shift = UInt64(16 * pass)
                        func digit(_ hash: Int) -> Int { Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(hash)) >> shift) & 0xFFFF) }
                        counts.update(repeating: 0)
                        for entry in source { counts[digit(entry.hash)] += 1 }
                        var offset = 0
                        for d in counts.indices {
                            let count = counts[d]
                            counts[d] = offset
                            offset += count
                        }
                        for entry in source {
                            let d = digit(entry.hash)
                            target[counts[d]] = entry
                            counts[d] += 1
                        }
                        swap(&source, &target)   // after the fourth pass the sorted pairs are back in `original`
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
