import Foundation
import TallyCore

/// Writes a deterministic, realistic data folder for all five datasets
/// (`expenses/`, `health/`, `swipes/`, `checkins/`, `subscriptions/`), in the
/// layout and spellings of the data contract, including the awkward rows real
/// exports have (see ``BadRowKind``).
///
/// The same seed and scale always give byte-identical files: the generator
/// uses its own PRNG (xoshiro256** seeded by SplitMix64, one stream per
/// dataset), never reads the clock, and writes gzip with modification time 0.
/// Rows are streamed to buffered files; no table is held in memory.
public struct DataGenerator: Sendable {
    public let seed: UInt64
    public let scale: GeneratorScale
    public let shape: GeneratorShape
    /// The last month with data; data starts 7 (small) or 11 months earlier
    /// (6 for the `studio` shape, whose anchor month ends on the 15th).
    public let anchorMonth: YearMonth
    let profile: ScaleProfile

    public init(seed: UInt64, scale: GeneratorScale, shape: GeneratorShape = .default,
                anchorMonth: YearMonth = YearMonth(year: 2026, month: 10)!) {
        self.init(seed: seed, scale: scale, shape: shape, anchorMonth: anchorMonth,
                  profile: ScaleProfile.of(scale, shape: shape))
    }

    /// A generator of `shape` at `factor` times its `medium` size (tests use tiny factors).
    init(seed: UInt64, shape: GeneratorShape, factor: Double, anchorMonth: YearMonth = YearMonth(year: 2026, month: 10)!) {
        self.init(seed: seed, scale: .small, shape: shape, anchorMonth: anchorMonth,
                  profile: ScaleProfile.of(.small, shape: shape, factor: factor))
    }

    private init(seed: UInt64, scale: GeneratorScale, shape: GeneratorShape, anchorMonth: YearMonth, profile: ScaleProfile) {
        self.seed = seed
        self.scale = scale
        self.shape = shape
        self.anchorMonth = anchorMonth
        self.profile = profile
    }

    /// Writes every table under `directory` (created if needed; files of the
    /// same names are overwritten) and reports what it wrote. `progress`
    /// receives a line per file as it is finished.
    public func generate(to directory: URL, progress: ((String) -> Void)? = nil) throws -> GenerationSummary {
        let window = GenerationWindow(anchorMonth: anchorMonth, months: profile.months, anchorMonthDays: profile.anchorMonthDays)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let context = GenerationContext(seed: seed, profile: profile, window: window, directory: directory, progress: progress)
        var summary = GenerationSummary(seed: seed, scale: scale, shape: shape, anchorMonth: anchorMonth, firstMonth: window.firstMonth, lastDay: window.lastDay)
        try ExpensesGenerator(context: context).generate(into: &summary)
        try HealthGenerator(context: context).generate(into: &summary)
        try SwipesGenerator(context: context).generate(into: &summary)
        try CheckinsGenerator(context: context).generate(into: &summary)
        try SubscriptionsGenerator(context: context).generate(into: &summary)
        return summary
    }
}

/// What every dataset generator needs: the seed, the sizes, the time window and where to write.
struct GenerationContext {
    let seed: UInt64
    let profile: ScaleProfile
    let window: GenerationWindow
    let directory: URL
    let progress: ((String) -> Void)?

    /// The random stream of one dataset.
    func random(_ stream: UInt64) -> RandomSource { RandomSource(seed: seed, stream: stream) }

    /// Opens a table file under the output folder, gzip-compressed when its name ends in `.gz`.
    func open(_ path: String, format: String, crlf: Bool = false) throws -> TableFile {
        try TableFile(directory: directory, relativePath: path, formatNote: format, crlf: crlf,
                      gzipLevel: path.hasSuffix(".gz") ? profile.gzipLevel : nil)
    }

    /// Opens a zip file under the output folder whose entry `entry` receives the bytes written (see ``ZipFileWriter``).
    func openZip(_ path: String, entry: String, extras: [(path: String, bytes: [UInt8])], format: String) throws -> TableFile {
        try TableFile(directory: directory, relativePath: path, formatNote: format, zip: (entry, extras))
    }

    /// Closes `table`, adds it to the summary and reports progress.
    func finish(_ table: TableFile, into summary: inout GenerationSummary) throws {
        let file = try table.finish()
        summary.add(file)
        progress?("\(file.path): \(file.records) records, \(file.bytes) bytes")
    }

    /// The FypMatch user id of person `index` (shared by swipes, health and subscriptions).
    func fypMatchUser(_ index: Int) -> String { FirebaseID.uid(seed: seed, namespace: FirebaseID.fypMatch, index: index) }
}
