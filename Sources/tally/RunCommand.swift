import ArgumentParser
import Foundation
import TallyPipeline

extension Tally {
    /// `tally run`: ingest, then report.
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ingest a data folder into the warehouse, then write every report for a month.",
            discussion: "Equivalent to `tally ingest` followed by `tally report`. Unchanged input files (same path and sha256) are not loaded again.")

        @Option(help: ArgumentHelp("The data folder (one sub-folder per dataset).", valueName: "dir"))
        var data: String

        @OptionGroup var period: PeriodOption
        @OptionGroup var common: CommonOptions

        @Flag(help: "Leave run-specific facts (timings, files skipped as unchanged) out of run.json, so the same inputs give byte-identical reports.")
        var reproducible = false

        @Flag(help: "Compute every report even when nothing they depend on changed since the last run into --out (by default such a run keeps them and rewrites run.json only); a report whose bytes are already in --out is left as it is.")
        var rebuildReports = false

        func run() throws {
            try reportMonth(data: data, period: period, common: common, reproducible: reproducible, rebuild: rebuildReports)
        }
    }

    /// `tally ingest`: the first half of `run`.
    struct Ingest: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Load a data folder into the warehouse (one transaction; unchanged files are skipped).")

        @Option(help: ArgumentHelp("The data folder (one sub-folder per dataset).", valueName: "dir"))
        var data: String

        @OptionGroup var common: CommonOptions

        func run() throws {
            let runner = common.runner()
            let outcome = try runReportingErrors {
                try runner.ingest(common.request(data: data, period: nil))
            }
            if !common.quiet { print(RunSummary.render(outcome)) }
            try exitForAttention(RunSummary.attention(outcome))
        }
    }

    /// `tally report`: the second half of `run`.
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write every report for a month from what the warehouse holds.")

        @OptionGroup var period: PeriodOption
        @OptionGroup var common: CommonOptions

        @Flag(help: "Leave run-specific facts out of run.json (see `tally run --help`).")
        var reproducible = false

        @Flag(help: "Compute every report even when nothing changed since the last run (see `tally run --help`).")
        var rebuildReports = false

        func run() throws {
            try reportMonth(data: nil, period: period, common: common, reproducible: reproducible, rebuild: rebuildReports)
        }
    }
}

/// `run` and `report`: (ingest when `data` is set, then) write the month's
/// reports and print the summary.
private func reportMonth(data: String?, period: PeriodOption, common: CommonOptions, reproducible: Bool, rebuild: Bool) throws {
    let runner = common.runner()
    let outcome = try runReportingErrors {
        var request = common.request(data: data, period: period.month, reproducible: reproducible)
        request.asOf = period.asOfDate
        request.reuseReports = !rebuild
        return try runner.run(request)
    }
    if !common.quiet { print(RunSummary.render(outcome)) }
    try exitForAttention(RunSummary.attention(outcome.manifest))
}

/// Prints `attention` on stderr and exits with ``ExitStatus/inputRefused``, when there is any.
private func exitForAttention(_ attention: String?) throws {
    guard let attention else { return }
    FileHandle.standardError.write(Data(attention.utf8))
    throw ExitCode(ExitStatus.inputRefused)
}
