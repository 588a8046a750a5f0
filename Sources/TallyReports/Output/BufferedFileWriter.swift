import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An append-only file writer with a large buffer: output costs one write(2)
/// per 256 KiB, not one per row. Write errors (a full disk) throw, naming the file.
public final class BufferedFileWriter {
    public let url: URL
    /// The file errors name: the report being written (`url` may be its temporary file).
    public let destination: URL
    private let fd: Int32
    private var buffer: [UInt8] = []
    private let capacity = 256 * 1024
    private var closed = false

    /// Creates (truncating) the file at `url`; errors name `destination`
    /// (default: `url`), the report a temporary file will become.
    public init(url: URL, destination: URL? = nil) throws {
        self.url = url
        self.destination = destination ?? url
        fd = open(url.path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputError("cannot create \(self.destination.path): \(String(cString: strerror(errno)))") }
        buffer.reserveCapacity(capacity)
    }

    public func write(_ text: String) throws {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
        if buffer.count >= capacity { try flush() }
    }

    public func write(bytes: some Sequence<UInt8>) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { try flush() }
    }

    public func flush() throws {
        try buffer.withUnsafeBytes { try Self.writeAll($0, to: fd, destinationPath: destination.path) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Creates (truncating) the file at `path` holding exactly `bytes`, with
    /// no buffer: for a file whose bytes are all at hand (a couple's text).
    /// Errors name `destination`, as a writer's do.
    public static func write(_ bytes: UnsafeRawBufferPointer, toPath path: String, destinationPath: String) throws {
        let fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputError("cannot create \(destinationPath): \(String(cString: strerror(errno)))") }
        do {
            try writeAll(bytes, to: fd, destinationPath: destinationPath)
        } catch {
            Glibc.close(fd)
            throw error
        }
        guard Glibc.close(fd) == 0 else { throw OutputError("cannot write \(destinationPath): closing failed: \(String(cString: strerror(errno)))") }
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32, destinationPath: String) throws {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw OutputError("cannot write \(destinationPath): \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }

    /// Flushes and closes; further writes are a programming error.
    public func close() throws {
        guard !closed else { return }
        closed = true
        do {
            try flush()
        } catch {
            Glibc.close(fd)
            throw error
        }
        guard Glibc.close(fd) == 0 else { throw OutputError("cannot write \(destination.path): closing failed: \(String(cString: strerror(errno)))") }
    }

    deinit { if !closed { Glibc.close(fd) } }
}
