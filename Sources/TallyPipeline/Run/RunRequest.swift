import Foundation
import TallyCore

/// What a `tally run`, `ingest` or `report` was asked to do.
public struct RunRequest: Sendable {
    /// The data folder (one sub-folder per dataset).
    public var dataDirectory: URL?
    /// Where reports go.
    public var outDirectory: URL
    /// The month reported (not needed to ingest).
    public var period: YearMonth?
    /// The warehouse file; default `.tally/<root>.sqlite` beside the reports'
    /// root (``WarehouseLocation``).
    public var databasePath: String?
    /// `tally.yml`; default `<data>/tally.yml` when present, else built-in defaults.
    public var configURL: URL?
    /// The configuration's text and file name, when it travels without its
    /// file (in a dataflow plan); it takes the place of ``configURL``.
    public var configText: (file: String, text: String)?
    /// Overrides the configured report time zone.
    public var timezone: String?
    /// Leave run-specific facts (timings, files skipped as unchanged) out of run.json.
    public var reproducible: Bool
    /// The day leaderboards are computed as of (`--as-of`); default the period's last day.
    public var asOf: LocalDate?
    /// Keep the reports already in the out folder when nothing they depend on
    /// changed (see `ReportReuse`); false rebuilds them (`--rebuild-reports`).
    public var reuseReports = true

    public init(dataDirectory: URL?, outDirectory: URL, period: YearMonth?, databasePath: String? = nil,
                configURL: URL? = nil, timezone: String? = nil, reproducible: Bool = false, asOf: LocalDate? = nil) {
        self.dataDirectory = dataDirectory
        self.outDirectory = outDirectory
        self.period = period
        self.databasePath = databasePath
        self.configURL = configURL
        self.timezone = timezone
        self.reproducible = reproducible
        self.asOf = asOf
    }

    /// The warehouse path in effect.
    public var resolvedDatabasePath: String {
        databasePath ?? WarehouseLocation.defaultPath(out: outDirectory)
    }

    /// The configuration file in effect, if any.
    public var resolvedConfigURL: URL? {
        if let configURL { return configURL }
        guard let data = dataDirectory?.appendingPathComponent("tally.yml"),
              FileManager.default.fileExists(atPath: data.path) else { return nil }
        return data
    }
}
