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
        entries.sort { ($0.hash, $0.rowid) < ($1.hash, $1.rowid) }
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

    /// The hash a key's bytes are remembered by: the same for equal bytes
    /// within one process (seeded per process, as `Hasher` is).
    static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        return hasher.finalize()
    }
}
