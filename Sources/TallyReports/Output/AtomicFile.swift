import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a file under a temporary name beside its destination and renames
/// it into place only when complete, so a crash never leaves a half-written
/// report: readers see the previous complete version or the new one.
///
/// The rename is atomic whatever happens to the process. Durability against
/// power loss is the caller's: a run syncs its out folder once, after every
/// report is in place (``AtomicFile/syncFileSystem(containing:)``), instead of
/// an fsync per file, which would wait on the disk once for each of thousands
/// of per-couple files.
///
/// In a folder written whole under a temporary name (``StagedFolder``: a
/// run into a new out folder), a file is written at its own name: the
/// folder is the temporary, and it is moved into place in one rename.
///
/// A destination that already holds exactly the new bytes is left as it is
/// (its modification time too): bytes at hand (``write(_:)``) are compared
/// with it before anything is written, and a file written otherwise is
/// compared at ``commit()`` and its temporary removed. A rerun whose reports
/// did not change then renames nothing, and a sync tool watching the out
/// folder sees only the reports whose content changed.
///
/// The temporary file is `.<name>.tmp-<pid>-<token>`: the token is drawn at
/// random once per process, so two processes writing the same destination
/// (a retried and a speculative attempt of one Spark task, on two hosts
/// where both got the same pid) never write into each other's temporary
/// file; each renames a complete file, and the last rename wins. A run
/// killed outright (SIGKILL, power loss) cannot remove it; the next run
/// does, with ``removeStaleTemporaries(in:)``.
public final class AtomicFile {
    /// Where the file will be once committed.
    public var destination: URL { URL(fileURLWithPath: destinationPath) }
    /// The temporary file being written (same folder, so the rename is atomic).
    public var temporary: URL { URL(fileURLWithPath: temporaryPath) }
    /// ``destination``'s and ``temporary``'s paths, kept as text: a run makes
    /// one `AtomicFile` per couple, and URL arithmetic would cost more than
    /// writing the file.
    public let destinationPath: String
    private let temporaryPath: String
    /// The destination's folder path and file name, as text.
    let destinationFolderAndName: (folder: Substring, name: Substring)
    private var committed = false
    /// The destination already holds the bytes ``write(_:)`` was given: no temporary file was written.
    private var unchanged = false
    /// ``write(_:)`` compared its bytes with the destination: ``commit()`` need not compare the files again.
    private var compared = false

    /// The caller knows no file is at ``destination`` (its folder is new): ``write(_:)`` need not look.
    private let destinationAbsent: Bool
    /// The destination lies in a folder written whole under a temporary name
    /// (``StagedFolder``): the file is written at its own name and
    /// ``commit()`` has nothing to move.
    private let direct: Bool

    /// Prepares a temporary file for `destination`, creating its folder
    /// unless the caller knows it exists (`creatingFolder: false`, for the
    /// many files of one folder). A temporary file left under the same name
    /// is replaced when the file is written. `destinationAbsent` says the
    /// caller made the folder in this run, so no earlier file can hold the
    /// bytes (it spares a lookup per file among thousands).
    public convenience init(destination: URL, creatingFolder: Bool = true, destinationAbsent: Bool = false) throws {
        try self.init(destinationPath: destination.path, creatingFolder: creatingFolder, destinationAbsent: destinationAbsent)
    }

    /// ``init(destination:creatingFolder:destinationAbsent:)`` for a
    /// destination given as a path: what a stage writing a file per key
    /// uses, with the folder's path worked out once.
    public init(destinationPath path: String, creatingFolder: Bool = true, destinationAbsent: Bool = false) throws {
        direct = StagedFolder.holds(path)
        self.destinationAbsent = destinationAbsent || direct
        let slash = path.lastIndex(of: "/")
        let name = path[(slash.map { path.index(after: $0) } ?? path.startIndex)...]
        destinationPath = path
        destinationFolderAndName = (slash.map { $0 == path.startIndex ? "/" : path[..<$0] } ?? ".", name)
        temporaryPath = direct ? path : "\(path[..<name.startIndex]).\(name)\(AtomicFile.marker)\(AtomicFile.processSuffix)"
        if creatingFolder { try FileSystemWords.createFolder(URL(fileURLWithPath: String(destinationFolderAndName.folder))) }
    }

    /// What this process's temporary names end with: its pid and a random
    /// token (made once: a run makes thousands of files), `4242-9f86d081`.
    static let processSuffix = "\(getpid())-\(String(UInt32.random(in: .min ... .max), radix: 16))"

    /// Writes `bytes` to the temporary file (replacing what it held), unless
    /// the destination holds exactly `bytes` already. Errors (a full disk, a
    /// file size limit) name the destination.
    public func write(_ bytes: some Sequence<UInt8>) throws {
        let whole: Void? = try bytes.withContiguousStorageIfAvailable {
            let raw = UnsafeRawBufferPointer($0)
            unchanged = !destinationAbsent && FileContents.file(atPath: destinationPath, holds: raw)
            compared = true
            if !unchanged { try BufferedFileWriter.write(raw, toPath: temporaryPath, destinationPath: destinationPath) }
        }
        if whole != nil { return }
        (unchanged, compared) = (false, false)
        let writer = try BufferedFileWriter(url: temporary, destination: destination)
        do {
            try writer.write(bytes: bytes)
            try writer.close()
        } catch {
            try? writer.close()
            throw error
        }
    }

    /// Takes `staged`, a complete file written by another process on the
    /// same file system (a dataflow worker's part), as the temporary file.
    public func adopt(_ staged: URL) throws {
        (unchanged, compared) = (false, false)
        guard rename(staged.path, temporaryPath) == 0 else {
            throw failure("cannot take \(staged.path) (written by a worker) as \(temporary.lastPathComponent)")
        }
    }

    /// Renames the complete temporary file over the destination, or removes
    /// it when the destination holds the same bytes (already known when
    /// ``write(_:)`` compared them); in a ``StagedFolder``, nothing (the
    /// folder is moved into place whole).
    public func commit() throws {
        if direct {
            committed = true
            return
        }
        if unchanged || (!compared && FileContents.filesEqual(temporaryPath, destinationPath)) {
            unlink(temporaryPath)   // none when unchanged
            committed = true
            return
        }
        guard rename(temporaryPath, destinationPath) == 0 else {
            throw failure("cannot move \(temporary.lastPathComponent) into place")
        }
        committed = true
    }

    /// Removes the temporary file unless it was committed.
    public func discard() {
        if !committed { unlink(temporaryPath) }
    }

    deinit { discard() }

    /// Flushes every file of the file system holding `folder` to disk (syncfs).
    public static func syncFileSystem(containing folder: URL) throws {
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw OutputError("cannot open \(folder.path) to sync it: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard tally_syncfs(fd) == 0 else {
            throw OutputError("cannot write the reports in \(folder.path): flushing to disk failed: \(String(cString: strerror(errno)))")
        }
    }

    private func failure(_ what: String) -> OutputError {
        OutputError("cannot write \(destinationPath): \(what): \(String(cString: strerror(errno)))")
    }

    // MARK: - Stale temporary files

    /// What temporary names carry between the destination's name and the pid.
    static let marker = ".tmp-"

    /// Removes the temporary files that runs which no longer exist left in
    /// `folder` and in its sub-folders one level down (where tally writes
    /// reports: `statements/`, `kpis/`, …), and returns their paths relative
    /// to `folder`.
    ///
    /// A temporary file is `.<name>.tmp-<pid>-<token>` (or `.<name>.tmp-<pid>`,
    /// as earlier versions named them); it is stale when no process `<pid>`
    /// is alive. Files of a live process (another run writing to the
    /// same folder) are left alone; so is every other file, anything deeper,
    /// and hidden folders (an out folder may be a working copy with `.git`).
    @discardableResult
    public static func removeStaleTemporaries(in folder: URL) -> [String] {
        let fm = FileManager.default
        var removed: [String] = []
        func sweep(_ dir: URL, prefix: String, descend: Bool) {
            guard let names = try? fm.contentsOfDirectory(atPath: dir.path) else { return }
            for name in names.sorted() {
                let url = dir.appendingPathComponent(name)
                var isDir: ObjCBool = false
                guard fm.fileExists(atPath: url.path, isDirectory: &isDir) else { continue }
                if isDir.boolValue {
                    if descend && !name.hasPrefix(".") { sweep(url, prefix: prefix + name + "/", descend: false) }
                } else if let pid = temporaryOwner(name), !isAlive(pid), (try? fm.removeItem(at: url)) != nil {
                    removed.append(prefix + name)
                }
            }
        }
        sweep(folder, prefix: "", descend: true)
        return removed.sorted()
    }

    /// The pid in a temporary file name (`.balances.csv.tmp-4242-9f86d081`,
    /// `.balances.csv.tmp-4242`), or nil when `name` is not one.
    static func temporaryOwner(_ name: String) -> pid_t? {
        guard name.hasPrefix("."), let range = name.range(of: marker, options: .backwards),
              range.lowerBound > name.index(after: name.startIndex) else { return nil }
        var digits = name[range.upperBound...]
        if let dash = digits.firstIndex(of: "-") {
            let token = digits[digits.index(after: dash)...]
            guard !token.isEmpty, token.allSatisfy(\.isHexDigit) else { return nil }
            digits = digits[..<dash]
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let pid = pid_t(digits), pid > 0 else { return nil }
        return pid
    }

    /// Whether a process `pid` exists (one of another user counts as alive).
    static func isAlive(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
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
