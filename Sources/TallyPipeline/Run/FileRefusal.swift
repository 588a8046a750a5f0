import TallyIngest
import TallyWarehouse

/// An input file refused as a whole: it cannot be used at all (a required
/// column missing, a header in another delimiter, not UTF-8, unreadable gzip
/// or zip, an Apple Health export with a DTD entity, an App Store Connect
/// header that matches no report), so it is one entry in `rejects.csv` and
/// `run.json` with a reason a person can act on, not thousands of row
/// rejects and not the end of the run. The warehouse records it as a
/// ``TallyWarehouse/RefusedFile``; the ingest throws it when the problem
/// shows after the file's first rows were stored.
///
/// A refused file loads no row and unloads nothing: the version of it loaded
/// before (same path) stays in the warehouse with its rows. When there is no
/// such version, the report families that read its dataset keep the reports
/// already in the out folder (``TallyRunner``).
///
/// ```swift
/// // expenses/couples.csv saved by Excel in pt-BR:
/// // reason == "the header is separated by ';' as Excel writes CSV in some locales; tally reads ',': …"
/// ```
public typealias FileRefusal = RefusedFile

extension RefusedFile: Error, CustomStringConvertible {
    /// `<path in its data folder>: <reason>`.
    public var description: String { "\(displayPath): \(reason)" }

    /// The reason to refuse a file that failed to load with `error`, when
    /// the error concerns the file as a whole (nil for every other error: a
    /// full disk, a broken warehouse, which stop the run).
    static func reason(for error: Error, path: String) -> String? {
        let text: String
        switch error {
        case let e as ReaderError: return e.reason
        case let e as AppleHealthExportError: text = e.description
        case let e as FlatXMLError: return e.description
        default: return nil
        }
        // Apple Health messages lead with the file's path.
        guard text.hasPrefix(path) else { return text }
        let rest = text.dropFirst(path.count)
        return String(rest.hasPrefix(": ") ? rest.dropFirst(2) : rest.hasPrefix(", ") ? rest.dropFirst(2) : rest)
    }
}
