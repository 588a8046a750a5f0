import Foundation
import TallyCore
import TallyReports

/// The short summary a run prints on the terminal (stdout): what was read,
/// what was refused, what was written, and spending by category as bars.
public enum RunSummary {
    /// The summary of `tally run` / `tally report`.
    public static func render(_ outcome: TallyRunner.Outcome) -> String {
        var out: [String] = []
        let m = outcome.manifest
        out.append("tally \(m.tally.version) · period \(m.period) · time zone \(m.timezone) · locale \(m.locale)")
        if let ingest = outcome.ingest { out += lines(ingest) }
        let read = m.inputs.map(\.rowsRead).reduce(0, +)
        let used = m.inputs.map(\.rowsUsed).reduce(0, +)
        let superseded = m.inputs.map(\.rowsSuperseded).reduce(0, +)
        out.append("rows: \(read) read = \(used) used + \(m.inputs.map(\.rowsRejected).reduce(0, +)) rejected + \(superseded) superseded")
        out.append("rejects: \(outcome.rejects) (see rejects.csv)")
        if let totals = outcome.totals {
            out.append("statements: \(totals.couples) couples, \(totals.members) members, \(totals.expenses) expenses, \(totals.transfers) suggested transfers"
                       + (totals.greedyStatements > 0 ? " (\(totals.greedyStatements) large groups settled greedily)" : ""))
            for currency in totals.currencies {
                let bars = totals.spendingByTag(in: currency).prefix(10).map {
                    TextChart.Bar(label: $0.tag.isEmpty ? "(untagged)" : $0.tag, value: Double($0.amount),
                                  shown: Money.plain($0.amount, currency))
                }
                guard !bars.isEmpty else { continue }
                out.append("")
                out.append("spending by category, \(currency.code) (top \(bars.count)):")
                out += TextChart.bars(Array(bars), width: 32).map { "  " + $0 }
            }
        }
        for check in m.checks { out.append("check \(check.passed ? "ok" : "FAILED"): \(check.name) (\(check.detail))") }
        out.append("")
        out.append("reports written to \(outcome.outDirectory.path)/")
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
