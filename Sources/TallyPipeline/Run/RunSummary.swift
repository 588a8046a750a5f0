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
        for kept in m.keptReports ?? [] {
            out.append("\(kept.family): not written, the previous reports are kept (\(kept.why))")
        }
        out.append(outcome.reportsKept
                   ? "reports unchanged since the last run (same inputs, configuration and build): kept in \(outcome.outDirectory.path)/, run.json rewritten"
                   : "reports written to \(outcome.outDirectory.path)/")
        return out.joined(separator: "\n")
    }

    /// What stderr says when reports were written but input was refused
    /// (exit code 3), or nil when nothing was: the refused files with the
    /// reason, and the report families that kept their previous reports.
    public static func attention(_ manifest: RunManifest) -> String? {
        attention(refused: manifest.refused ?? [], kept: manifest.keptReports ?? [], done: "reports written")
    }

    /// As ``attention(_:)`` for `tally ingest`.
    public static func attention(_ ingest: IngestStage.Outcome) -> String? {
        attention(refused: ingest.refusals.map(RunManifest.Refused.init), kept: [], done: "ingest done")
    }

    static func attention(refused: [RunManifest.Refused], kept: [RunManifest.KeptFamily], done: String) -> String? {
        guard !refused.isEmpty else { return nil }
        let files = refused.count == 1 ? "1 input file was" : "\(refused.count) input files were"
        var lines = ["tally: \(done), but \(files) refused (see rejects.csv and run.json → refused):"]
        for r in refused {
            lines.append("  \(r.path): \(r.reason)" + (r.earlierVersionKept ? " (the version loaded before is still used)" : ""))
        }
        for k in kept {
            lines.append("tally: \(k.family): not written, the previous reports are kept (\(k.why))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The lines about an ingest.
    static func lines(_ ingest: IngestStage.Outcome) -> [String] {
        let unchanged = ingest.filesUnchanged
        var lines = ["ingest: \(ingest.filesLoaded) files loaded (\(ingest.rowsRead) rows, \(String(format: "%.1f", Double(ingest.bytesRead) / 1_048_576)) MB), \(unchanged) unchanged, \(ingest.ignored.count) ignored, \(String(format: "%.2f", ingest.seconds)) s"]
        let rejected = ingest.files.map(\.rowsRejected).reduce(0, +)
        if rejected > 0 { lines.append("ingest: \(rejected) rows rejected while reading") }
        let refused = ingest.refusals.count
        if refused > 0 { lines.append("ingest: \(refused) \(refused == 1 ? "file" : "files") refused as a whole (see rejects.csv)") }
        return lines
    }

    /// The summary of `tally ingest` as one string.
    public static func render(_ ingest: IngestStage.Outcome) -> String {
        lines(ingest).joined(separator: "\n")
    }
}
