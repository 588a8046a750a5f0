import TallyCore

/// What ``DataGenerator/generate(to:progress:)`` wrote: every file with its
/// record count and size, and how many deliberately awkward rows of each kind
/// it planted (so tests and documentation can refer to them).
public struct GenerationSummary: Sendable, Equatable {
    /// One written file.
    public struct File: Sendable, Equatable {
        /// Relative to the output folder, with `/` separators (`swipes/swipes.ndjson.gz`).
        public let path: String
        /// How it is spelled (`CSV, UTF-8 BOM, CRLF, snake_case header`).
        public let format: String
        /// Data records: CSV rows after the header, NDJSON lines with an object
        /// (blank lines excluded), or `Record` elements of an Apple Health export.
        /// Malformed and repeated rows are included.
        public let records: Int
        /// Size on disk (compressed size for `.gz`).
        public let bytes: Int64

        public init(path: String, format: String, records: Int, bytes: Int64) {
            self.path = path
            self.format = format
            self.records = records
            self.bytes = bytes
        }
    }

    public let seed: UInt64
    public let scale: GeneratorScale
    public let shape: GeneratorShape
    public let anchorMonth: YearMonth
    /// The last day with data (the anchor month's last day unless the shape ends it earlier).
    public let lastDay: LocalDate
    /// The first month with data (the anchor month is the last).
    public let firstMonth: YearMonth
    /// Months with data, the first to the anchor month.
    public var months: Int { firstMonth.months(until: anchorMonth) + 1 }
    /// Files in the order they were written.
    public internal(set) var files: [File] = []
    /// Planted awkward rows by kind; every kind appears, at every scale.
    public internal(set) var badRows: [BadRowKind: Int] = [:]

    init(seed: UInt64, scale: GeneratorScale, shape: GeneratorShape, anchorMonth: YearMonth, firstMonth: YearMonth,
         lastDay: LocalDate) {
        self.seed = seed
        self.scale = scale
        self.shape = shape
        self.anchorMonth = anchorMonth
        self.firstMonth = firstMonth
        self.lastDay = lastDay
    }

    /// The file at `path` (relative), if written.
    public func file(_ path: String) -> File? { files.first { $0.path == path } }

    /// Bytes of all files.
    public var totalBytes: Int64 { files.reduce(0) { $0 + $1.bytes } }

    /// Planted rows of `kind`.
    public func count(_ kind: BadRowKind) -> Int { badRows[kind] ?? 0 }

    /// Rows a correct reader rejects in `file` (relative path), as planted. A plain
    /// `swipes/swipes.ndjson` (shapes that do not compress it) stands for the `.gz` kinds.
    public func expectedRejects(in file: String) -> Int {
        badRows.filter { ($0.key.file == file || $0.key.file == file + ".gz") && $0.key.outcome == .rejected }.reduce(0) { $0 + $1.value }
    }

    /// Rows a correct reader counts as superseded in `file` (relative path), as planted.
    public func expectedSuperseded(in file: String) -> Int {
        badRows.filter { ($0.key.file == file || $0.key.file == file + ".gz") && $0.key.outcome == .superseded }.reduce(0) { $0 + $1.value }
    }

    mutating func add(_ file: File) { files.append(file) }

    mutating func add(_ kind: BadRowKind, _ count: Int = 1) { badRows[kind, default: 0] += count }
}
