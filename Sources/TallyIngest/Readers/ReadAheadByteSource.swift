import Foundation

/// Another byte source's bytes, read ahead on a thread of its own into a
/// few buffers, so that producing them (inflating gzip) overlaps with the
/// reader parsing what came before.
///
/// The swipes' reading thread is the longest piece of work of the ingest,
/// and inflating (``GzipByteSource``) a large part of it; when that thread
/// runs alone (a swipes-only run), the other core is otherwise idle.
/// Bytes and errors arrive in the order the source gives them; an
/// error is thrown after every byte read before it. Memory: `depth` buffers
/// of `chunkSize` bytes. A reader that stops early (its value released)
/// stops the thread, which has ended when the value is gone.
public final class ReadAheadByteSource: ByteSource {
    private let ahead: Ahead
    /// The buffer being handed out, and how much of it was.
    private var current: Ahead.Filled?
    private var offset = 0
    private var delivered: Int64 = 0

    /// Bytes the source had taken from its file when the bytes handed out so far were produced.
    public var bytesConsumed: Int64 { delivered }

    /// Starts reading `source` ahead; this object owns it from now on.
    public init(_ source: any ByteSource, chunkSize: Int = FileByteSource.defaultChunkSize, depth: Int = 4) {
        ahead = Ahead(chunkSize: chunkSize, depth: depth)
        let ahead = self.ahead, box = SourceBox(source)
        let thread = Thread { ahead.produce(box.source) }
        thread.stackSize = 1 << 20
        thread.start()
    }

    deinit {
        ahead.stop(returning: current?.buffer)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(ReaderError) -> Int {
        guard buffer.count > 0 else { return 0 }
        if current == nil || offset == current!.count {
            let used = current?.buffer
            current = nil  // given back below, even when next throws
            switch try ahead.next(returning: used) {
            case .bytes(let next):
                current = next
                offset = 0
                delivered = next.consumed
            case .end(let consumed):
                delivered = consumed
                return 0
            }
        }
        let item = current!
        let n = min(buffer.count, item.count - offset)
        buffer.baseAddress!.copyMemory(from: item.buffer.baseAddress! + offset, byteCount: n)
        offset += n
        return n
    }
}

/// The buffers shared by the reading-ahead thread and the reader.
private final class Ahead: @unchecked Sendable {   // the buffer lists and flags are used with `condition` locked; a buffer belongs to one side at a time
    struct Filled {
        var buffer: UnsafeMutableRawBufferPointer
        var count: Int
        /// The source's `bytesConsumed` once this buffer was filled.
        var consumed: Int64
    }

    private let condition = NSCondition()
    private var free: [UnsafeMutableRawBufferPointer]
    private var filled: [Filled] = []
    private var failure: ReaderError?
    private var sourceAtEnd = false
    private var cancelled = false
    private var producerDone = false
    private var endConsumed: Int64 = 0

    init(chunkSize: Int, depth: Int) {
        free = (0..<max(depth, 1)).map { _ in .allocate(byteCount: max(chunkSize, 1), alignment: 16) }
    }

    enum Next {
        case bytes(Filled)
        /// The source's end, and its `bytesConsumed` then.
        case end(Int64)
    }

    /// The reader's next buffer (after giving back `used`), or the end;
    /// throws the source's error once every buffer before it was taken.
    func next(returning used: UnsafeMutableRawBufferPointer?) throws(ReaderError) -> Next {
        condition.lock()
        defer { condition.unlock() }
        if let used {
            free.append(used)
            condition.broadcast()
        }
        while filled.isEmpty && !sourceAtEnd { condition.wait() }
        if !filled.isEmpty { return .bytes(filled.removeFirst()) }
        if let failure { throw failure }
        return .end(endConsumed)
    }

    /// Stops the thread, waits for it to end, and frees every buffer.
    func stop(returning used: UnsafeMutableRawBufferPointer?) {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while !producerDone { condition.wait() }
        condition.unlock()
        used?.deallocate()
        for buffer in free { buffer.deallocate() }
        for item in filled { item.buffer.deallocate() }
        free = []
        filled = []
    }

    /// The thread's loop: fills free buffers from `source` until its end, an error, or ``stop(returning:)``.
    func produce(_ source: any ByteSource) {
        var source = source
        defer {
            condition.lock()
            producerDone = true
            condition.broadcast()
            condition.unlock()
        }
        while true {
            condition.lock()
            while free.isEmpty && !cancelled { condition.wait() }
            if cancelled {
                condition.unlock()
                return
            }
            let buffer = free.removeLast()
            condition.unlock()
            let result = Result { () throws(ReaderError) in try source.read(into: buffer) }
            condition.lock()
            defer {
                condition.broadcast()
                condition.unlock()
            }
            switch result {
            case .success(let count) where count > 0:
                filled.append(Filled(buffer: buffer, count: count, consumed: source.bytesConsumed))
            case .success:
                free.append(buffer)
                endConsumed = source.bytesConsumed
                sourceAtEnd = true
                return
            case .failure(let error):
                free.append(buffer)
                failure = error
                sourceAtEnd = true
                return
            }
        }
    }
}

/// Carries the source to the reading-ahead thread, which alone uses it from then on.
private struct SourceBox: @unchecked Sendable {   // the reading-ahead thread alone uses it once started
    let source: any ByteSource
    init(_ source: any ByteSource) { self.source = source }
}
