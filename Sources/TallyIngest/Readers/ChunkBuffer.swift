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
    private var source: any ByteSource

    /// Bytes read and not yet consumed.
    var available: Int { end - start }
    /// The first unconsumed byte.
    var current: UnsafeMutablePointer<UInt8> { base + start }
    /// Bytes taken from the underlying file so far.
    var bytesConsumed: Int64 { source.bytesConsumed }

    init(source: any ByteSource, chunkSize: Int) {
        self.source = source
        self.chunkSize = max(chunkSize, 1)
        capacity = 2 * self.chunkSize
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deallocate()
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
            let newCapacity = max(2 * capacity, end + chunkSize)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            grown.update(from: base, count: end)
            base.deallocate()
            base = grown
            capacity = newCapacity
        }
        let got = try source.read(into: UnsafeMutableRawBufferPointer(start: base + end, count: chunkSize))
        if got == 0 {
            isAtEnd = true
        } else {
            end += got
        }
    }

    /// Marks `count` bytes from ``start`` as consumed.
    @inline(__always)
    func consume(_ count: Int) {
        start += count
    }
}
