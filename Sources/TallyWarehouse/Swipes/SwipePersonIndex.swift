import Foundation

/// The users named by swipes, each given a small integer once.
///
/// A swipe row stores two user ids; as integers they make the row ~50 bytes
/// shorter and let the match pass sort integers instead of text (FypMatch's
/// Firestore uids are 28 bytes). Lookups hash the field's bytes in place:
/// there are 20M of them per month at medium scale, and making a String or
/// probing a `Dictionary` per lookup would be a large share of the swipes load.
/// Hand-written for that reason: an open-addressing table over a byte arena.
/// Memory grows with users, not with swipes.
struct SwipePersonIndex {
    /// Every name's bytes, one after the other; name n spans `ends[n-1]..<ends[n]`.
    private var arena: [UInt8] = []
    private var ends: [Int] = [0]
    /// By hash slot: the person's number in the low 32 bits (0: empty) and
    /// the high 32 bits of the name's hash above them, so a probe that
    /// misses touches only this array (with the hashes kept apart, a probe
    /// would cost a cache miss more per slot looked at). The count
    /// of slots is a power of two.
    private var slots: [UInt64] = Array(repeating: 0, count: 1024)
    /// The first number not yet handed out to the warehouse (see ``takeAdded()``).
    private var firstUnstored = 1

    init() {}

    var count: Int { ends.count - 1 }

    /// Adds a person already stored in the warehouse as number `id`; people
    /// must be restored in number order (1, 2, …).
    mutating func restore(id: Int64, name: String) {
        var copy = name
        let added = copy.withUTF8 { number($0) }
        precondition(added == id, "swipe_person numbers are not dense: \(id) restored as \(added)")
        firstUnstored = count + 1
    }

    /// The number of the user whose id is `bytes`, adding it when new.
    mutating func number(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64 {
        number(bytes, hash: ByteHash.of(bytes))
    }

    /// ``number(_:)`` for bytes whose ``ByteHash`` is `hash`.
    mutating func number(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int64 {
        let fingerprint = hash & 0xffff_ffff_0000_0000
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { break }
            if entry & 0xffff_ffff_0000_0000 == fingerprint {
                let n = Int(entry & 0xffff_ffff)
                if equals(n, bytes) { return Int64(n) }
            }
            slot = (slot + 1) & mask
        }
        arena.append(contentsOf: bytes)
        ends.append(arena.count)
        slots[slot] = fingerprint | UInt64(count)
        if count * 2 > slots.count { grow() }
        return Int64(count)
    }

    /// Loads the first slot `hash` probes (to warm the cache before a
    /// batch of lookups, ``SwipeStager/seal(_:)``); returns what it read.
    func touchSlot(_ hash: UInt64) -> UInt64 {
        slots.withUnsafeBufferPointer { $0[Int(truncatingIfNeeded: hash) & ($0.count - 1)] }
    }

    /// Loads the name of the person in the first slot `hash` probes, when
    /// its fingerprint matches (see ``touchSlot(_:)``).
    func touchName(_ hash: UInt64) -> UInt64 {
        let entry = touchSlot(hash)
        guard entry != 0, entry & 0xffff_ffff_0000_0000 == hash & 0xffff_ffff_0000_0000 else { return 0 }
        let n = Int(entry & 0xffff_ffff)
        return ends.withUnsafeBufferPointer { ends in
            arena.withUnsafeBufferPointer { arena in ends[n - 1] < arena.count ? UInt64(arena[ends[n - 1]]) : 0 }
        }
    }

    private func equals(_ n: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = ends[n - 1], count = ends[n] - start
        guard count == bytes.count else { return false }
        guard count > 0, let other = bytes.baseAddress else { return true }
        return arena.withUnsafeBufferPointer { memcmp($0.baseAddress! + start, other, count) == 0 }
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        let mask = slots.count - 1
        for entry in old where entry != 0 {
            let n = Int(entry & 0xffff_ffff)
            let hash = arena.withUnsafeBufferPointer { ByteHash.of(UnsafeBufferPointer(rebasing: $0[ends[n - 1]..<ends[n]])) }
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = entry
        }
    }

    /// The people added since the last call (number and name), to insert into `swipe_person`.
    mutating func takeAdded() -> [(Int64, String)] {
        guard firstUnstored <= count else { return [] }
        defer { firstUnstored = count + 1 }
        return (firstUnstored...count).map { n in
            (Int64(n), String(decoding: arena[ends[n - 1]..<ends[n]], as: UTF8.self))
        }
    }
}
