import ArgumentParser
import Foundation
import Logging
import TallyCore
import TallyPipeline

/// Options shared by `run`, `ingest` and `report`.
struct CommonOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The report folder (default: reports/<period>, a folder per month; reports for tally ingest).", valueName: "dir"))
    var out: String?

    @Option(help: ArgumentHelp("The SQLite warehouse (default: .tally/<root>.sqlite beside the reports' root: .tally/reports.sqlite for --out reports and for --out reports/2026-10; the out folder holds reports only).", valueName: "file"))
    var db: String?

    @Option(help: ArgumentHelp("The configuration (default: <data>/tally.yml when present, else built-in defaults).", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("The report time zone, overriding the configuration (IANA name, e.g. America/Sao_Paulo).", valueName: "tz"))
    var timezone: String?

    @Flag(name: .shortAndLong, help: "Log each step (files read, unknown fields, skipped files) to stderr.")
    var verbose = false

    @Flag(help: "No progress or log output on stderr (errors still print).")
    var quiet = false

    /// A time zone that is not one is bad usage (exit code 64), like a bad `--period`.
    func validate() throws {
        if let timezone, ReportTimeZone(identifier: timezone) == nil {
            throw ValidationError("--timezone '\(timezone)' is not an IANA time zone like America/Sao_Paulo")
        }
    }

    /// The out folder: `--out`, else `reports/<period>` for a month's reports
    /// (each month's apart, so last month's stay as they were sent) and
    /// `reports` for an ingest; both share the warehouse `.tally/reports.sqlite`.
    func outFolder(period: YearMonth?) -> String {
        out ?? (period.map { "reports/\($0)" } ?? "reports")
    }

    func request(data: String?, period: YearMonth?, reproducible: Bool = false) -> RunRequest {
        RunRequest(dataDirectory: data.map { URL(fileURLWithPath: $0) }, outDirectory: URL(fileURLWithPath: outFolder(period: period)),
                   period: period, databasePath: db, configURL: config.map { URL(fileURLWithPath: $0) },
                   timezone: timezone, reproducible: reproducible)
    }

    func runner() -> TallyRunner {
        let level: Logger.Level = quiet ? .error : (verbose ? .info : .notice)
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let progress = quiet ? Progress(mode: .silent) : Progress.automatic()
        return TallyRunner(logger: Logger(label: "tally"), progress: progress)
    }
}

/// `--period YYYY-MM`.
struct PeriodOption: ParsableArguments {
    @Option(help: ArgumentHelp("The month to report, YYYY-MM.", valueName: "YYYY-MM"))
    var period: String

    @Option(name: .customLong("as-of"),
            help: ArgumentHelp("The day leaderboards are computed as of (default: the period's last day).", valueName: "YYYY-MM-DD"))
    var asOf: String?

    func validate() throws {
        guard YearMonth(period) != nil else { throw ValidationError("--period '\(period)' is not a month like 2026-10") }
        if let asOf, LocalDate.parse(asOf) == nil {
            throw ValidationError("--as-of '\(asOf)' is not a date like 2026-10-31")
        }
    }

    var month: YearMonth { YearMonth(period)! }

    /// `--as-of`, parsed.
    var asOfDate: LocalDate? { asOf.flatMap { LocalDate.parse($0) } }
}

/// Runs `body`, turning tally's errors into a one-line reason on stderr and a
/// documented exit code.
func runReportingErrors<T>(prefix: String = "tally", _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as ExitCode {
        throw error
    } catch {
        let (code, message) = ExitStatus.classify(error)
        FileHandle.standardError.write(Data("\(prefix): \(message)\n".utf8))
        throw ExitCode(code)
    }
}
