import CGzip
import Foundation

/// Writes a zip file (PKWARE APPNOTE, no zip64) the way macOS's Archive
/// Utility re-zips an Apple Health export: the export's bytes deflated as
/// `entryPath`, plus extra stored entries (`__MACOSX/…` resource forks,
/// `.DS_Store`). The export's bytes are gathered in memory (a generated
/// export is small) and the zip is written at ``close()``. Every timestamp is
/// fixed, so the same input gives the same bytes.
final class ZipFileWriter: ByteSink {
    private let file: FileByteSink
    private let entryPath: String
    private let extras: [(path: String, bytes: [UInt8])]
    private var content: [UInt8] = []
    /// 2026-01-01 12:00:00, MS-DOS format.
    private static let dosTime: UInt16 = 12 << 11
    private static let dosDate: UInt16 = UInt16((2026 - 1980) << 9 | 1 << 5 | 1)

    init(url: URL, entryPath: String, extras: [(path: String, bytes: [UInt8])]) throws {
        file = try FileByteSink(url: url)
        self.entryPath = entryPath
        self.extras = extras
    }

    func write(_ bytes: [UInt8]) throws { content += bytes }

    func close() throws -> Int64 {
        var out: [UInt8] = []
        var central: [UInt8] = []
        var count: UInt16 = 0
        let entries: [(String, [UInt8], Bool)] = [(entryPath, content, true)] + extras.map { ($0.path, $0.bytes, false) }
        for (path, bytes, deflate) in entries {
            let data = deflate ? try Self.deflateRaw(bytes) : bytes
            let crc = bytes.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
            let offset = UInt32(out.count)
            let name = Array(path.utf8)
            func header(_ signature: UInt32, central: Bool) -> [UInt8] {
                var h: [UInt8] = []
                h.le32(signature)
                if central { h.le16(20) }            // version made by
                h.le16(20)                           // version needed
                h.le16(0x0800)                       // UTF-8 names
                h.le16(deflate ? 8 : 0)
                h.le16(Self.dosTime); h.le16(Self.dosDate)
                h.le32(crc); h.le32(UInt32(data.count)); h.le32(UInt32(bytes.count))
                h.le16(UInt16(name.count)); h.le16(0)
                if central {
                    h.le16(0); h.le16(0); h.le16(0)  // comment, disk, internal attributes
                    h.le32(0o100644 << 16)           // external attributes: a regular file
                    h.le32(offset)
                }
                return h + name
            }
            out += header(0x0403_4B50, central: false) + data
            central += header(0x0201_4B50, central: true)
            count += 1
        }
        let centralOffset = UInt32(out.count)
        out += central
        out.le32(0x0605_4B50); out.le16(0); out.le16(0); out.le16(count); out.le16(count)
        out.le32(UInt32(central.count)); out.le32(centralOffset); out.le16(0)
        try file.write(out)
        return try file.close()
    }

    /// Raw deflate (no zlib or gzip wrapper), as zip entries hold it.
    static func deflateRaw(_ input: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        guard deflateInit2_(&stream, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else { throw GeneratorError("zlib deflateInit2 failed") }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 64)
        var input = input
        let status = input.withUnsafeMutableBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf -> Int32 in
                stream.next_in = inBuf.baseAddress
                stream.avail_in = uInt(inBuf.count)
                stream.next_out = outBuf.baseAddress
                stream.avail_out = uInt(outBuf.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw GeneratorError("zlib deflate failed (\(status))") }
        return Array(output.prefix(Int(stream.total_out)))
    }
}

private extension Array where Element == UInt8 {
    mutating func le16(_ v: UInt16) { append(UInt8(v & 0xFF)); append(UInt8(v >> 8)) }
    mutating func le32(_ v: UInt32) { for shift in stride(from: 0, to: 32, by: 8) { append(UInt8((v >> UInt32(shift)) & 0xFF)) } }
}
