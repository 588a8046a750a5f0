import Foundation
import TallyCore
import TallyReports

/// The KPIs family's files, written from its finalised report wherever it
/// was computed: `tally run` folds the family from the warehouse
/// (``KPIStage``), a dataflow schedule from routed records (``KPIMerge``).
/// Both write through this one type, so their files cannot differ by layout.
///
/// Writes `kpis/*.csv` (``KPICSV``), `kpis/kpis.xlsx` and `kpis/kpis.txt`,
/// handing each finished file to `outputs`, and checks that the MRR
/// movements add up.
///
/// ```swift
/// let outcome = try KPIOutput.write(family, summary, locale: locale, outDirectory: out, outputs: outputs, started: started)
/// ```
enum KPIOutput {
    /// `locale` decides only the workbook's paper (the KPIs are in English whatever the locale).
    ///
    /// `previousRun`: the last run published from the warehouse; its KPI
    /// figures of months this report also gives that read differently now are
    /// listed in the workbook and the text (``RunChanges``).
    static func write(_ family: KPIsFamily, _ summary: KPIsFamily.Summary, locale: ReportLocale, outDirectory: URL, outputs: OutputSet,
                      started: Date, previousRun: (period: YearMonth, figures: [RunFigure])? = nil) throws -> ReportOutcome {
        let final = family.finalise(summary)
        let report = final.kpis
        let figures = FamilyFigures.kpis(report)
        let restated = previousRun.map {
            RunChanges.between(figures, period: report.period, previous: $0, thresholds: .init()).restated
                .filter { $0.family == "kpis" }
        } ?? []
        let folder = outDirectory.appendingPathComponent("kpis")
        var files: [RunManifest.Output] = []
        for table in KPICSV.tables(report) {
            let writer = try table.layout.writer(in: folder)
            for row in table.rows { try writer.writeRow(row) }
            try outputs.add(writer)
            files.append(.init(path: "kpis/\(table.layout.name)", rows: writer.rowCount))
        }
        let workbookFile = try AtomicFile(destination: folder.appendingPathComponent("kpis.xlsx"))
        try KPIWorkbook.write(report, path: workbookFile.temporary.path, paper: locale.paper, restated: restated)
        outputs.add(workbookFile)
        let text = KPIText.render(report, restated: restated)
        let textFile = try AtomicFile(destination: folder.appendingPathComponent("kpis.txt"))
        try textFile.write(text.joined(separator: "\n").appending("\n").utf8)
        outputs.add(textFile)
        files += [.init(path: "kpis/kpis.xlsx", rows: nil), .init(path: "kpis/kpis.txt", rows: nil)]

        let unbalanced = report.movements.filter { $0.computedEnd != $0.endMRR }
        let checks = [RunManifest.Check(
            name: "kpis: MRR movements add up (start + the signed movements = end; churn and contraction are negative)",
            passed: unbalanced.isEmpty,
            detail: unbalanced.isEmpty ? "\(report.movements.count) app-months"
                : "does not add up for \(unbalanced.prefix(5).map { "\($0.app) \($0.currency.code) \($0.month)" }.joined(separator: ", "))")]
        return ReportOutcome(name: "kpis", rejects: final.rejects, outputs: files.sorted { $0.path < $1.path }, checks: checks,
                             summary: KPIText.summary(report), figures: figures, rows: final.subscribers,
                             seconds: Date().timeIntervalSince(started))
    }
}
