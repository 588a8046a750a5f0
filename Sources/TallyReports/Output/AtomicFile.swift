import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a file under a temporary name beside its destination and renames
/// it into place only when complete, so a crash never leaves a half-written
/// report: readers see the previous complete version or the new one.
public final class AtomicFile {
    /// Where the file will be once committed.
    public let destination: URL
    /// The temporary file being written (same folder, so the rename is atomic).
    public let temporary: URL
    private var committed = false

    /// Prepares a temporary file for `destination`, creating its folder.
    public init(destination: URL) throws {
        self.destination = destination
        let folder = destination.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        temporary = folder.appendingPathComponent(".\(destination.lastPathComponent).tmp-\(getpid())")
        try? FileManager.default.removeItem(at: temporary)
    }

    /// Flushes the temporary file to disk and renames it over the destination.
    public func commit() throws {
        let fd = open(temporary.path, O_RDONLY)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
        guard rename(temporary.path, destination.path) == 0 else {
            throw OutputError("cannot move \(temporary.lastPathComponent) to \(destination.path): \(String(cString: strerror(errno)))")
        }
        committed = true
    }

    /// Removes the temporary file unless it was committed.
    public func discard() {
        if !committed { try? FileManager.default.removeItem(at: temporary) }
    }

    deinit { discard() }
}

/// An output that could not be written, naming the file.
public struct OutputError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
