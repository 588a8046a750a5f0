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
    /// (6 for the `studio` shape, whose anchor month ends on the 15th), unless `months` says otherwise.
    public let anchorMonth: YearMonth
    /// Months of data, ending with the anchor month: the scale and shape's own unless given.
    public let months: Int
    /// What `months` may be.
    public static let monthsRange: ClosedRange<Int> = 1...120
    /// The sizes over ``months`` (see ``ScaleProfile/over(months:anchorMonth:)``).
    let profile: ScaleProfile
    /// The months of the scale and shape's own window.
    let ownMonths: Int

    /// `months` (1 to 120) sets how many months the data covers, ending with `anchorMonth`; the
    /// customers stay those of the scale and shape, and each month gets the volume their own window
    /// gives a month, so the data grows with the months. `nil` is the scale and shape's own window.
    public init(seed: UInt64, scale: GeneratorScale, shape: GeneratorShape = .default,
                anchorMonth: YearMonth = YearMonth(year: 2026, month: 10)!, months: Int? = nil) {
        self.init(seed: seed, scale: scale, shape: shape, anchorMonth: anchorMonth,
                  profile: ScaleProfile.of(scale, shape: shape), months: months)
    }

    /// A generator of `shape` (any but `default`) at `factor` times its `medium` size: `small` is 0.01,
    /// `large` 5; tests use tiny factors, and a bench may take one between (0.1).
    public init(seed: UInt64, shape: GeneratorShape, factor: Double, anchorMonth: YearMonth = YearMonth(year: 2026, month: 10)!,
                months: Int? = nil) {
        precondition(shape != .default, "the default shape has its own scales, not a factor")
        self.init(seed: seed, scale: .small, shape: shape, anchorMonth: anchorMonth,
                  profile: ScaleProfile.of(.small, shape: shape, factor: factor), months: months)
    }

    private init(seed: UInt64, scale: GeneratorScale, shape: GeneratorShape, anchorMonth: YearMonth, profile: ScaleProfile,
                 months: Int?) {
        if let months { precondition(Self.monthsRange.contains(months), "months must be within \(Self.monthsRange)") }
        self.seed = seed
        self.scale = scale
        self.shape = shape
        self.anchorMonth = anchorMonth
        self.ownMonths = profile.months
        self.profile = months.map { profile.over(months: $0, anchorMonth: anchorMonth) } ?? profile
        self.months = self.profile.months
    }

    /// Writes every table under `directory` (created if needed; files of the
    /// same names are overwritten) and reports what it wrote. `progress`
    /// receives a line per file as it is finished.
    public func generate(to directory: URL, progress: ((String) -> Void)? = nil) throws -> GenerationSummary {
        let window = GenerationWindow(anchorMonth: anchorMonth, months: profile.months, anchorMonthDays: profile.anchorMonthDays)
        let ownWindow = GenerationWindow(anchorMonth: anchorMonth, months: ownMonths, anchorMonthDays: profile.anchorMonthDays)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let context = GenerationContext(seed: seed, profile: profile, window: window, ownWindow: ownWindow,
                                        directory: directory, progress: progress)
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
    /// The window of the scale and shape's own months (`window` itself unless `months` was given):
    /// the generators place things at the positions they have in it, moved or stretched onto `window`.
    let ownWindow: GenerationWindow
    let directory: URL
    let progress: ((String) -> Void)?

    /// `days` of the own window as days of this one, in proportion (at least 1): the first 40 days of
    /// a 196-day window are the first 200 of a 980-day one. `days` itself over the own window.
    func stretched(days: Int) -> Int { max(1, days * window.dayCount / ownWindow.dayCount) }

    /// `months` months of the own window as months of this one, rounded: `months` itself over the own window.
    func stretched(months: Int) -> Int {
        Int((Double(months) * Double(window.months.count) / Double(ownWindow.months.count)).rounded())
    }

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
