import CIsal
import Foundation

/// The decompressed bytes of a gzip file, inflated as they are read.
///
/// Inflates with Intel's ISA-L (`isal_inflate`), not zlib: inflating is the
/// longest part of reading a gzip input, and ISA-L does it in about half
/// zlib's time (figures in docs/performance.md).
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
    /// ISA-L's state (~10 KB of Huffman tables), on the heap: it must not move.
    private let state: UnsafeMutablePointer<inflate_state>
    private let input: UnsafeMutableRawBufferPointer
    private var inputAtEnd = false
    private var memberInProgress = false
    /// A member just ended; the state is reset before more input is inflated.
    private var memberEnded = false
    private var membersDone = 0
    private var finished = false

    /// The compressed file's size and SHA-256 once it was read to its end
    /// with `fingerprinting` on (``FileByteSource/fingerprint``).
    public var fingerprint: (bytes: Int64, sha256: String)? { file.fingerprint }

    /// Opens the gzip file at `url`; with `fingerprinting`, its compressed
    /// bytes are hashed as they are read.
    public init(url: URL, inputChunkSize: Int = FileByteSource.defaultChunkSize, fingerprinting: Bool = false) throws(ReaderError) {
        file = try FileByteSource(url: url, fingerprinting: fingerprinting)
        input = .allocate(byteCount: max(inputChunkSize, 1), alignment: 16)
        state = .allocate(capacity: 1)
        isal_inflate_init(state)
        state.pointee.crc_flag = UInt32(ISAL_GZIP)   // parse each header, check each trailer's CRC-32
    }

    deinit {
        state.deallocate()
        input.deallocate()
    }

    /// Inflates up to `buffer.count` bytes; 0 once every member has been read.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(ReaderError) -> Int {
        guard let out = buffer.baseAddress, buffer.count > 0, !finished else { return 0 }
        let wanted = UInt32(clamping: buffer.count)
        state.pointee.next_out = out.assumingMemoryBound(to: UInt8.self)
        state.pointee.avail_out = wanted
        while true {
            if state.pointee.avail_in == 0 && !inputAtEnd {
                let got = try file.read(into: input)
                if got == 0 {
                    inputAtEnd = true
                } else {
                    state.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    state.pointee.avail_in = UInt32(got)
                }
            }
            let noMoreInput = state.pointee.avail_in == 0 && inputAtEnd
            if noMoreInput && !memberInProgress {
                finished = true
                return Int(wanted - state.pointee.avail_out)
            }
            if memberEnded {
                // Further input is the next member (reset keeps the input and output pointers).
                isal_inflate_reset(state)
                memberEnded = false
            }
            memberInProgress = true
            let outBefore = state.pointee.avail_out
            let status = isal_inflate(state)
            guard status >= 0 else {
                throw ReaderError(.corruptGzip, file: url, reason: "corrupt gzip data in member \(membersDone + 1): \(Self.describe(status))")
            }
            if state.pointee.block_state == ISAL_BLOCK_FINISH {
                memberInProgress = false
                memberEnded = true
                membersDone += 1
            } else if noMoreInput && state.pointee.avail_out == outBefore {
                // Every byte was given and the member still needs more.
                throw ReaderError(.corruptGzip, file: url, reason: "the gzip data is truncated: the file ends inside compressed member \(membersDone + 1)")
            }
            let produced = Int(wanted - state.pointee.avail_out)
            if produced > 0 { return produced }
        }
    }

    /// What an ISA-L error code means, for a reject's reason.
    private static func describe(_ status: Int32) -> String {
        switch status {
        case ISAL_INVALID_BLOCK: return "invalid deflate block"
        case ISAL_INVALID_SYMBOL: return "invalid deflate code"
        case ISAL_INVALID_LOOKBACK: return "invalid back-reference distance"
        case ISAL_INVALID_WRAPPER: return "not a gzip header"
        case ISAL_UNSUPPORTED_METHOD: return "unsupported compression method (not deflate)"
        case ISAL_INCORRECT_CHECKSUM: return "CRC-32 mismatch: the data is damaged"
        default: return "ISA-L inflate status \(status)"
        }
    }
}
