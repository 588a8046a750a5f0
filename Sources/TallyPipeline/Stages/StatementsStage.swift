import Dispatch
import Foundation
import Logging
import TallyCore
import TallyReports
import TallyWarehouse

/// Monthly couple statements: for each couple (the unit of work), resolve its
/// loaded rows into a ledger, build the month's statement, and stream it to
/// every writer. Memory holds one couple at a time.
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
        let currency = { (c: Couple) in c.currency.code }
        let p = period.description

        let balances = try CSVWriter(url: folder.appendingPathComponent("balances.csv"), columns: [
            "coupleId", "period", "memberId", .text("displayName"), "currency", "opening", "paid", "share",
            "settlementsSent", "settlementsReceived", "closing"])
        let transfers = try CSVWriter(url: folder.appendingPathComponent("transfers.csv"), columns: [
            "coupleId", "period", "fromMember", "toMember", "amount", "currency", "method"])
        let categories = try CSVWriter(url: folder.appendingPathComponent("categories.csv"), columns: [
            "coupleId", "period", .text("tag"), "amount", "currency"])
        let byMember = try CSVWriter(url: folder.appendingPathComponent("categories_by_member.csv"), columns: [
            "coupleId", "period", .text("tag"), "memberId", "share", "currency"])
        let workbookFile = try AtomicFile(destination: folder.appendingPathComponent("statements.xlsx"))
        let workbook = try StatementsWorkbook(path: workbookFile.temporary.path, locale: locale, period: period)

        let fx = FxTable(try reader.fxRates())
        var rejects = try reader.unattachedExpenseRejects()
        var totals = StatementTotals()
        var couples = 0
        var imbalanced: [String] = []
        var textFiles = 0
        var workbooks = 0
        var workbookSeconds = 0.0
        progress.begin("statements")

        // Per couple, in parallel: resolve the loaded rows, build the statement,
        // render its text and (when on) write its workbook.
        let trendMonths = config.statements.trendMonths
        let exactLimit = config.statements.exactTransferLimit
        let coupleWorkbooks = config.statements.coupleWorkbooks
        let batches = PartitionBatches<CouplePartition, CoupleResult>(compute: { partition in
            let resolution = LedgerResolver.resolve(
                couple: partition.couple, members: partition.members, expenses: partition.expenses,
                settlements: partition.settlements, agreements: partition.agreements, fx: fx)
            var statement = StatementBuilder.build(resolution.ledger, period: period, fx: fx, trendMonths: trendMonths,
                                                   exactTransferLimit: exactLimit, itemised: coupleWorkbooks)
            var workbook: Result<HandedOver<AtomicFile>, Error>?
            var seconds = 0.0
            if coupleWorkbooks {
                let started = DispatchTime.now().uptimeNanoseconds
                workbook = Result { HandedOver(value: try CoupleStatementFiles.workbook(statement, locale: locale, folder: folder)) }
                seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
                statement.itemised = nil   // written: not held while the batch waits to be consumed
            }
            return CoupleResult(statement: statement, rejects: resolution.rejects + statement.rejects,
                                text: StatementText.render(statement, locale: locale), workbook: workbook, workbookSeconds: seconds)
        }, consume: { result in
            let statement = result.statement
            rejects += result.rejects
            if let workbook = result.workbook {
                context.outputs.add(try workbook.get().value)
                workbooks += 1
                workbookSeconds += result.workbookSeconds
            }

            // Reconciliation: the nets of a couple sum to zero, and the transfers zero them.
            if let problem = Reconciliation.coupleProblem(statement) { imbalanced.append(problem) }

            let code = currency(statement.couple)
            let cur = statement.couple.currency
            for line in statement.balances {
                try balances.writeRow([statement.couple.id, p, line.memberId, line.displayName, code,
                                       Money.plain(line.opening, cur), Money.plain(line.paid, cur),
                                       Money.plain(line.share, cur), Money.plain(line.settlementsSent, cur),
                                       Money.plain(line.settlementsReceived, cur), Money.plain(line.closing, cur)])
            }
            for t in statement.transfers {
                try transfers.writeRow([statement.couple.id, p, t.from, t.to, Money.plain(t.amount, cur), code,
                                        statement.method.rawValue])
            }
            for c in statement.categories {
                try categories.writeRow([statement.couple.id, p, c.tag, Money.plain(c.amount, cur), code])
                for line in statement.balances {
                    try byMember.writeRow([statement.couple.id, p, c.tag, line.memberId,
                                           Money.plain(c.shareByMember[line.memberId] ?? 0, cur), code])
                }
            }
            try workbook.add(statement)
            context.outputs.add(try CoupleStatementFiles.text(statement, rendered: result.text, folder: folder))
            textFiles += 1
            totals.add(statement)
            couples += 1
            progress.update("statements", bytes: 0, rows: couples, detail: "couples")
        })
        try reader.forEachCouple { try batches.add($0) }
        try batches.flush()
        do {
            try workbook.close()
        } catch {
            throw OutputError("cannot write \(workbookFile.destination.path): \(error)")
        }
        for writer in [balances, transfers, categories, byMember] { try context.outputs.add(writer) }
        context.outputs.add(workbookFile)

        let checks = [Reconciliation.couplesCheck(imbalanced, couples: couples)]
        let outputs: [RunManifest.Output] = [
            .init(path: "statements/balances.csv", rows: balances.rowCount),
            .init(path: "statements/categories.csv", rows: categories.rowCount),
            .init(path: "statements/categories_by_member.csv", rows: byMember.rowCount),
            .init(path: "statements/statements.xlsx", rows: nil),
            .init(path: "statements/transfers.csv", rows: transfers.rowCount),
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
        return ReportOutcome(name: name, rejects: rejects, outputs: outputs, checks: checks,
                             summary: StatementsStage.summary(totals), rows: couples,
                             seconds: Date().timeIntervalSince(started), detailStages: details)
    }

    /// What the computing threads hand over for one couple.
    private struct CoupleResult: Sendable {
        var statement: CoupleStatement
        var rejects: [Reject]
        var text: String
        /// The couple's workbook in its temporary file, or why it could not be written; nil when off.
        var workbook: Result<HandedOver<AtomicFile>, Error>?
        var workbookSeconds: Double
    }

    /// The terminal summary (English, whatever the statements' locale): counts,
    /// then one line per currency with its spending and the top three
    /// categories; the bars are in the statements themselves.
    static func summary(_ totals: StatementTotals) -> [String] {
        var out = ["statements: \(totals.couples) couples, \(totals.members) members, \(totals.expenses) expenses, \(totals.transfers) suggested transfers"
                   + (totals.greedyStatements > 0 ? " (\(totals.greedyStatements) large groups settled greedily)" : "")]
        for currency in totals.currencies {
            let top = totals.spendingByTag(in: currency).prefix(3)
            guard !top.isEmpty else { continue }
            out.append("  spent \(Money.plain(totals.spending(in: currency), currency)) \(currency.code); top: "
                       + top.map { "\($0.tag.isEmpty ? "untagged" : $0.tag) \(Money.plain($0.amount, currency))" }.joined(separator: ", "))
        }
        return out
    }
}
