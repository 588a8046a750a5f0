import Dispatch
import Foundation
import Logging
import TallyCore
import TallyReports
import TallyWarehouse

/// Monthly couple statements: the family's rules, partitions, merge and
/// finalisation are ``StatementsFamily`` (TallyCore); its renderers
/// ``StatementsCSV``, ``StatementsWorkbook``, ``StatementText`` and
/// ``CoupleWorkbook`` (TallyReports). Couples stream from the warehouse one
/// at a time, are computed on every core, and are written in couple order.
///
/// Writes `statements/balances.csv`, `transfers.csv`, `categories.csv`,
/// `categories_by_member.csv`, `statements.xlsx` (the studio's overview) and
/// one `<coupleId>.txt` per couple, and with `statements.coupleWorkbooks` one
/// `<coupleId>.xlsx` per couple (written on the computing threads, beside
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
        let outDirectory = context.outDirectory
        let started = Date()
        let folder = CoupleStatementFiles.folder(in: outDirectory)
        // One <coupleId>.txt and (when on) .xlsx per couple; statements.xlsx is written every run.
        context.outputs.ownEntityFiles(in: folder, fileExtension: "txt")
        context.outputs.ownEntityFiles(in: folder, fileExtension: "xlsx")
        let csv = try StatementsCSV(folder: folder)
        let workbookFile = try AtomicFile(destination: folder.appendingPathComponent("statements.xlsx"))
        let workbook = try StatementsWorkbook(path: workbookFile.temporary.path, locale: locale, period: period)

        let family = try Self.family(reader, config: config, period: period)
        // Rows whose couple does not exist belong to no partition: they join the family's rejects.
        var summary = family.emptySummary()
        summary.rejects.merge(RejectList(try reader.unattachedExpenseRejects()))
        var textFiles = 0
        var workbooks = 0
        var workbookSeconds = 0.0
        progress.begin("statements")

        // Per couple, in parallel: the family's computation, the couple's text
        // and (when on) its workbook; in couple order: the rows written, the summary merged.
        let coupleWorkbooks = config.statements.coupleWorkbooks
        let batches = PartitionBatches<CouplePartition, CoupleResult>(compute: { partition in
            var result = family.compute(partition)
            var workbook: Result<HandedOver<AtomicFile>, Error>?
            var seconds = 0.0
            if coupleWorkbooks {
                let started = DispatchTime.now().uptimeNanoseconds
                let statement = result.rows.statement
                workbook = Result { HandedOver(value: try CoupleStatementFiles.workbook(statement, locale: locale, folder: folder)) }
                seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
                result.rows.statement.itemised = nil   // written: not held while the batch waits to be consumed
            }
            return CoupleResult(family: result, text: StatementText.render(result.rows.statement, locale: locale),
                                workbook: workbook, workbookSeconds: seconds)
        }, consume: { result in
            let statement = result.family.rows.statement
            if let workbook = result.workbook {
                context.outputs.add(try workbook.get().value)
                workbooks += 1
                workbookSeconds += result.workbookSeconds
            }
            try csv.add(statement, period: period)
            try workbook.add(statement)
            context.outputs.add(try CoupleStatementFiles.text(statement, rendered: result.text, folder: folder))
            textFiles += 1
            summary.merge(result.family.summary)
            progress.update("statements", bytes: 0, rows: summary.totals.couples, detail: "couples")
        })
        try reader.forEachCouple { try batches.add($0) }
        try batches.flush()
        do {
            try workbook.close()
        } catch {
            throw OutputError("cannot write \(workbookFile.destination.path): \(error)")
        }
        for writer in csv.writers { try context.outputs.add(writer) }
        context.outputs.add(workbookFile)

        let report = family.finalise(summary)
        let couples = report.totals.couples
        let checks = [Reconciliation.couplesCheck(report.problems, couples: couples)]
        let outputs: [RunManifest.Output] = [
            .init(path: "statements/balances.csv", rows: csv.balances.rowCount),
            .init(path: "statements/categories.csv", rows: csv.categories.rowCount),
            .init(path: "statements/categories_by_member.csv", rows: csv.byMember.rowCount),
            .init(path: "statements/statements.xlsx", rows: nil),
            .init(path: "statements/transfers.csv", rows: csv.transfers.rowCount),
            .init(path: "statements/<coupleId>.txt", rows: textFiles),
        ] + (coupleWorkbooks ? [.init(path: "statements/<coupleId>.xlsx", rows: workbooks)] : [])
        let seconds = String(format: "%.3f", Date().timeIntervalSince(started))
        // The workbooks' cost is their writing time summed over the computing threads.
        var details: [RunManifest.Stage] = []
        if coupleWorkbooks {
            progress.step(["stage": "statements", "couples": "\(couples)", "seconds": seconds, "couple_workbooks": "\(workbooks)",
                           "couple_workbook_seconds": String(format: "%.3f", workbookSeconds)])
            details.append(.init(name: "statements: couple workbooks (thread time)", seconds: workbookSeconds, rows: workbooks))
        } else {
            progress.step(["stage": "statements", "couples": "\(couples)", "seconds": seconds])
        }
        return ReportOutcome(name: name, rejects: report.rejects, outputs: outputs, checks: checks,
                             summary: StatementsSummary.lines(report.totals), rows: couples,
                             seconds: Date().timeIntervalSince(started), detailStages: details)
    }

    /// The family for `period`: the statements' settings and the fx rates every couple reads.
    static func family(_ reader: WarehouseReader, config: TallyConfig, period: YearMonth) throws -> StatementsFamily {
        StatementsFamily(settings: .init(
            period: period, fx: FxTable(try reader.fxRates()), trendMonths: config.statements.trendMonths,
            exactTransferLimit: config.statements.exactTransferLimit, itemised: config.statements.coupleWorkbooks))
    }

    /// What the computing threads hand over for one couple.
    private struct CoupleResult: Sendable {
        var family: PartitionResult<StatementsFamily.Rows, StatementsFamily.Summary>
        var text: String
        /// The couple's workbook in its temporary file, or why it could not be written; nil when off.
        var workbook: Result<HandedOver<AtomicFile>, Error>?
        var workbookSeconds: Double
    }
}
