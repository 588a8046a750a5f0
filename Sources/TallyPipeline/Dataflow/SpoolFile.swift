import Foundation

/// A temporary file a dataflow worker fills in order and reads back whole
/// (a Parquet part's rows, one bucket of a stage's held lines): bytes are
/// gathered in memory and written `flushBytes` at a time, so a spool that
/// never grows past that stays in memory, and no file is made for it.
///
/// ```swift
/// let spool = SpoolFile(url: temporaryURL, flushBytes: 1 << 16, holding: "a stage's records")
/// try spool.append(bytes)
/// try spool.consume { all in use(all) }   // or: try spool.finish(), then read spool.url
/// spool.discard()
/// ```
final class SpoolFile {
    let url: URL
    private let flushBytes: Int
    /// What the spool holds, for the message when its file cannot be made.
    private let holding: String
    private var handle: FileHandle?
    private var onDisk = false
    private var buffer: [UInt8] = []

    init(url: URL, flushBytes: Int, holding: String) {
        self.url = url
        self.flushBytes = flushBytes
        self.holding = holding
    }

    /// Appends `bytes`, writing what is held once it reaches `flushBytes`.
    func append<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= flushBytes { try flush() }
    }

    /// Writes what is held and closes the file: ``url`` then holds every byte
    /// appended (an empty file when none was).
    func finish() throws {
        try flush()
        try handle?.close()
        handle = nil
    }

    /// Hands every byte appended to `body` (from memory when none reached
    /// the disk, else the file mapped, not copied), then empties the spool.
    func consume<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) throws -> T {
        guard onDisk else {
            defer { buffer = [] }
            return try buffer.withUnsafeBufferPointer(body)
        }
        try finish()
        let mapped = try Data(contentsOf: url, options: .alwaysMapped)
        discard()
        return try mapped.withUnsafeBytes { try body($0.bindMemory(to: UInt8.self)) }
    }

    /// Removes the file and drops what is held.
    func discard() {
        try? handle?.close()
        handle = nil
        if onDisk { try? FileManager.default.removeItem(at: url) }
        onDisk = false
        buffer = []
    }

    private func flush() throws {
        if !onDisk {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw DataflowError("cannot create the file \(url.path) for \(holding) (is the temporary folder writable and not full?)")
            }
            onDisk = true
            handle = try FileHandle(forWritingTo: url)
        }
        guard let handle else { return }
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
