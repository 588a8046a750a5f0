import ArgumentParser
import Foundation
import TallyPipeline

// `tally plan`, `tally worker`, `tally merge`: the run split into processes
// for an engine such as Spark (docs/scale-out.md).

extension Tally {
    /// `tally plan`: the stages and the first stage's input, as JSON on stdout.
    struct Plan: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the plan of a run split into processes (stages, tasks, inputs) as JSON, for tally worker and tally merge.",
            discussion: "The plan names the data folder by absolute path: every worker reads the inputs from there.")

        @Option(help: ArgumentHelp("The data folder (one sub-folder per dataset).", valueName: "dir"))
        var data: String

        @OptionGroup var period: PeriodOption

        @Option(help: ArgumentHelp("The configuration (default: <data>/tally.yml when present).", valueName: "file"))
        var config: String?

        @Option(help: ArgumentHelp("The report time zone, overriding the configuration.", valueName: "tz"))
        var timezone: String?

        @Option(help: ArgumentHelp("The report folder tally merge writes, on storage every worker reaches: the workers write each couple's and challenge's own files there (into .tally-parts/, published by tally merge).", valueName: "dir"))
        var out: String

        func run() throws {
            let plan = try runReportingErrors {
                try DataflowProcesses.plan(data: URL(fileURLWithPath: data), period: period.month,
                                           configURL: config.map { URL(fileURLWithPath: $0) }, timezone: timezone,
                                           asOf: period.asOfDate, out: URL(fileURLWithPath: out))
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            FileHandle.standardOutput.write(try encoder.encode(plan) + Data("\n".utf8))
        }
    }

    /// `tally worker STAGE`: one stage over one partition's key-sorted lines.
    struct Worker: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run one stage of a plan on key-sorted lines from stdin; write the routed lines to stdout.",
            discussion: "Each output line is STAGE<TAB>KEY<TAB>RECORD. Deterministic and side-effect free: an engine may retry or speculate it.")

        @Argument(help: "The stage (one of the plan's stages).")
        var stage: String

        @Option(help: ArgumentHelp("The plan tally plan printed.", valueName: "file"))
        var plan: String

        func run() throws {
            try runReportingErrors(prefix: "tally worker \(stage)") {
                try DataflowProcesses.worker(stage: stage, plan: try readPlan(plan), input: .standardInput, output: .standardOutput)
            }
        }
    }

    /// `tally merge`: the reports from the lines routed to the merge.
    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write every report, rejects.csv and run.json from the lines the workers routed to the merge (stdin, any order).")

        @Option(help: ArgumentHelp("The plan tally plan printed.", valueName: "file"))
        var plan: String

        @Option(help: ArgumentHelp("The report folder (default: the plan's; another is refused).", valueName: "dir"))
        var out: String?

        @Flag(help: "Leave run-specific facts out of run.json (see `tally run --help`).")
        var reproducible = false

        func run() throws {
            try runReportingErrors(prefix: "tally merge") {
                let plan = try readPlan(plan)
                try DataflowProcesses.merge(plan: plan, input: .standardInput,
                                            out: URL(fileURLWithPath: out ?? plan.out), reproducible: reproducible)
            }
        }
    }
}

/// The plan file at `path`.
private func readPlan(_ path: String) throws -> DataflowProcesses.Plan {
    let data: Data
    do {
        data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
        throw DataflowError("cannot read the plan \(path): \(error.localizedDescription)")
    }
    do {
        return try JSONDecoder().decode(DataflowProcesses.Plan.self, from: data)
    } catch {
        throw DataflowError("\(path) is not a plan tally plan printed: \(error)")
    }
}
