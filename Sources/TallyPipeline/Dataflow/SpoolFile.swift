import Foundation

/// A temporary file a dataflow worker fills in order and reads back whole
/// (a Parquet part's rows, one bucket of a stage's held records): bytes are
/// gathered in memory and written `flushBytes` at a time, so a spool that
/// never grows past that stays in memory, and no file is made for it. The
/// file is opened for each write and closed after it: a worker holding
/// hundreds of spools (64 buckets per held stage) keeps no descriptor open
/// for them.
///
/// ```swift
/// let spool = SpoolFile(url: temporaryURL, flushBytes: 1 << 16, holding: "a stage's records")
/// try spool.append(bytes)
/// try spool.truncate(to: before)          // drops what was appended past `before` (a `length`)
/// try spool.consume { all in use(all) }   // or: try spool.finish(), then read spool.url
/// spool.discard()
/// ```
final class SpoolFile {
    let url: URL
    private let flushBytes: Int
    /// What the spool holds, for the message when its file cannot be made.
    private let holding: String
    private var onDisk = false
    private var buffer: [UInt8] = []
    /// How many bytes are in the file.
    private var written = 0

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

    /// Appends what `body` appends to the bytes it is given (the spool's
    /// own buffer: nothing is copied on the way), writing what is held once
    /// it reaches `flushBytes`.
    func append(writing body: (inout [UInt8]) -> Void) throws {
        body(&buffer)
        if buffer.count >= flushBytes { try flush() }
    }

    /// How many bytes were appended (and not truncated away).
    var length: Int { written + buffer.count }

    /// Drops every byte past the first `length`.
    func truncate(to length: Int) throws {
        precondition(length <= self.length, "a spool cannot grow by truncation")
        if length >= written { return buffer.removeLast(self.length - length) }
        buffer.removeAll(keepingCapacity: true)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.truncate(atOffset: UInt64(length))
        written = length
    }

    /// Writes what is held: ``url`` then holds every byte appended (an
    /// empty file when none was).
    func finish() throws {
        try flush()
    }

    /// Hands every byte appended to `body` (from memory when none reached
    /// the disk, else the file mapped, not copied), then empties the spool.
    func consume<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) throws -> T {
        guard onDisk else {
            defer { buffer = [] }
            return try buffer.withUnsafeBufferPointer(body)
        }
        try flush()
        let mapped = try Data(contentsOf: url, options: .alwaysMapped)
        discard()
        return try mapped.withUnsafeBytes { try body($0.bindMemory(to: UInt8.self)) }
    }

    /// Removes the file and drops what is held.
    func discard() {
        if onDisk { try? FileManager.default.removeItem(at: url) }
        onDisk = false
        buffer = []
        written = 0
    }

    /// Appends what is held to the file (made on the first write).
    private func flush() throws {
        if !onDisk {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw DataflowError("cannot create the file \(url.path) for \(holding) (is the temporary folder writable and not full?)")
            }
            onDisk = true
        }
        guard !buffer.isEmpty else { return }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(written))
        try handle.write(contentsOf: buffer)
        written += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }
}
