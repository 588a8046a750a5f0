import Foundation

/// A temporary file a dataflow worker fills in order and reads back whole
/// (a Parquet part's rows, one bucket of a stage's held lines): bytes are
/// gathered in memory and written `flushBytes` at a time, so a spool that
/// never grows past that stays in memory, and no file is made for it.
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
    private var handle: FileHandle?
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
        guard let handle else {
            throw DataflowError("cannot truncate the closed file \(url.path) holding \(holding)")
        }
        try handle.truncate(atOffset: UInt64(length))
        try handle.seek(toOffset: UInt64(length))
        written = length
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
            defer {
                buffer = []
                written = 0
            }
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
        written = 0
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
        written += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }
}
