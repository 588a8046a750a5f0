import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Byte-for-byte comparisons of files, for ``AtomicFile``'s "already holds
/// these bytes". Any error (no such file, unreadable) answers false: the
/// file is then written as usual, and that write reports the error.
enum FileContents {
    /// Whether the file at `path` is a regular file holding exactly `bytes`.
    /// A missing file costs one failed `open`.
    static func file(atPath path: String, holds bytes: UnsafeRawBufferPointer) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard size(of: fd) == bytes.count else { return false }
        var chunk = [UInt8](repeating: 0, count: min(max(bytes.count, 1), 1 << 20))
        var offset = 0
        while offset < bytes.count {
            let n = min(chunk.count, bytes.count - offset)
            guard readFully(fd, &chunk, n), memcmp(chunk, bytes.baseAddress! + offset, n) == 0 else { return false }
            offset += n
        }
        return true
    }

    /// Whether the regular files at `a` and `b` hold the same bytes (false
    /// when either is missing).
    static func filesEqual(_ a: String, _ b: String) -> Bool {
        let fa = open(a, O_RDONLY | O_CLOEXEC)
        guard fa >= 0 else { return false }
        defer { close(fa) }
        let fb = open(b, O_RDONLY | O_CLOEXEC)
        guard fb >= 0 else { return false }
        defer { close(fb) }
        guard let size = size(of: fa), size == self.size(of: fb) else { return false }
        var left = [UInt8](repeating: 0, count: min(max(size, 1), 1 << 20)), right = left
        var remaining = size
        while remaining > 0 {
            let n = min(left.count, remaining)
            guard readFully(fa, &left, n), readFully(fb, &right, n) else { return false }
            guard memcmp(left, right, n) == 0 else { return false }
            remaining -= n
        }
        return true
    }

    /// A regular file's size, or nil.
    private static func size(of fd: Int32) -> Int? {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Reads exactly `count` bytes into the start of `buffer`.
    private static func readFully(_ fd: Int32, _ buffer: inout [UInt8], _ count: Int) -> Bool {
        var done = 0
        while done < count {
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, count - done) }
            guard got > 0 else { return false }
            done += got
        }
        return true
    }
}
