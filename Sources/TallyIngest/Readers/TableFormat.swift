/// The syntax of a table file, independent of compression.
public enum TableFormat: Equatable, Sendable {
    /// RFC 4180 comma-separated values with a header row.
    case csv
    /// One JSON object per line (`.ndjson` or `.jsonl`).
    case ndjson
}

/// A table file name taken apart: `expenses.csv.gz` is the table `expenses`, in
/// CSV, gzip-compressed.
///
/// Supported extensions (case-insensitive): `.csv`, `.csv.gz`, `.ndjson`,
/// `.jsonl`, `.ndjson.gz`, `.jsonl.gz`.
public struct TableFileName: Equatable, Sendable {
    /// The file name without its extensions (`expenses`).
    public let table: String
    /// The syntax of the file.
    public let format: TableFormat
    /// Whether the file is gzip-compressed.
    public let isCompressed: Bool

    /// Parses a file name (the last path component), or returns nil when its
    /// extension is not supported or nothing precedes it.
    public init?(_ fileName: String) {
        let lower = fileName.lowercased()
        let known: [(suffix: String, format: TableFormat, compressed: Bool)] = [
            (".csv.gz", .csv, true), (".ndjson.gz", .ndjson, true), (".jsonl.gz", .ndjson, true),
            (".csv", .csv, false), (".ndjson", .ndjson, false), (".jsonl", .ndjson, false),
        ]
        guard let match = known.first(where: { lower.hasSuffix($0.suffix) }) else { return nil }
        // The suffixes are ASCII, so lowercasing kept their length in UTF-8.
        let tableBytes = fileName.utf8.count - match.suffix.utf8.count
        guard tableBytes > 0 else { return nil }
        table = String(decoding: fileName.utf8.prefix(tableBytes), as: UTF8.self)
        format = match.format
        isCompressed = match.compressed
    }
}
