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
        if let changes = m.changes { out += lines(changes) }
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

    /// What moved since the last run, what was restated, and the flags:
    /// a few figures per family, the rest in run.json.
    ///
    /// ```
    /// changes since the run of 2026-09 (run.json → changes):
    ///   statements: couples 20 (+1), expenses 222 (-12, -5.1%), spent BRL 43747.36 (+310.20, +0.7%)
    ///   restated: kpis MRR FisioFlow BRL for 2026-09: published 8004.00, now 8100.00 (+96.00)
    ///   check: swipes: 1888 rows dated in 2026-10 against 4102 in 2026-09 (-54.0%, beyond ±50.0%)
    /// ```
    static func lines(_ changes: RunChanges, perFamily: Int = 4, restatements: Int = 5) -> [String] {
        var out: [String] = []
        if let against = changes.against {
            out.append("changes since the run of \(against) (run.json → changes)"
                       + (changes.moved.isEmpty && changes.restated.isEmpty ? ": none" : ":"))
        }
        var families: [String] = []
        var moved: [String: [RunChanges.Moved]] = [:]
        for m in changes.moved {
            if moved[m.family] == nil { families.append(m.family) }
            moved[m.family, default: []].append(m)
        }
        // A figure whose name ends with its currency (`spent BRL`) is shown without it again.
        func shown(_ value: String, _ unit: String, _ name: String) -> String {
            name.hasSuffix(" " + unit) ? value : RunFigure(family: "", name: name, month: "", value: value, unit: unit).shown
        }
        for family in families {
            let all = moved[family]!
            let items = all.prefix(perFamily).map { m in
                "\(m.name) \(shown(m.current, m.unit, m.name)) (\(m.change)" + (m.percent.map { ", \($0)" } ?? "") + ")"
            }
            out.append("  \(family): " + items.joined(separator: ", ")
                       + (all.count > perFamily ? ", and \(all.count - perFamily) more" : ""))
        }
        // A key's restatements (a couple's balances) are counted per family; its own statement gives them.
        let keyed = changes.restated.filter { $0.key != nil }
        var keyedFamilies: [String] = []
        var keys: [String: (keys: Set<String>, month: String)] = [:]
        for r in keyed {
            if keys[r.family] == nil { keyedFamilies.append(r.family) }
            keys[r.family, default: ([], r.month)].keys.insert(r.key!)
        }
        for family in keyedFamilies {
            let (set, month) = keys[family]!
            let what = family == "statements" ? (set.count == 1 ? "1 couple opens" : "\(set.count) couples open")
                + " with other balances than the \(month) closing they were sent (each statement says why)"
                : "\(set.count) keys restated for \(month)"
            out.append("  restated: \(family): \(what)")
        }
        let figures = changes.restated.filter { $0.key == nil }
        for r in figures.prefix(restatements) {
            out.append("  restated: \(r.family) \(r.name) for \(r.month): published \(shown(r.published, r.unit, r.name)), "
                       + "now \(shown(r.now, r.unit, r.name)) (\(r.change))")
        }
        if figures.count > restatements {
            out.append("  restated: and \(figures.count - restatements) more figures")
        }
        for flag in changes.flags { out.append("  check: \(flag.message)") }
        if changes.against == nil, !changes.flags.isEmpty {
            out.insert("changes (run.json → changes):", at: 0)
        }
        return out
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
