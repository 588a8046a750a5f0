import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a file, read with POSIX `read(2)`; the file is closed when the
/// source is released.
public final class FileByteSource: ByteSource {
    /// The size of the reads the readers make: 1 MiB.
    public static let defaultChunkSize = 1 << 20

    /// The file being read.
    public let url: URL
    /// Bytes read from the file so far.
    public private(set) var bytesConsumed: Int64 = 0
    private let descriptor: Int32
    /// The SHA-256 of the bytes read so far, when fingerprinting.
    private var hasher: SHA256Hasher?
    /// The digest once taken (taking it ends the hashing).
    private var digestHex: String?
    private var reachedEnd = false

    /// Opens `url` for reading; with `fingerprinting`, the bytes are hashed
    /// as they are read (``fingerprint``).
    public init(url: URL, fingerprinting: Bool = false) throws(ReaderError) {
        self.url = url
        hasher = fingerprinting ? SHA256Hasher() : nil
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw ReaderError(.cannotOpen, file: url, reason: "cannot open the file: \(Self.lastErrorText())")
        }
        descriptor = fd
    }

    deinit {
        close(descriptor)
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(ReaderError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            #if canImport(Glibc)
            let got = Glibc.read(descriptor, base, buffer.count)
            #else
            let got = Darwin.read(descriptor, base, buffer.count)
            #endif
            if got >= 0 {
                bytesConsumed += Int64(got)
                if got == 0 { reachedEnd = true }
                hasher?.update(UnsafeRawBufferPointer(start: base, count: got))
                return got
            }
            if errno == EINTR { continue }
            throw ReaderError(.cannotRead, file: url, reason: "cannot read the file: \(Self.lastErrorText())")
        }
    }

    /// The file's size and SHA-256 (``FileFingerprint``), once every byte was
    /// read with `fingerprinting` on; nil before the end or without it.
    public var fingerprint: (bytes: Int64, sha256: String)? {
        guard reachedEnd, let hasher else { return nil }
        if digestHex == nil { digestHex = hasher.hexDigest() }
        return (bytesConsumed, digestHex!)
    }

    static func lastErrorText() -> String {
        String(cString: strerror(errno))
    }
}
