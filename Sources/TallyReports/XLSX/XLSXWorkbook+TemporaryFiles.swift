import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension XLSXWorkbook {
    /// A RAM-backed folder for libxlsxwriter's temporary files (`/dev/shm`
    /// when it is a writable tmpfs), or nil for the system's (`/tmp`).
    ///
    /// For workbooks of many small sheets (a leaderboard per challenge):
    /// libxlsxwriter 1.1.4 makes a temporary file per sheet in
    /// constant-memory mode and another per part when it packages the
    /// workbook, each created and deleted. On ext4 without a journal,
    /// creating a file scans past every inode freed in the last minutes
    /// (`recently_deleted`), so that churn costs kernel time growing with the
    /// count squared. On tmpfs a file costs no inode search. The bytes are
    /// the same as in `/tmp`'s page cache: the sheets' XML until the workbook
    /// is closed, never more.
    public static let ramTemporaryDirectory: String? = {
        #if os(Linux)
        let path = "/dev/shm"
        // Mounted as tmpfs (fields: device, mount point, type, …), and writable.
        guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8),
              mounts.split(separator: "\n").contains(where: { line in
                  let fields = line.split(separator: " ")
                  return fields.count > 2 && fields[1] == path && fields[2] == "tmpfs"
              }),
              access(path, W_OK) == 0 else { return nil }
        return path
        #else
        return nil
        #endif
    }()
}
