import Foundation

/// A per-process scratch file that fuzz targets write their input to when the
/// code under test reads from a path (the table readers open files by URL, and
/// pick the format from the file name).
///
/// The file lives in `/dev/shm` when it exists (no disk I/O per execution),
/// else in the temporary folder, and is overwritten by every execution.
public enum ScratchFile {
    private static let folder: URL = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let url = URL(fileURLWithPath: base).appendingPathComponent("tally-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Writes `bytes` to the scratch file called `name` (`input.csv`,
    /// `input.ndjson.gz`, …) and returns its URL.
    public static func write(_ bytes: UnsafeBufferPointer<UInt8>, name: String) -> URL {
        let url = folder.appendingPathComponent(name)
        let written = FileManager.default.createFile(atPath: url.path, contents: Data(buffer: bytes))
        precondition(written, "cannot write the fuzz scratch file \(url.path)")
        return url
    }
}
