import Foundation

/// A failure that concerns a whole input file rather than one record: the file
/// cannot be opened or read, its gzip data is corrupt or truncated, its name has
/// no supported extension, or its CSV header row is unusable.
///
/// The description names the file, so it can go straight into the run log.
/// When ``TableReader/read(_:)`` throws one after some records were delivered,
/// the records before the failure were read correctly and the rest of the file
/// could not be.
public struct ReaderError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What went wrong, for callers that react differently to each case.
    public enum Kind: Equatable, Sendable {
        /// The file could not be opened (missing, no permission, …).
        case cannotOpen
        /// Reading the file failed after it was opened (I/O error, a directory, …).
        case cannotRead
        /// The gzip data is corrupt or ends before the compressed stream does.
        case corruptGzip
        /// The file name has none of the supported extensions.
        case unsupportedFileName
        /// The CSV header row is unusable (unterminated quote, invalid UTF-8, NUL,
        /// a field named twice, longer than the record limit).
        case badHeader
    }

    /// What went wrong.
    public let kind: Kind
    /// The file concerned.
    public let file: URL
    /// What went wrong, in words a person can act on (without the file name).
    public let reason: String

    /// Creates an error about `file`.
    public init(_ kind: Kind, file: URL, reason: String) {
        self.kind = kind
        self.file = file
        self.reason = reason
    }

    /// `<path>: <reason>`.
    public var description: String { "\(file.path): \(reason)" }
}
