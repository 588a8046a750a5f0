import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Logging
import TallyCore
import TallyReports

/// Where the warehouse lives when `--db` does not say: `.tally/<root>.sqlite`
/// in the folder that holds the reports' root. The root is the out folder,
/// or, when the out folder is named after a month (`reports/2026-10`, the
/// default out folder of a month's run), the folder holding it: every
/// month's run into `reports/<month>` then shares one warehouse, which keeps
/// the history, while each month's reports stay in a folder of their own.
/// The out folder holds reports only: people zip and send it, and the
/// warehouse holds every raw row (names, amounts). Two roots never mix their
/// data.
///
/// ```swift
/// WarehouseLocation.defaultPath(out: URL(fileURLWithPath: "/srv/tally/reports"))
/// // "/srv/tally/.tally/reports.sqlite"
/// WarehouseLocation.defaultPath(out: URL(fileURLWithPath: "/srv/tally/reports/2026-10"))
/// // "/srv/tally/.tally/reports.sqlite"
/// ```
public enum WarehouseLocation {
    /// The default warehouse of an out folder.
    public static func defaultPath(out: URL) -> String {
        var root = out.standardizedFileURL
        if isMonthFolder(root) { root = root.deletingLastPathComponent() }
        let name = root.path == "/" ? "tally" : root.lastPathComponent
        return root.deletingLastPathComponent().appendingPathComponent(".tally")
            .appendingPathComponent(name + ".sqlite").path
    }

    /// Whether `folder` is named after a month (`YYYY-MM`), as a month's out folder is.
    static func isMonthFolder(_ folder: URL) -> Bool {
        let name = folder.lastPathComponent
        return name.utf8.count == 7 && folder.path != "/" && YearMonth(name) != nil
    }

    /// Where versions up to 0.1 kept it: `<out>/tally.sqlite`.
    static func legacyPath(out: URL) -> String {
        out.appendingPathComponent("tally.sqlite").path
    }

    /// The warehouse a run uses: `--db` when given; else the default, after
    /// moving there a warehouse an earlier version left in the out folder
    /// (with its journal files, which go first, so a move stopped half-way
    /// is finished by the next run). A warehouse that an earlier version's
    /// run holds, or that cannot be renamed (another file system), is used
    /// where it is, with a notice.
    static func settle(_ request: RunRequest, logger: Logger) throws -> String {
        if let db = request.databasePath { return db }
        let target = defaultPath(out: request.outDirectory)
        let legacy = legacyPath(out: request.outDirectory)
        let fm = FileManager.default
        guard fm.fileExists(atPath: legacy), !fm.fileExists(atPath: target) else { return target }
        let lockPath = legacy + ".lock"
        let fd = open(lockPath, O_RDWR | O_CLOEXEC)
        defer { if fd >= 0 { close(fd) } }
        if fd >= 0, flock(fd, LOCK_EX | LOCK_NB) != 0 {
            logger.notice("the warehouse \(legacy) is in use by another run: used where it is; a later run moves it to \(target)")
            return legacy
        }
        try FileSystemWords.createFolder(URL(fileURLWithPath: target).deletingLastPathComponent())
        for suffix in ["-wal", "-shm", "-journal", ""] where fm.fileExists(atPath: legacy + suffix) {
            guard rename(legacy + suffix, target + suffix) == 0 else {
                let cause = FileSystemWords.cause(errno)
                if suffix.isEmpty || errno == EXDEV {
                    logger.notice("the warehouse \(legacy) cannot be moved to \(target) (\(cause)): used where it is; move it yourself, or pass --db")
                    return legacy
                }
                throw OutputError("cannot move \(legacy + suffix) to \(target + suffix): \(cause)")
            }
        }
        if fd >= 0 { unlink(lockPath) }
        logger.notice("moved the warehouse \(legacy) to \(target): the out folder now holds reports only (--db names another place)")
        return target
    }
}
