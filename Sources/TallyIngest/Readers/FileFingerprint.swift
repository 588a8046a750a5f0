import Foundation

/// The size and SHA-256 of a file, computed by streaming it in 1 MiB reads, so
/// that a load can recognise a file it has already loaded.
public enum FileFingerprint {
    /// The file's size in bytes and its SHA-256 digest as lowercase hex (of the
    /// bytes on disk, compressed or not).
    public static func of(url: URL) throws(ReaderError) -> (bytes: Int64, sha256: String) {
        let file = try FileByteSource(url: url, fingerprinting: true)
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: FileByteSource.defaultChunkSize, alignment: 16)
        defer { chunk.deallocate() }
        while try file.read(into: chunk) > 0 {}
        return file.fingerprint!   // read to its end
    }

}
