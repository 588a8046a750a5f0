import Foundation
import TallyCore

/// Streams the lines of a tab-separated text file (optionally gzipped), as
/// App Store Connect writes its reports: UTF-8 (a BOM may lead), one record
/// per line (LF or CRLF), fields split at tabs, no quoting. Blank lines are
/// skipped. Memory holds one line at a time (at most `maxLineBytes`).
final class TabSeparatedLines {
    let url: URL
    private let buffer: ChunkBuffer
    private let maxLineBytes: Int
    /// The 1-based physical line of the line last delivered.
    private(set) var line = 0

    init(url: URL, maxLineBytes: Int = 1 << 20) throws(ReaderError) {
        self.url = url
        self.maxLineBytes = maxLineBytes
        let source: any ByteSource = url.lastPathComponent.lowercased().hasSuffix(".gz")
            ? try GzipByteSource(url: url) : try FileByteSource(url: url)
        buffer = ChunkBuffer(source: source, chunkSize: FileByteSource.defaultChunkSize, keepLimit: maxLineBytes)
        while buffer.available < 3 && !buffer.isAtEnd { try buffer.fill() }
        let p = buffer.current
        if buffer.available >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF { buffer.consume(3) }
    }

    /// One line: its fields, or why it cannot be read.
    enum Line {
        case fields([String])
        case malformed(RejectReason)
    }

    /// The next non-blank line with its line number, or nil at the end of the file.
    func next() throws(ReaderError) -> (line: Int, content: Line)? {
        while true {
            var scanned = 0
            var newline: Int?
            while newline == nil {
                let p = buffer.current
                while scanned < buffer.available {
                    if p[scanned] == 0x0A { newline = scanned; break }
                    scanned += 1
                }
                if newline != nil { break }
                if buffer.isAtEnd { break }
                if scanned > maxLineBytes {
                    // Too long: drop what was scanned and keep looking for the end of the line.
                    buffer.consume(scanned)
                    line += 1
                    try skipRestOfLine()
                    return (line, .malformed(.recordTooLong(maxLineBytes)))
                }
                try buffer.fill()
            }
            guard newline != nil || buffer.available > 0 else { return nil }
            let length = newline ?? buffer.available
            var end = length
            if end > 0 && buffer.current[end - 1] == 0x0D { end -= 1 }
            line += 1
            let bytes = UnsafeBufferPointer(start: buffer.current, count: end)
            defer { buffer.consume(newline == nil ? length : length + 1) }
            if end == 0 || bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            if bytes.contains(0) { return (line, .malformed(.malformed("NUL byte in the line"))) }
            if UTF8Validation.firstInvalidOffset(buffer.current, count: end) != nil {
                return (line, .malformed(.malformed("the line is not valid UTF-8")))
            }
            let fields = bytes.split(separator: 0x09, omittingEmptySubsequences: false).map {
                String(decoding: $0, as: UTF8.self)
            }
            return (line, .fields(fields))
        }
    }

    private func skipRestOfLine() throws(ReaderError) {
        while true {
            let p = buffer.current
            for i in 0..<buffer.available where p[i] == 0x0A {
                buffer.consume(i + 1)
                return
            }
            buffer.consume(buffer.available)
            if buffer.isAtEnd { return }
            try buffer.fill()
        }
    }
}
