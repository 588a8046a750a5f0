import Foundation

/// Where a table's bytes go: a plain file or a gzip stream over one.
protocol ByteSink: AnyObject {
    /// Appends `bytes` to the output.
    func write(_ bytes: [UInt8]) throws
    /// Flushes and closes; returns the number of bytes the file holds.
    func close() throws -> Int64
}

/// An error writing a generated file.
public struct GeneratorError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) { self.description = description }
}

/// A plain file, written in the large chunks the table buffers hand it.
final class FileByteSink: ByteSink {
    private let handle: FileHandle
    private var written: Int64 = 0

    /// Creates (or truncates) the file at `url`.
    init(url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw GeneratorError("cannot create \(url.path)")
        }
        handle = try FileHandle(forWritingTo: url)
    }

    func write(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        try handle.write(contentsOf: bytes)
        written += Int64(bytes.count)
    }

    func close() throws -> Int64 {
        try handle.close()
        return written
    }
}
