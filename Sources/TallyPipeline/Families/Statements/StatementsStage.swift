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
        let folder = CoupleStatementFiles.folder(in: context.outDirectory).path
        // A folder this run makes holds no earlier statement to compare with.
        let folderIsNew = !FileManager.default.fileExists(atPath: folder)
        let fx = try reader.fxRates()
        let keys = StatementsKeys(config: config, locale: locale, period: period, fx: fx)
        // A couple's opening kept by an earlier run stands for its expenses before its month (KeptLedgers).
        let kept = try KeptLedgers(reader, settings: keys.family.settings, fx: fx)
        var written: [String: KeyStateSet.State] = [:]
        var fromOpenings = 0
        let output = try StatementsOutput(outDirectory: context.outDirectory, locale: locale, categories: keys.labels, period: period,
                                          outputs: context.outputs, coupleWorkbooks: keys.coupleWorkbooks)
        progress.begin("statements")

        // What each couple was sent the month before, to say when its opening differs, and what the set
        // kept for it: both taken couple by couple beside the scan.
        let published = try reader.publishedClosingCursor(month: period.adding(months: -1))
        let stored = try reader.keyStateCursor(family: KeptLedgers.family)
        // `rows` as the scan read them: from the month of the kept openings for a couple it reads so
        // (`fromMonth`), with what the set kept for it (`stored`).
        @Sendable func compute(_ rows: CoupleRows, fromMonth: Bool, stored: KeyStateSet.State?)
            -> Result<(StatementsKeys.Outcome, KeyStateSet.State?), Error>
        {
            var rows = rows
            if fromMonth {
                guard let opening = kept.opening(rows, stored: stored) else {
                    return .success((StatementsKeys.Outcome(needsAllRows: true), nil))
                }
                rows.opening = opening
            }
            return Result {
                var outcome = try keys.compute(rows, folder: folder, folderExists: true, folderIsNew: folderIsNew)
                let state = outcome.needsAllRows ? nil : kept.state(rows, closing: outcome.closing)
                outcome.closing = nil   // kept as its state: not held while the result waits to be consumed
                return (outcome, state)
            }
        }
        // Per couple, in parallel: the family's computation and the couple's own
        // files; in couple order: the rows written, the summary merged.
        typealias Computed = (key: String, published: PublishedClosing?, computed: Result<(StatementsKeys.Outcome, KeyStateSet.State?), Error>)
        let batches = PartitionBatches<CoupleWork, Computed>(rows: \.rows.rowCount, compute: { work in
            (work.rows.key, work.rows.published, compute(work.rows, fromMonth: kept.readsFromMonth(work.rows.key), stored: work.stored))
        }, consume: { key, sent, computed in
            var (outcome, state) = try computed.get()
            if outcome.needsAllRows {
                // The kept opening does not stand for this couple: its every row, read again.
                var all = CoupleRows(key: key)
                try reader.forEachCoupleKey(only: key) { all = $0 }
                all.published = sent
                (outcome, state) = try compute(all, fromMonth: false, stored: nil).get()
            } else if kept.readsFromMonth(key) {
                fromOpenings += 1
            }
            if let state { written[key] = state }
            guard let result = outcome.result, let text = outcome.text else { return output.merge(outcome.unattached) }
            try output.add(result, textFile: text.value, workbook: outcome.workbook?.value, workbookSeconds: outcome.workbookSeconds)
            progress.update("statements", bytes: 0, rows: output.couples, detail: "couples")
        })
        try reader.forEachCoupleKey(openings: kept.openings) { rows in
            var rows = rows
            rows.published = try published.take(key: rows.key)
            try batches.add(CoupleWork(rows: rows, stored: kept.readsFromMonth(rows.key) ? try stored.take(key: rows.key) : nil))
        }
        try batches.flush()
        var outcome = try output.finish(keys.family, started: started)
        outcome.keyStates = [kept.update(written)]
        let seconds = String(format: "%.3f", Date().timeIntervalSince(started))
        if coupleWorkbooks {
            progress.step(["stage": "statements", "couples": "\(output.couples)", "from_openings": "\(fromOpenings)",
                           "seconds": seconds, "couple_workbooks": "\(output.workbooks)",
                           "couple_workbook_seconds": String(format: "%.3f", output.workbookSeconds)])
        } else {
            progress.step(["stage": "statements", "couples": "\(output.couples)", "from_openings": "\(fromOpenings)",
                           "seconds": seconds])
        }
        return outcome
    }
}

/// One couple key as the warehouse's scan hands it over: its rows and,
/// when the scan read its expenses from the kept openings' month on, what
/// the set kept for it (``KeptLedgers``).
struct CoupleWork: Sendable {
    var rows: CoupleRows
    var stored: KeyStateSet.State?
}
