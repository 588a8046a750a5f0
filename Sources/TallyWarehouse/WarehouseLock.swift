import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive lock on a warehouse, held for a whole run, so two runs never
/// interleave their writes. It is an advisory `flock` on `<db>.lock`; the
/// kernel releases it when the process ends, even after SIGKILL.
final class WarehouseLock {
    private let fd: Int32

    init(databasePath: String) throws {
        let path = databasePath + ".lock"
        fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw WarehouseError("cannot open lock file \(path): \(String(cString: strerror(errno)))")
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            var holder = [UInt8](repeating: 0, count: 32)
            let n = pread(fd, &holder, 31, 0)
            let pid = n > 0 ? String(decoding: holder[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : "?"
            // No close here: `fd` is initialized, so deinit runs when this
            // init throws and closes it. Closing it here too closed it twice,
            // and the second close could hit a descriptor another thread had
            // just opened under the same number (seen as SQLite "disk I/O
            // error"s in tests running beside the busy-warehouse test).
            throw WarehouseError("another tally run (pid \(pid)) is using the warehouse \(databasePath); wait for it to finish, or use another --db", code: .busy)
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(fd, 0)
        _ = pid.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
