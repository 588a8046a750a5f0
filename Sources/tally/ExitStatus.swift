import TallyIngest
import TallyPipeline
import TallyReports
import TallyWarehouse

/// Maps errors to the exit codes documented in `tally --help` (sysexits.h values).
enum ExitStatus {
    /// Reports were written (or the ingest done), but some input file was
    /// refused as a whole: a script must look (rejects.csv, run.json → refused).
    /// Not a sysexits.h value: those mean the run failed, and this one did
    /// not; 1 and 2 are what shells and most tools use for errors and usage.
    static let inputRefused: Int32 = 3

    static func classify(_ error: Error) -> (Int32, String) {
        switch error {
        case let e as ReconciliationError: return (65, e.description)
        case let e as CatalogError: return (66, e.description)
        case let e as MissingInputError: return (66, e.description)
        case let e as StatementRequestError: return (e.warehouseMissing ? 66 : 1, e.description)
        case let e as WarehouseError: return (e.code == .busy ? 75 : 1, e.description)
        default:
            // A file-system failure Foundation reported: its path and cause in words, no error domain.
            if let words = FileSystemWords.describe(error) { return (1, words) }
            return (1, "\(error)")
        }
    }
}
