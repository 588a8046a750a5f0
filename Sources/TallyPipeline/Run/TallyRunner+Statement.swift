import Foundation
import TallyCore
import TallyReports
import TallyWarehouse

/// Why `tally statement` could not write a statement: no warehouse where it
/// was looked for (exit code 66, like a missing data folder), or no such
/// couple in it (exit code 1).
public struct StatementRequestError: Error, CustomStringConvertible, Sendable {
    public var description: String
    /// True when the warehouse file does not exist.
    public var warehouseMissing: Bool
}

extension TallyRunner {
    /// What `tally statement` wrote.
    public struct StatementOutcome: Sendable {
        /// The files written, relative to the out folder (`statements/c1.xlsx`, `statements/c1.txt`).
        public var files: [String]
        /// Rows of the couple that could not be used (each is in a full run's rejects.csv).
        public var rejects: Int
    }

    /// Writes one couple's statement for `request.period` from what the
    /// warehouse holds, whatever `statements.coupleWorkbooks` says:
    /// `statements/<coupleId>.xlsx` and `.txt` under `request.outDirectory`,
    /// each through a temporary file, other reports untouched.
    ///
    /// The statement is the one a `tally report` for the period writes for
    /// the couple (the same rules over the same rows).
    /// - Throws: ``StatementRequestError`` when the warehouse does not exist or
    ///   holds no couple `coupleId`; configuration, warehouse and output errors.
    public func statement(coupleId: String, _ request: RunRequest) throws -> StatementOutcome {
        let config = try configuration(request)
        guard let period = request.period else { throw ConfigError("a statement needs a --period YYYY-MM") }
        guard let locale = ReportLocale(identifier: config.locale) else {
            throw ConfigError("locale '\(config.locale)' is not one of pt-BR, en-US, es-ES")
        }
        let path = request.resolvedDatabasePath
        guard FileManager.default.fileExists(atPath: path) else {
            throw StatementRequestError(
                description: "no warehouse at \(path): load the data first (tally ingest --data DIR, or tally run), or name it with --db",
                warehouseMissing: true)
        }
        let warehouse = try Warehouse(path: path)
        // A run stopped before rebuilding the derived tables leaves them to its successor.
        _ = try RunGraph.derive(try warehouse.pendingDerivations(), in: warehouse)
        let (fx, rows) = try warehouse.read { reader -> ([FxRate], CoupleRows?) in
            var found: CoupleRows?
            try reader.forEachCoupleKey(only: coupleId) { found = $0 }
            // As in a run: the closing the couple was sent the month before, to say when the opening differs.
            found?.published = try reader.publishedClosingCursor(month: period.adding(months: -1), only: coupleId).take(key: coupleId)
            return (try reader.fxRates(), found)
        }
        let keys = StatementsKeys(config: config, locale: locale, period: period, fx: fx, coupleWorkbooks: true)
        let folder = CoupleStatementFiles.folder(in: request.outDirectory)
        let missing = StatementRequestError(description: "no couple '\(coupleId)' in the warehouse \(path)", warehouseMissing: false)
        guard let rows else { throw missing }
        let outcome = try keys.compute(rows, folder: folder.path)
        guard let result = outcome.result else { throw missing }
        let outputs = OutputSet()
        let files = [outcome.workbook, outcome.text].compactMap { $0?.value }
        files.forEach(outputs.add)
        try outputs.commit()
        try AtomicFile.syncFileSystem(containing: folder)
        return StatementOutcome(files: files.map { "statements/" + $0.destination.lastPathComponent },
                                rejects: result.rows.rejects.count)
    }
}
