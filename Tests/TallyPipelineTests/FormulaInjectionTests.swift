import Foundation
import Testing
import TallyCore
import TallyReports
import TallyTestSupport
@testable import TallyPipeline

/// Text typed by an app's user that a spreadsheet would run as a
/// formula is neutralised in every CSV that carries it; ids and numbers are not.
@Suite("No formulas smuggled through the CSVs")
struct FormulaInjectionTests {
    static let hyperlink = "=HYPERLINK(\"http://x\",\"Pix\")"

    /// Replaces `old` by `new` in `file` (which must hold it).
    private func replace(_ file: URL, _ old: String, _ new: String, onlyFirst: Bool = false) throws {
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        let range = try #require(text.range(of: old), "\(old) in \(file.lastPathComponent)")
        let edited = onlyFirst ? text.replacingCharacters(in: range, with: new) : text.replacingOccurrences(of: old, with: new)
        try Data(edited.utf8).write(to: file)
    }

    private func lines(_ url: URL) throws -> [Substring] {
        String(decoding: try Data(contentsOf: url), as: UTF8.self).split(separator: "\n")
    }

    @Test func typedTextIsNeutralisedInEveryReportCSVAndStaysAStringInTheWorkbooks() throws {
        let work = try temporaryFolder("formulas")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = try copyOfSampleData(in: work)
        // A member's display name, an expense tag, a check-in display name, an App Store subscription name.
        try replace(data.appendingPathComponent("expenses/members.csv"), "mbr-000001,cpl-000001,Nicole Gomes,",
                    "mbr-000001,cpl-000001,\"=HYPERLINK(\"\"http://x\"\",\"\"Pix\"\")\",")
        try replace(data.appendingPathComponent("expenses/expenses.csv"), "2026-10-25,Bilhete Único,transporte,",
                    "2026-10-25,Bilhete Único,@SUM(1+1),")
        try replace(data.appendingPathComponent("checkins/checkins.ndjson"), "\"displayName\":\"Nicole Magalh\\u00e3es\"",
                    "\"displayName\":\"-2+3\"")
        try replace(data.appendingPathComponent("subscriptions/Subscription_Event_Report.txt"),
                    "2026-10-01\tStart Free Trial\tLovU\t6450012345\tlovu.premium.monthly\t",
                    "2026-10-01\tStart Free Trial\tLovU\t6450012345\t+lovu.premium.monthly\t", onlyFirst: true)
        let out = work.appendingPathComponent("out")
        let runner = TallyRunner(logger: .init(label: "test"), progress: Progress(mode: .silent))
        let outcome = try runner.run(RunRequest(dataDirectory: data, outDirectory: out, period: YearMonth("2026-10")!, reproducible: true))
        #expect(outcome.manifest.checks.allSatisfy { $0.passed })

        // balances.csv: the name is neutralised; ids and money (negative ones too) are not.
        let balances = try lines(out.appendingPathComponent("statements/balances.csv"))
        let ana = try #require(balances.first { $0.hasPrefix("cpl-000001,2026-10,mbr-000001,") })
        #expect(ana.hasPrefix("cpl-000001,2026-10,mbr-000001,\"'=HYPERLINK(\"\"http://x\"\",\"\"Pix\"\")\",BRL,"))
        #expect(balances.contains { $0.split(separator: ",").last?.hasPrefix("-") == true })
        #expect(!balances.contains { $0.contains(",'-") })

        // categories.csv and categories_by_member.csv: the tag.
        let categories = try lines(out.appendingPathComponent("statements/categories.csv"))
        #expect(categories.contains { $0.hasPrefix("cpl-000001,2026-10,\"'@SUM(1+1)\",63.00,BRL") })
        let byMember = try lines(out.appendingPathComponent("statements/categories_by_member.csv"))
        #expect(byMember.filter { $0.hasPrefix("cpl-000001,2026-10,\"'@SUM(1+1)\",mbr-") }.count >= 2)
        #expect(!(categories + byMember).contains { $0.contains(",@SUM") })

        // leaderboard.csv: the check-in display name.
        let leaderboard = try lines(out.appendingPathComponent("leaderboards/leaderboard.csv"))
        #expect(leaderboard.contains { $0.contains(",3pdF1Bn9QwQ5YKu6lZVCVNpobV3D,\"'-2+3\",") })
        #expect(!leaderboard.contains { $0.contains(",-2+3,") })

        // appstore_events.csv: the subscription name from Apple's report.
        let events = try lines(out.appendingPathComponent("kpis/appstore_events.csv"))
        #expect(events.contains { $0 == "2026-10-01,LovU,\"'+lovu.premium.monthly\",Start Free Trial,trial_started,1" })
        #expect(!events.contains { $0.contains(",+lovu") })

        // The workbooks hold the typed text as it is, as a string, never a formula.
        let statements = try XLSXReader(url: out.appendingPathComponent("statements/statements.xlsx"))
        var found = false
        for sheet in statements.sheetNames {
            #expect(try !statements.sheetXML(sheet).contains("<f>"), "\(sheet)")
            for row in 1...max(1, try statements.rowCount(sheet)) where try statements.row(sheet, row).contains(.string(Self.hyperlink)) {
                found = true
            }
        }
        #expect(found)
        let boards = try XLSXReader(url: out.appendingPathComponent("leaderboards/leaderboards.xlsx"))
        for sheet in boards.sheetNames { #expect(try !boards.sheetXML(sheet).contains("<f>")) }
    }

    @Test func rejectReasonsAreNeutralisedAndRejectIdsAreNot() throws {
        let work = try temporaryFolder("reject-formulas")
        defer { try? FileManager.default.removeItem(at: work) }
        let url = work.appendingPathComponent("rejects.csv")
        let outputs = OutputSet()
        let rejects = [
            Reject(dataset: "expenses", file: "expenses/expenses.csv", line: 7, id: "-NxQ3abc", reason: RejectReason(code: .amountNotDecimal, text: "=1+1 is not an amount")),
            Reject(dataset: "expenses", file: "expenses/expenses.csv", line: 8, id: "-NxQ3abd", reason: RejectReason(code: .amountTooManyDecimals, text: "amount -20.005 has more digits than BRL allows")),
        ]
        #expect(try RejectsFile.write(rejects, to: url, outputs: outputs) == 2)
        try outputs.commit()
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        #expect(text == """
            dataset,file,line,id,reason,reason_code
            expenses,expenses/expenses.csv,7,-NxQ3abc,"'=1+1 is not an amount",amount_not_decimal
            expenses,expenses/expenses.csv,8,-NxQ3abd,amount -20.005 has more digits than BRL allows,amount_too_many_decimals

            """)
    }
}
