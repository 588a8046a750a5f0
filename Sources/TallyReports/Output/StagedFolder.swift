import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A new out folder written whole under a temporary name beside it and
/// renamed into place once complete: readers see no folder, then the whole
/// run's reports with its run.json, never a part of them.
///
/// A run into an out folder that does not exist yet (the monthly
/// routine's new `reports/<month>/`) writes into
/// `.<name>.tmp-<pid>-<token><n>` beside it (``AtomicFile/processSuffix``,
/// then a count of the folders the process staged).
/// Every ``AtomicFile`` under that folder writes its destination directly,
/// without a temporary name of its own: the folder is the temporary, and
/// one rename at ``publish()`` replaces the tens of thousands a run of
/// per-couple files would otherwise make (docs/performance.md). A run that
/// fails removes the folder (``discard()``); one killed outright leaves it
/// for the next run into a folder beside it to remove
/// (``removeStale(besides:)``).
///
/// ```swift
/// if let staged = StagedFolder.begin(out) {
///     let file = try AtomicFile(destination: staged.folder.appendingPathComponent("run.json"))
///     try file.write(Array("{}".utf8))   // written at its own name
///     try file.commit()                   // nothing to rename
///     try staged.publish()                // `out` now holds run.json
/// }
/// ```
public final class StagedFolder: @unchecked Sendable {
    /// Where the reports go once published.
    public let destination: URL
    /// Where the run writes them until then.
    public let folder: URL
    private var finished = false

    /// The folders being staged in this process, as paths ending in `/`: an
    /// ``AtomicFile`` under one writes its destination directly.
    private static let lock = NSLock()
    nonisolated(unsafe) private static var roots: [String] = []
    /// Folders staged by this process so far.
    nonisolated(unsafe) private static var made = 0

    private init(destination: URL, folder: URL) {
        self.destination = destination
        self.folder = folder
    }

    /// Starts staging `destination` when nothing is at its path; nil when
    /// something is (a folder of reports, replaced one by one; an empty
    /// folder, a link or a mount point, which a rename could not replace)
    /// or when no folder can be made beside it (the run's own attempt to
    /// make `destination` then says why).
    public static func begin(_ destination: URL) -> StagedFolder? {
        let path = destination.standardizedFileURL.path
        var status = stat()
        guard lstat(path, &status) != 0, errno == ENOENT else { return nil }
        let parent = (path as NSString).deletingLastPathComponent
        guard (try? FileSystemWords.createFolder(URL(fileURLWithPath: parent))) != nil else { return nil }
        // The process's suffix and a count in hex: two runs of one process never share a folder.
        let count = lock.withLock { () -> Int in made += 1; return made }
        let folder = URL(fileURLWithPath: parent).appendingPathComponent(
            ".\((path as NSString).lastPathComponent)\(AtomicFile.marker)\(AtomicFile.processSuffix)\(String(count, radix: 16))")
        guard mkdir(folder.path, 0o755) == 0 else { return nil }
        lock.withLock { roots.append(folder.path + "/") }
        return StagedFolder(destination: URL(fileURLWithPath: path), folder: folder)
    }

    /// Whether `path` lies in a folder being staged.
    static func holds(_ path: String) -> Bool {
        lock.withLock { roots.contains { path.hasPrefix($0) } }
    }

    /// Renames the folder into place. With `only`, every other file is
    /// removed first: a run whose numbers do not add up publishes its
    /// run.json alone.
    public func publish(only names: Set<String>? = nil) throws {
        if let names {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where !names.contains(name) {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
        }
        if rename(folder.path, destination.path) != 0 {
            // Something came into the destination meanwhile (a warehouse named
            // inside it, `--db out/tally.sqlite`): what the run wrote moves in
            // beside it, a folder whole where the destination has none, run.json last.
            guard errno == ENOTEMPTY || errno == EEXIST else { throw failure(folder.path, destination.path) }
            try merge(folder.path, into: destination.path, last: "run.json")
            try FileManager.default.removeItem(at: folder)
        }
        finish()
    }

    /// Moves every entry of `source` into `target` (a folder the target lacks
    /// in one rename, else entry by entry), the entry named `last` after the others.
    private func merge(_ source: String, into target: String, last: String? = nil) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: source).sorted()
        for name in names.filter({ $0 != last }) + names.filter({ $0 == last }) {
            let from = source + "/" + name, to = target + "/" + name
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: to, isDirectory: &isFolder), isFolder.boolValue {
                try merge(from, into: to)
            } else if rename(from, to) != 0 {
                throw failure(from, to)
            }
        }
    }

    private func failure(_ from: String, _ to: String) -> OutputError {
        OutputError("cannot move the reports written in \(from) to \(to): \(String(cString: strerror(errno)))")
    }

    /// Removes the folder and what it holds, unless published.
    public func discard() {
        guard !finished else { return }
        try? FileManager.default.removeItem(at: folder)
        finish()
    }

    deinit { discard() }

    private func finish() {
        finished = true
        let root = folder.path + "/"
        Self.lock.withLock { Self.roots.removeAll { $0 == root } }
    }

    /// Removes the staged folders beside `destination` that runs which no
    /// longer exist left (killed outright), whatever out folder they were
    /// for (a killed run into `reports/2026-10` is cleared by the next
    /// month's run into `reports/2026-11`), and returns their names. Only
    /// folders named as ``begin(_:)`` names them, of a process not alive,
    /// are removed.
    @discardableResult
    public static func removeStale(besides destination: URL) -> [String] {
        let parent = (destination.standardizedFileURL.path as NSString).deletingLastPathComponent
        var removed: [String] = []
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []).sorted() {
            guard let pid = AtomicFile.temporaryOwner(name), !AtomicFile.isAlive(pid) else { continue }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: parent + "/" + name, isDirectory: &isFolder), isFolder.boolValue,
                  (try? FileManager.default.removeItem(atPath: parent + "/" + name)) != nil else { continue }
            removed.append(name)
        }
        return removed
    }
}
