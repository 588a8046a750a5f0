import CGzip
import Foundation

/// The decompressed bytes of a gzip file, inflated with zlib as they are read.
///
/// Handles multi-member files (concatenated gzip streams, as `cat a.gz b.gz`
/// makes) and checks each member's CRC. Corrupt data, or a file that ends in
/// the middle of a member, throws a ``ReaderError`` of kind `.corruptGzip`
/// naming the file. A file of zero bytes holds no member and reads as empty.
public final class GzipByteSource: ByteSource {
    /// The compressed file.
    public var url: URL { file.url }
    /// Compressed bytes read from the file so far.
    public var bytesConsumed: Int64 { file.bytesConsumed }

    private let file: FileByteSource
    private let stream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutableRawBufferPointer
    private var inputAtEnd = false
    private var memberInProgress = false
    private var membersDone = 0
    private var finished = false

    /// Opens the gzip file at `url`.
    public init(url: URL, inputChunkSize: Int = FileByteSource.defaultChunkSize) throws(ReaderError) {
        file = try FileByteSource(url: url)
        input = .allocate(byteCount: max(inputChunkSize, 1), alignment: 16)
        // zlib keeps a pointer back to the stream, so it must not move: heap.
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // 15 + 32: the largest window, and a gzip or zlib header detected.
        let status = inflateInit2_(stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            input.deallocate()
            throw ReaderError(.corruptGzip, file: url, reason: "cannot start gzip decompression (zlib status \(status))")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        input.deallocate()
    }

    /// Inflates up to `buffer.count` bytes; 0 once every member has been read.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(ReaderError) -> Int {
        guard let out = buffer.baseAddress, buffer.count > 0, !finished else { return 0 }
        let wanted = UInt32(clamping: buffer.count)
        stream.pointee.next_out = out.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = wanted
        while true {
            if stream.pointee.avail_in == 0 && !inputAtEnd {
                let got = try file.read(into: input)
                if got == 0 {
                    inputAtEnd = true
                } else {
                    stream.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
                    stream.pointee.avail_in = UInt32(got)
                }
            }
            if stream.pointee.avail_in == 0 && inputAtEnd {
                if memberInProgress {
                    throw ReaderError(.corruptGzip, file: url, reason: "the gzip data is truncated: the file ends inside compressed member \(membersDone + 1)")
                }
                finished = true
                return Int(wanted - stream.pointee.avail_out)
            }
            memberInProgress = true
            let status = inflate(stream, Z_NO_FLUSH)
            switch status {
            case Z_OK, Z_BUF_ERROR:
                break
            case Z_STREAM_END:
                memberInProgress = false
                membersDone += 1
                // Further input, if any, is the next member.
                inflateReset(stream)
            default:
                let detail = stream.pointee.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                throw ReaderError(.corruptGzip, file: url, reason: "corrupt gzip data in member \(membersDone + 1): \(detail)")
            }
            let produced = Int(wanted - stream.pointee.avail_out)
            if produced > 0 { return produced }
        }
    }
}
