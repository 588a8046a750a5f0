import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// The `tally` command line: argument parsing and wiring only; the work is
/// in TallyPipeline.
@main
struct Tally: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tally",
        abstract: "Load app exports into a SQLite warehouse and write the monthly reports.",
        discussion: """
            A data folder holds one sub-folder per dataset (expenses/, health/, swipes/,
            checkins/, subscriptions/), one file per table (CSV or NDJSON, optionally .gz).

            Start with:
              tally run --data sample-data --out reports --period 2026-10

            Exit codes: 0 ok · 1 error · 3 reports written, but an input file was refused ·
            64 bad usage · 65 a reconciliation check failed · 66 no input (a data folder
            that is missing, empty or not one; no warehouse to report from) ·
            75 the warehouse is in use by another run.
            Rows that cannot be used do not fail a run: they go to rejects.csv. A file
            that cannot be used as a whole (a required column missing, a header in ';')
            is refused: it loads nothing, the version loaded before stays, and the
            reports that would lack it are kept as they are (exit code 3).
            """,
        version: "0.1.0",
        subcommands: [Run.self, Ingest.self, Report.self, Statement.self, Generate.self, Plan.self, Worker.self, Merge.self],
        defaultSubcommand: nil)

    /// Ignores SIGXFSZ first: past a file size limit (`ulimit -f`) a write
    /// then fails with EFBIG, which tally reports like a full disk, naming the
    /// file, instead of the process being killed mid-write.
    static func main() {
        signal(SIGXFSZ, SIG_IGN)
        main(nil)
    }
}
