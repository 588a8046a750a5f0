import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a file under a temporary name beside its destination and renames
/// it into place only when complete, so a crash never leaves a half-written
/// report: readers see the previous complete version or the new one.
///
/// The rename is atomic whatever happens to the process. Durability against
/// power loss is the caller's: a run syncs its out folder once at the end
/// (``AtomicFile/syncFileSystem(containing:)``) instead of an fsync per file,
/// which measured as the largest cost of writing thousands of per-couple files.
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

    /// Writes `bytes` as the whole temporary file (no fsync; see the type's note).
    public func write(_ bytes: some Sequence<UInt8>) throws {
        let writer = try BufferedFileWriter(url: temporary)
        try writer.write(bytes: bytes)
        try writer.close()
    }

    /// Renames the complete temporary file over the destination.
    public func commit() throws {
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

    /// Flushes every file of the file system holding `folder` to disk (syncfs).
    public static func syncFileSystem(containing folder: URL) throws {
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw OutputError("cannot open \(folder.path) to sync it: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard tally_syncfs(fd) == 0 else { throw OutputError("cannot sync \(folder.path): \(String(cString: strerror(errno)))") }
    }
}

/// An output that could not be written, naming the file.
public struct OutputError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// glibc's `syncfs(2)`, which the Glibc module does not export (it needs _GNU_SOURCE).
@_silgen_name("syncfs")
private func tally_syncfs(_ fd: Int32) -> Int32
