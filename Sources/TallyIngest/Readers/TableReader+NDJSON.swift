import TallyCore
import Foundation

/// Reading NDJSON: one JSON object per line.
extension TableReader {
    /// Delivers every line that is not blank.
    func readNDJSONLines(_ body: (ReadEvent) throws -> Void) throws {
        var searched = 0
        var skipping = false
        while true {
            let p = buffer.current
            let n = buffer.available
            if n > searched, let newline = memchr(p + searched, 0x0A, n - searched) {
                let length = UnsafeMutableRawPointer(p).distance(to: newline)
                if skipping {
                    skipping = false
                    try deliverOversizedLine(body)
                } else {
                    try deliverLine(p, count: length, body)
                }
                buffer.consume(length + 1)
                line += 1
                searched = 0
                continue
            }
            if buffer.isAtEnd {
                if skipping {
                    try deliverOversizedLine(body)
                } else if n > 0 {
                    try deliverLine(p, count: n, body)
                    buffer.consume(n)
                }
                return
            }
            if skipping || n > maxRecordBytes {
                // Too long: drop what we have and look for the line's end.
                skipping = true
                buffer.consume(n)
                searched = 0
            } else {
                searched = n
            }
            try buffer.fill()
        }
    }

    private func deliverOversizedLine(_ body: (ReadEvent) throws -> Void) throws {
        recordsRead += 1
        try body(.malformed(line: line, reason: .recordTooLong(maxRecordBytes)))
    }

    /// Parses and delivers the line of `count` bytes at `p`.
    private func deliverLine(_ p: UnsafeMutablePointer<UInt8>, count: Int, _ body: (ReadEvent) throws -> Void) throws {
        if count > maxRecordBytes {
            try deliverOversizedLine(body)
            return
        }
        switch json!.parse(p, count: count, spans: spans) {
        case .blank:
            return
        case .record:
            recordsRead += 1
            try body(.record(recordView(base: p)))
        case .malformed(let reason):
            recordsRead += 1
            try body(.malformed(line: line, reason: .malformed(reason)))
        }
    }
}
