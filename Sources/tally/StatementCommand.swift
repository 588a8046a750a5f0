import ArgumentParser
import Foundation
import TallyCore
import TallyPipeline

extension Tally {
    /// `tally statement`: one couple's statement workbook, on demand.
    struct Statement: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write one couple's statement (statements/<couple>.xlsx and .txt) for a month from the warehouse.",
            discussion: """
                The workbook a couple is sent: balances, suggested transfers, spending by
                category and trend, and every expense of the month itemised. `tally run`
                writes one per couple only when statements.coupleWorkbooks is true in
                tally.yml; this writes one couple's whatever the setting says.
                Exit code 66 when the warehouse does not exist, 1 when the couple is not in it.
                """)

        @Option(help: ArgumentHelp("The couple's id (coupleId in couples.csv).", valueName: "id"))
        var couple: String

        @Option(help: ArgumentHelp("The month of the statement, YYYY-MM.", valueName: "YYYY-MM"))
        var period: String

        @OptionGroup var common: CommonOptions

        func validate() throws {
            guard YearMonth(period) != nil else { throw ValidationError("--period '\(period)' is not a month like 2026-10") }
            guard !couple.isEmpty else { throw ValidationError("--couple needs a couple id") }
        }

        func run() throws {
            let runner = common.runner()
            let outcome = try runReportingErrors {
                try runner.statement(coupleId: couple, common.request(data: nil, period: YearMonth(period)))
            }
            if !common.quiet {
                let folder = URL(fileURLWithPath: common.outFolder(period: YearMonth(period)))
                for file in outcome.files { print("wrote \(folder.appendingPathComponent(file).path)") }
                if outcome.rejects > 0 {
                    print("\(outcome.rejects) rows of this couple could not be used (a full run lists them in rejects.csv)")
                }
            }
        }
    }
}
