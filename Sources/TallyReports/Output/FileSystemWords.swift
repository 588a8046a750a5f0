import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// File-system failures in plain words: one line naming the path and the
/// cause, never a Foundation error domain.
///
/// ```swift
/// try FileSystemWords.createFolder(URL(fileURLWithPath: "/proc/reports"))
/// // OutputError: "cannot create the folder /proc/reports: permission denied"
/// ```
public enum FileSystemWords {
    /// `errno` as words (`permission denied`, `no space left on the disk`).
    public static func cause(_ code: Int32) -> String {
        switch code {
        case EACCES, EPERM: return "permission denied"
        case ENOSPC: return "no space left on the disk"
        case EDQUOT: return "the disk quota is exhausted"
        case EROFS: return "the file system is read-only"
        case ENOTDIR: return "a part of the path is a file, not a folder"
        case ENOENT: return "no such file or folder"
        case EEXIST: return "a file is already there"
        case EISDIR: return "it is a folder, not a file"
        case EFBIG: return "the file size limit is reached"
        case ENAMETOOLONG: return "the name is too long"
        default: return String(cString: strerror(code)).lowercased()
        }
    }

    /// Creates `url` and the folders above it that are missing. Fails with
    /// an ``OutputError`` naming the folder and the cause: a file in the
    /// way, permission denied, a read-only or full file system.
    public static func createFolder(_ url: URL) throws {
        let path = url.standardizedFileURL.path
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
            guard isDir.boolValue else { throw OutputError("cannot create the folder \(path): a file of that name is in the way") }
            return
        }
        let parent = url.standardizedFileURL.deletingLastPathComponent()
        if parent.path != path { try createFolder(parent) }
        if mkdir(path, 0o777) != 0 && errno != EEXIST {
            throw OutputError("cannot create the folder \(path): \(cause(errno))")
        }
    }

    /// The nearest existing path above `path` (or `path` itself) when it
    /// is a file rather than a folder: what stops a folder being made there.
    static func fileInTheWay(_ path: String) -> String? {
        var url = URL(fileURLWithPath: path).standardizedFileURL
        while url.path != "/" {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) {
                return isDir.boolValue ? nil : url.path
            }
            url = url.deletingLastPathComponent()
        }
        return nil
    }

    /// A Foundation file error (CocoaError, POSIXError) as `<path>: <cause>`,
    /// or nil when `error` is not one.
    public static func describe(_ error: Error) -> String? {
        let ns = error as NSError
        guard ns.domain == NSCocoaErrorDomain || ns.domain == NSPOSIXErrorDomain else { return nil }
        let path = (ns.userInfo[NSFilePathErrorKey] as? String) ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path
        var words: String
        if ns.domain == NSPOSIXErrorDomain {
            words = cause(Int32(ns.code))
        } else if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            words = cause(Int32(underlying.code))
        } else {
            switch CocoaError.Code(rawValue: ns.code) {
            case .fileNoSuchFile, .fileReadNoSuchFile: words = "no such file or folder"
            case .fileReadNoPermission, .fileWriteNoPermission: words = "permission denied"
            case .fileWriteOutOfSpace: words = "no space left on the disk"
            case .fileWriteVolumeReadOnly: words = "the file system is read-only"
            case .fileWriteFileExists: words = "a file is already there"
            case .fileReadInapplicableStringEncoding, .fileReadCorruptFile: words = "it is not UTF-8 text"
            default:
                // Foundation gives no cause for some failures (a file where a folder of the path should be).
                words = path.flatMap(fileInTheWay).map { "\($0) is a file, not a folder" } ?? "a file-system error (code \(ns.code))"
            }
        }
        return path.map { "\($0): \(words)" } ?? words
    }
}
