import Dispatch
import Foundation
import Logging
import TallyCore
import TallyReports
import TallyWarehouse

/// Monthly couple statements: the family's rules, partitions, merge and
/// finalisation are ``StatementsFamily`` (TallyCore); its renderers
/// ``StatementsCSV``, ``StatementsWorkbook``, ``StatementText`` and
/// ``CoupleWorkbook`` (TallyReports). Couple keys stream from the warehouse
/// one at a time with their rows as read (``CoupleRows``), are computed on
/// every core (``StatementsFamily/compute(key:)``), and are written in
/// couple order.
///
/// Writes `statements/balances.csv`, `transfers.csv`, `categories.csv`,
/// `categories_by_member.csv`, `statements.xlsx` (the studio's overview) and
/// one `<coupleId>.txt` per couple, and with `statements.coupleWorkbooks` one
/// `<coupleId>.xlsx` per couple (both written on the computing threads, beside
/// the statements; a couple that no longer exists loses both files).
struct StatementsStage: ReportStage {
    let name = "statements"
    let datasets: Set<String> = ["expenses"]
    let derivedTables: Set<DerivedTable> = [.expenseWinners]

    func run(_ context: ReportContext) throws -> ReportOutcome {
        try context.reads.read { reader in try run(reader, context) }
    }

    private func run(_ reader: WarehouseReader, _ context: ReportContext) throws -> ReportOutcome {
        let (config, locale, period, progress) = (context.config, context.locale, context.period, context.progress)
        let started = Date()
        let coupleWorkbooks = config.statements.coupleWorkbooks
        let folder = CoupleStatementFiles.folder(in: context.outDirectory)
        // A folder this run makes holds no earlier statement to compare with.
        let folderIsNew = !FileManager.default.fileExists(atPath: folder.path)
        let labels = config.categoryLabels(locale)
        let output = try StatementsOutput(outDirectory: context.outDirectory, locale: locale, categories: labels, period: period,
                                          outputs: context.outputs, coupleWorkbooks: coupleWorkbooks)
        let family = try Self.family(reader, config: config, period: period)
        progress.begin("statements")

        // Per couple, in parallel: the family's computation, the couple's text
        // file and (when on) its workbook; in couple order: the rows written, the summary merged.
        let batches = PartitionBatches<CoupleRows, CoupleResult>(compute: { rows in
            let computed = family.compute(key: rows)
            // Rows that belong to no statement join the family's rejects.
            guard var result = computed.statement else { return CoupleResult(unattached: computed.unattached) }
            result.summary.merge(computed.unattached)
            var workbook: Result<HandedOver<AtomicFile>, Error>?
            var seconds = 0.0
            if coupleWorkbooks {
                let started = DispatchTime.now().uptimeNanoseconds
                let statement = result.rows.statement
                workbook = Result { HandedOver(value: try CoupleStatementFiles.workbook(statement, locale: locale, categories: labels, folder: folder, folderExists: true)) }
                seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            }
            let rendered = StatementText.render(result.rows.statement, locale: locale, categories: labels)
            result.rows.statement.itemised = nil   // written: not held while the batch waits to be consumed
            let text = Result { HandedOver(value: try CoupleStatementFiles.text(result.rows.statement, rendered: rendered,
                                                                                folder: folder, folderExists: true,
                                                                                folderIsNew: folderIsNew)) }
            return CoupleResult(family: result, text: text, workbook: workbook, workbookSeconds: seconds)
        }, consume: { result in
            guard let family = result.family, let text = result.text else { return output.merge(result.unattached) }
            try output.add(family, textFile: try text.get().value, workbook: try result.workbook?.get().value,
                           workbookSeconds: result.workbookSeconds)
            progress.update("statements", bytes: 0, rows: output.couples, detail: "couples")
        })
        try reader.forEachCoupleKey { try batches.add($0) }
        try batches.flush()
        let outcome = try output.finish(family, started: started)
        let seconds = String(format: "%.3f", Date().timeIntervalSince(started))
        if coupleWorkbooks {
            progress.step(["stage": "statements", "couples": "\(output.couples)", "seconds": seconds,
                           "couple_workbooks": "\(output.workbooks)",
                           "couple_workbook_seconds": String(format: "%.3f", output.workbookSeconds)])
        } else {
            progress.step(["stage": "statements", "couples": "\(output.couples)", "seconds": seconds])
        }
        return outcome
    }

    /// The family for `period`: the statements' settings and the fx rates every couple reads.
    static func family(_ reader: WarehouseReader, config: TallyConfig, period: YearMonth) throws -> StatementsFamily {
        StatementsFamily(settings: .init(
            period: period, fx: FxTable(try reader.fxRates()), trendMonths: config.statements.trendMonths,
            exactTransferLimit: config.statements.exactTransferLimit, itemised: true))
    }

    /// What the computing threads hand over for one couple.
    private struct CoupleResult: Sendable {
        /// The couple's statement; nil for a key no couple has.
        var family: PartitionResult<StatementsFamily.Rows, StatementsFamily.Summary>?
        /// The rejects of a key no couple has.
        var unattached = StatementsFamily.Summary()
        /// The couple's text in its temporary file, or why it could not be written.
        var text: Result<HandedOver<AtomicFile>, Error>?
        /// The couple's workbook in its temporary file, or why it could not be written; nil when off.
        var workbook: Result<HandedOver<AtomicFile>, Error>?
        var workbookSeconds = 0.0

        init(family: PartitionResult<StatementsFamily.Rows, StatementsFamily.Summary>, text: Result<HandedOver<AtomicFile>, Error>,
             workbook: Result<HandedOver<AtomicFile>, Error>?, workbookSeconds: Double) {
            self.family = family
            self.text = text
            self.workbook = workbook
            self.workbookSeconds = workbookSeconds
        }

        init(unattached: StatementsFamily.Summary) { self.unattached = unattached }
    }
}
