import Foundation
import TallyCore

/// The contents of `run.json`: what was read (with per-file row accounting),
/// what was written, the checks made, and how long each stage took.
///
/// Keys are sorted and the layout is fixed, so the same inputs give the same
/// bytes; run-specific facts (timings, files skipped as unchanged) live in
/// `stages`, which a reproducible run leaves out.
public struct RunManifest: Codable, Sendable {
    public var tally: Version
    public var period: String
    public var timezone: String
    public var locale: String
    public var inputs: [Input]
    public var ignored: [Ignored]
    public var outputs: [Output]
    public var checks: [Check]
    /// Each report family's headline figures (``FamilyFigures``), by family name.
    public var figures: [RunFigure]?
    /// What moved since the last run published from the same warehouse, what
    /// it published that reads differently now, and what looks wrong
    /// (``RunChanges``); absent when there is nothing to say.
    public var changes: RunChanges?
    /// Input files refused as a whole (absent when none): nothing of them
    /// is loaded; an earlier version of the same file stays loaded.
    public var refused: [Refused]?
    /// Report families that kept the reports already in the out folder
    /// because a file of a dataset they read was refused with no earlier
    /// version loaded (absent when none).
    public var keptReports: [KeptFamily]?
    /// Run-specific: how long each stage took (left out by `--reproducible`).
    public var stages: [Stage]?
    /// Run-specific: the process's peak resident memory, MiB (left out by `--reproducible`).
    public var peakMemoryMiB: Double?

    public struct Version: Codable, Sendable {
        public var version: String
    }

    /// One input file. rowsRead = rowsUsed + rowsRejected + rowsSuperseded.
    public struct Input: Codable, Sendable {
        public var path: String
        public var dataset: String
        public var table: String
        public var bytes: Int64
        public var sha256: String
        public var rowsRead: Int
        public var rowsUsed: Int
        public var rowsRejected: Int
        public var rowsSuperseded: Int
        public var unknownFields: [String]
    }

    public struct Ignored: Codable, Sendable {
        public var path: String
        public var why: String
    }

    /// A refused input file: none of its rows is loaded (`rowsLoaded` 0).
    public struct Refused: Codable, Sendable {
        public var path: String
        public var dataset: String
        public var table: String
        public var bytes: Int64
        public var rowsLoaded: Int
        public var reason: String
        /// Whether the version of this file loaded before stays in use.
        public var earlierVersionKept: Bool

        init(_ refusal: FileRefusal) {
            path = refusal.displayPath
            dataset = refusal.dataset
            table = refusal.table
            bytes = refusal.bytes
            rowsLoaded = 0
            reason = refusal.reason
            earlierVersionKept = refusal.earlierVersionKept
        }
    }

    /// A report family not written by this run: what is in the out folder is the last run's.
    public struct KeptFamily: Codable, Sendable {
        public var family: String
        public var why: String
    }

    public struct Output: Codable, Sendable {
        public var path: String
        public var rows: Int?
    }

    /// A reconciliation check and its result.
    public struct Check: Codable, Sendable {
        public var name: String
        public var passed: Bool
        public var detail: String
    }

    public struct Stage: Codable, Sendable {
        public var name: String
        public var seconds: Double
        public var rows: Int?
        /// Input bytes read by the stage (ingest).
        public var bytes: Int64?
        public var filesLoaded: Int?
        public var filesUnchanged: Int?
    }

    /// The JSON bytes, pretty-printed with sorted keys and a final newline.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }
}
