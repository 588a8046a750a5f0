import Foundation
import TallyCore
import TallyReports

/// The short summary a run prints on the terminal (stdout), in English
/// whatever `locale` says (the files carry the locale): what was read, what
/// was refused, one or two lines per report family, the checks, and where
/// the reports are. About 20 lines; the details are in the files.
public enum RunSummary {
    /// The summary of `tally run` / `tally report`.
    public static func render(_ outcome: TallyRunner.Outcome) -> String {
        var out: [String] = []
        let m = outcome.manifest
        out.append("tally \(m.tally.version) · period \(m.period) · time zone \(m.timezone) · reports in \(m.locale)")
        if let ingest = outcome.ingest { out += lines(ingest) }
        let read = m.inputs.map(\.rowsRead).reduce(0, +)
        let used = m.inputs.map(\.rowsUsed).reduce(0, +)
        let superseded = m.inputs.map(\.rowsSuperseded).reduce(0, +)
        out.append("rows: \(read) read = \(used) used + \(m.inputs.map(\.rowsRejected).reduce(0, +)) rejected + \(superseded) superseded; "
                   + "\(outcome.rejects) rejects in rejects.csv")
        out += outcome.summary.filter { !$0.isEmpty }
        let failed = m.checks.filter { !$0.passed }
        out.append(failed.isEmpty ? "checks: all \(m.checks.count) passed (run.json → checks)"
                   : "checks: \(failed.count) of \(m.checks.count) FAILED (run.json → checks)")
        for check in failed { out.append("  FAILED: \(check.name) (\(check.detail))") }
        out.append(outcome.reportsKept
                   ? "reports unchanged since the last run (same inputs, configuration and build): kept in \(outcome.outDirectory.path)/, run.json rewritten"
                   : "reports written to \(outcome.outDirectory.path)/")
        return out.joined(separator: "\n")
    }

    /// The lines about an ingest.
    static func lines(_ ingest: IngestStage.Outcome) -> [String] {
        let unchanged = ingest.files.count - ingest.filesLoaded
        var lines = ["ingest: \(ingest.filesLoaded) files loaded (\(ingest.rowsRead) rows, \(String(format: "%.1f", Double(ingest.bytesRead) / 1_048_576)) MB), \(unchanged) unchanged, \(ingest.ignored.count) ignored, \(String(format: "%.2f", ingest.seconds)) s"]
        let rejected = ingest.files.map(\.rowsRejected).reduce(0, +)
        if rejected > 0 { lines.append("ingest: \(rejected) rows rejected while reading") }
        return lines
    }

    /// The summary of `tally ingest` as one string.
    public static func render(_ ingest: IngestStage.Outcome) -> String {
        lines(ingest).joined(separator: "\n")
    }
}
