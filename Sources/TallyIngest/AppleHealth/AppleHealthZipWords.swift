import Foundation
import ZIPFoundation

extension AppleHealthExportReader {
    /// A zip failure in words (ZIPFoundation's errors print as case names).
    ///
    /// ```swift
    /// zipWords(Archive.ArchiveError.unreadableArchive)   // "not a zip file, or cut short"
    /// ```
    static func zipWords(_ error: Error) -> String {
        switch error {
        case Archive.ArchiveError.unreadableArchive, Archive.ArchiveError.missingEndOfCentralDirectoryRecord:
            return "not a zip file, or cut short"
        case Archive.ArchiveError.invalidCRC32: return "its data does not match its checksum: the file is damaged"
        case Archive.ArchiveError.invalidCompressionMethod: return "compressed with a method tally does not read"
        case is Archive.ArchiveError: return "its zip structure is damaged (\(error))"
        default: return "it cannot be read (\(error))"
        }
    }
}
