/// A forward-only stream of bytes: a file, or the decompressed content of one.
public protocol ByteSource {
    /// Copies up to `buffer.count` next bytes into `buffer` and returns how many
    /// it copied; 0 means the end of the stream (and only then).
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ReaderError) -> Int

    /// Bytes taken from the underlying file so far (compressed bytes for a
    /// compressed source), for progress display.
    var bytesConsumed: Int64 { get }
}
