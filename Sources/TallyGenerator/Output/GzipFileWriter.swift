import CGzip
import Foundation

/// Writes a gzip file (RFC 1952) through zlib: `deflateInit2` with window bits
/// 31 asks zlib for the gzip wrapper, whose default header has modification
/// time 0 and no file name, so the same input always gives the same bytes.
final class GzipFileWriter: ByteSink {
    private let file: FileByteSink
    private var stream = z_stream()
    private var output = [UInt8](repeating: 0, count: 1 << 18)
    private var closed = false

    /// A gzip file at `url`; `level` is zlib's 1 (fastest) … 9 (smallest).
    init(url: URL, level: Int32 = 6) throws {
        file = try FileByteSink(url: url)
        let status = deflateInit2_(&stream, level, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY,
                                   ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw GeneratorError("zlib deflateInit2 failed (\(status)) for \(url.path)") }
    }

    deinit {
        if !closed { deflateEnd(&stream) }
    }

    func write(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        try bytes.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            try pump(flush: Z_NO_FLUSH)
        }
        stream.next_in = nil
    }

    func close() throws -> Int64 {
        guard !closed else { throw GeneratorError("gzip stream closed twice") }
        stream.next_in = nil
        stream.avail_in = 0
        try pump(flush: Z_FINISH)
        deflateEnd(&stream)
        closed = true
        return try file.close()
    }

    /// Runs deflate until it has consumed the input (or, with Z_FINISH, ended the stream).
    private func pump(flush: Int32) throws {
        while true {
            let (status, produced) = output.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                let status = deflate(&stream, flush)
                return (status, out.count - Int(stream.avail_out))
            }
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw GeneratorError("zlib deflate failed (\(status))")
            }
            if produced > 0 { try file.write(Array(output[0..<produced])) }
            if flush == Z_FINISH {
                if status == Z_STREAM_END { return }
            } else if stream.avail_in == 0 && produced < output.count {
                return
            }
        }
    }
}
