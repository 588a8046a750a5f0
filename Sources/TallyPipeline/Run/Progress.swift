import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Progress of long stages on stderr.
///
/// On a terminal: one self-rewriting line with rows and MB read, the rate
/// and an ETA, at most 5 times a second. Elsewhere (a pipe, a log file, CI):
/// no animation, one `key=value` line per finished step, easy to grep.
/// Stages running side by side (ingest lanes, report lanes) share one: its
/// state is locked, each update names its stage, and the terminal line shows
/// whichever stage updated last, with that stage's own rate and ETA.
public final class Progress: @unchecked Sendable {   // `mode` is immutable; every other field is used with `lock` held
    public enum Mode: Sendable { case terminal, lines, silent }

    public let mode: Mode
    /// Each stage begun: when, and over how many bytes.
    private var stages: [String: (started: Date, totalBytes: Int64)] = [:]
    private var lastDraw = Date.distantPast
    private var drawn = false
    private let lock = NSLock()

    public init(mode: Mode) { self.mode = mode }

    /// `.terminal` when stderr is a terminal, else `.lines`.
    public static func automatic() -> Progress { Progress(mode: isatty(2) == 1 ? .terminal : .lines) }

    /// Starts a stage over `totalBytes` of input (0 when unknown).
    public func begin(_ stage: String, totalBytes: Int64 = 0) {
        lock.lock()
        defer { lock.unlock() }
        stages[stage] = (Date(), totalBytes)
        lastDraw = .distantPast
    }

    /// Reports bytes and rows done so far in `stage` (as named to ``begin(_:totalBytes:)``).
    public func update(_ stage: String, bytes: Int64, rows: Int, detail: String = "") {
        guard mode == .terminal else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) >= 0.2, let begun = stages[stage] else { return }
        lastDraw = now
        let elapsed = max(now.timeIntervalSince(begun.started), 0.001)
        let mb = Double(bytes) / 1_048_576
        var line = String(format: "%@: %@ rows, %.1f MB, %.1f MB/s", stage, Progress.grouped(rows), mb, mb / elapsed)
        if begun.totalBytes > 0, bytes > 0 {
            let remaining = Double(begun.totalBytes - bytes) / (Double(bytes) / elapsed)
            line += String(format: ", %3.0f%%, ETA %@", Double(bytes) * 100 / Double(begun.totalBytes), Progress.duration(remaining))
        }
        if !detail.isEmpty { line += " · " + detail }
        FileHandle.standardError.write(("\r\u{1B}[K" + line).data(using: .utf8)!)
        drawn = true
    }

    /// Reports a finished step (a file loaded, a report written) as `key=value` fields.
    public func step(_ fields: KeyValuePairs<String, String>) {
        lock.lock()
        defer { lock.unlock() }
        switch mode {
        case .silent: return
        case .terminal:
            clearLine()
        case .lines:
            let text = fields.map { "\($0.key)=\(Progress.quoted($0.value))" }.joined(separator: " ")
            FileHandle.standardError.write((text + "\n").data(using: .utf8)!)
        }
    }

    /// Erases the progress line, if drawn.
    public func clear() {
        lock.lock()
        defer { lock.unlock() }
        clearLine()
    }

    private func clearLine() {
        if drawn {
            FileHandle.standardError.write("\r\u{1B}[K".data(using: .utf8)!)
            drawn = false
        }
    }

    static func quoted(_ value: String) -> String {
        value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" }) ? "\"" + value.replacingOccurrences(of: "\"", with: "\\\"") + "\"" : value
    }

    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }

    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "?" }
        let s = Int(seconds.rounded())
        return s >= 60 ? "\(s / 60)m\(s % 60)s" : "\(s)s"
    }
}
