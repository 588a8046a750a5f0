import Foundation

/// The window of a byte source that a reader is working on: bytes
/// `base[start..<end]` have been read and not yet consumed. ``fill()`` moves
/// them to the front and appends the next chunk, so positions a parser keeps
/// relative to `start` stay valid across fills.
///
/// Memory stays bounded by the longest partial record kept plus one chunk.
final class ChunkBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// The first byte not yet consumed.
    private(set) var start = 0
    /// The end of the bytes read so far.
    private(set) var end = 0
    /// Whether the source has reported its end.
    private(set) var isAtEnd = false
    /// The size of each read.
    let chunkSize: Int
    /// The capacity that growth by doubling stops at (more is allocated only
    /// when the bytes kept need it).
    let capacityLimit: Int
    private var source: any ByteSource

    /// Bytes read and not yet consumed.
    var available: Int { end - start }
    /// The first unconsumed byte.
    var current: UnsafeMutablePointer<UInt8> { base + start }
    /// Bytes taken from the underlying file so far.
    var bytesConsumed: Int64 { source.bytesConsumed }

    /// - Parameter keepLimit: the most bytes a caller keeps unconsumed (its
    ///   record size limit), to bound growth.
    init(source: any ByteSource, chunkSize: Int, keepLimit: Int) {
        self.source = source
        self.chunkSize = max(chunkSize, 1)
        capacity = 2 * self.chunkSize
        capacityLimit = keepLimit + 2 * self.chunkSize
        base = Self.reallocate(nil, capacity)
    }

    deinit {
        free(base)
    }

    /// `realloc`, which can grow a large block in place (no copy, no second
    /// block alive at once).
    private static func reallocate(_ block: UnsafeMutablePointer<UInt8>?, _ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        guard let raw = realloc(block, capacity) else { fatalError("out of memory for a \(capacity)-byte read buffer") }
        return raw.assumingMemoryBound(to: UInt8.self)
    }

    /// Moves the unconsumed bytes to the front and reads one more chunk after
    /// them, growing the buffer when it lacks room; at the end of the source it
    /// only sets ``isAtEnd``.
    func fill() throws(ReaderError) {
        guard !isAtEnd else { return }
        let live = end - start
        if start > 0 {
            if live > 0 { memmove(base, base + start, live) }
            start = 0
            end = live
        }
        if capacity - end < chunkSize {
            resize(to: max(end + chunkSize, min(2 * capacity, capacityLimit)))
        } else if capacity > 4 * chunkSize && end < chunkSize {
            // A long record has gone: give its room back.
            resize(to: 2 * chunkSize)
        }
        let got = try source.read(into: UnsafeMutableRawBufferPointer(start: base + end, count: chunkSize))
        if got == 0 {
            isAtEnd = true
        } else {
            end += got
        }
    }

    private func resize(to newCapacity: Int) {
        base = Self.reallocate(base, newCapacity)
        capacity = newCapacity
    }

    /// Marks `count` bytes from ``start`` as consumed.
    @inline(__always)
    func consume(_ count: Int) {
        start += count
    }
}
