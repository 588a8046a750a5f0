import TallyIngest
import TallyPipeline
import TallyWarehouse

/// Maps errors to the exit codes documented in `tally --help` (sysexits.h values).
enum ExitStatus {
    static func classify(_ error: Error) -> (Int32, String) {
        switch error {
        case let e as ReconciliationError: return (65, e.description)
        case let e as CatalogError: return (66, e.description)
        case let e as StatementRequestError: return (e.warehouseMissing ? 66 : 1, e.description)
        case let e as WarehouseError: return (e.code == .busy ? 75 : 1, e.description)
        default: return (1, "\(error)")
        }
    }
}
