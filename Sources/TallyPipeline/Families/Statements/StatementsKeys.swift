import Dispatch
import Foundation
import TallyCore
import TallyReports

/// The statements family's work on one couple key, whichever transport
/// brought the key's rows (a warehouse scan for `tally run` and
/// `tally statement`, routed records for a dataflow worker): the family's
/// computation (``StatementsFamily/compute(key:)``, called here and nowhere
/// else) and the couple's own files, its text and (when on) its workbook,
/// written to temporary names in `folder` for the caller to place.
///
/// ```swift
/// let keys = StatementsKeys(config: config, locale: locale, period: period, fx: fxRates)
/// let outcome = try keys.compute(coupleRows, folder: folder.path)
/// ```
struct StatementsKeys: Sendable {
    let family: StatementsFamily
    let locale: ReportLocale
    let labels: CategoryLabels
    /// Whether each couple's workbook is written beside its text.
    let coupleWorkbooks: Bool

    /// The statements of `period` under `config`, every couple reading the rates `fx`.
    init(config: TallyConfig, locale: ReportLocale, period: YearMonth, fx: [FxRate], coupleWorkbooks: Bool? = nil) {
        family = StatementsFamily(settings: .init(
            period: period, fx: FxTable(fx), trendMonths: config.statements.trendMonths,
            exactTransferLimit: config.statements.exactTransferLimit, itemised: true))
        self.locale = locale
        labels = config.categoryLabels(locale)
        self.coupleWorkbooks = coupleWorkbooks ?? config.statements.coupleWorkbooks
    }

    /// What one couple key gives.
    struct Outcome: Sendable {
        /// The couple's statement and its part of the family's summary (its
        /// unattached rows merged in); nil for a key no couple has.
        var result: PartitionResult<StatementsFamily.Rows, StatementsFamily.Summary>?
        /// The rejects of a key no couple has.
        var unattached = StatementsFamily.Summary()
        /// The couple's text, written under its temporary name.
        var text: HandedOver<AtomicFile>?
        /// The couple's workbook, written under its temporary name; nil when off.
        var workbook: HandedOver<AtomicFile>?
        /// The time the workbook took to write.
        var workbookSeconds = 0.0
        /// The couple's opening of the month after the period (``TallyCore/LedgerOpening``).
        var closing: LedgerOpening?
        /// Whether the rows came with an opening that does not stand: nothing
        /// was computed, and the key's every row is needed.
        var needsAllRows = false
    }

    /// Computes the couple key of `rows` and writes its files into `folder`
    /// (`folderExists` spares a check per couple, `folderIsNew` the look for
    /// an earlier file). The statement handed back keeps no itemised month:
    /// it is written already.
    func compute(_ rows: CoupleRows, folder: String, folderExists: Bool = false, folderIsNew: Bool = false) throws -> Outcome {
        let computed = family.compute(key: rows)
        if computed.needsAllRows { return Outcome(needsAllRows: true) }
        // Rows that belong to no statement join the family's rejects.
        guard var result = computed.statement else { return Outcome(unattached: computed.unattached) }
        result.summary.merge(computed.unattached)
        var outcome = Outcome(closing: computed.closing)
        if coupleWorkbooks {
            let started = DispatchTime.now().uptimeNanoseconds
            outcome.workbook = HandedOver(value: try CoupleStatementFiles.workbook(
                result.rows.statement, locale: locale, categories: labels, folder: folder, folderExists: folderExists))
            outcome.workbookSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        }
        let rendered = StatementText.renderUTF8(result.rows.statement, locale: locale, categories: labels)
        result.rows.statement.itemised = nil   // written: not held while the result waits to be consumed
        outcome.text = HandedOver(value: try CoupleStatementFiles.text(result.rows.statement, rendered: rendered, folder: folder,
                                                                      folderExists: folderExists, folderIsNew: folderIsNew))
        outcome.result = result
        return outcome
    }
}
