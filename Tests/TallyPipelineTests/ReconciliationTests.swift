import Foundation
import Testing
import TallyCore
@testable import TallyPipeline

/// The reconciliation checks: each failure says exactly what did not add up.
@Suite("Reconciliation checks")
struct ReconciliationTests {
    static func input(_ path: String, read: Int, used: Int, rejected: Int, superseded: Int) -> RunManifest.Input {
        RunManifest.Input(path: path, dataset: "expenses", table: "expenses", bytes: 1, sha256: "", rowsRead: read,
                          rowsUsed: used, rowsRejected: rejected, rowsSuperseded: superseded, unknownFields: [])
    }

    static let brl = Currency(code: "BRL")!

    static func statement(_ closings: [(String, Int64)], transfers: [Transfer]) -> CoupleStatement {
        CoupleStatement(
            couple: Couple(id: "c1", name: "C", currency: brl), period: YearMonth("2026-10")!,
            balances: closings.map { MemberBalance(memberId: $0.0, displayName: $0.0, opening: 0, paid: 0, share: 0,
                                                   settlementsSent: 0, settlementsReceived: 0, closing: $0.1) },
            transfers: transfers, method: .exact, categories: [], trend: [], expenseCount: 0, rejects: [])
    }

    @Test func filesThatAddUpPass() {
        let check = Reconciliation.inputsCheck([Self.input("expenses/expenses.csv", read: 10, used: 6, rejected: 3, superseded: 1)],
                                               storedRejects: ["expenses/expenses.csv": 2],
                                               reportRejects: ["expenses/expenses.csv": 1])
        #expect(check.passed)
        #expect(check.detail == "1 files")
    }

    @Test func moreRowsRejectedOrSupersededThanReadFails() {
        let check = Reconciliation.inputsCheck([Self.input("expenses/expenses.csv", read: 10, used: -2, rejected: 8, superseded: 4)],
                                               storedRejects: ["expenses/expenses.csv": 8], reportRejects: [:])
        #expect(!check.passed)
        #expect(check.detail == "expenses/expenses.csv: 10 rows read, but used -2 + rejected 8 + superseded 4 = 10")
    }

    @Test func countsThatDoNotSumToRowsReadFail() {
        let check = Reconciliation.inputsCheck([Self.input("expenses/fx.csv", read: 10, used: 5, rejected: 1, superseded: 0)],
                                               storedRejects: ["expenses/fx.csv": 1], reportRejects: [:])
        #expect(check.detail == "expenses/fx.csv: 10 rows read, but used 5 + rejected 1 + superseded 0 = 6")
    }

    @Test func rejectsCountedButNotListedFail() {
        let check = Reconciliation.inputsCheck([Self.input("expenses/cards.csv", read: 5, used: 2, rejected: 3, superseded: 0)],
                                               storedRejects: ["expenses/cards.csv": 1], reportRejects: ["expenses/cards.csv": 1])
        #expect(!check.passed)
        #expect(check.detail == "expenses/cards.csv: 3 rows counted as rejected, but 2 rejects listed in rejects.csv")
    }

    @Test func manyProblemsAreCappedInTheDetail() {
        let inputs = (0..<12).map { Self.input("f\($0).csv", read: 1, used: 0, rejected: 0, superseded: 0) }
        let check = Reconciliation.inputsCheck(inputs, storedRejects: [:], reportRejects: [:])
        #expect(check.detail.hasPrefix("f0.csv: 1 rows read, but used 0 + rejected 0 + superseded 0 = 0; f1.csv"))
        #expect(check.detail.hasSuffix("; … and 2 more"))
    }

    @Test func aCoupleWhoseNetsDoNotSumToZeroIsNamedWithItsBalances() {
        let problem = StatementReconciliation.problem(Self.statement([("m1", 500), ("m2", -200)], transfers: [Transfer(from: "m2", to: "m1", amount: 200)]))
        #expect(problem == "couple c1: closing balances sum to 3.00 BRL, not 0 (m1 5.00, m2 -2.00)")
    }

    @Test func transfersThatDoNotSettleAreNamed() {
        let problem = StatementReconciliation.problem(Self.statement([("m1", 500), ("m2", -500)], transfers: [Transfer(from: "m2", to: "m1", amount: 300)]))
        #expect(problem == "couple c1: the suggested transfers leave m1 2.00, m2 -2.00 BRL unsettled")
        #expect(StatementReconciliation.problem(Self.statement([("m1", 500), ("m2", -500)], transfers: [Transfer(from: "m2", to: "m1", amount: 500)])) == nil)
    }

    @Test func aFailedCheckBecomesAnErrorNamingEveryFailure() {
        let checks = [
            Reconciliation.couplesCheck(["couple c1: x"], couples: 3),
            RunManifest.Check(name: "ok", passed: true, detail: "fine"),
            Reconciliation.inputsCheck([Self.input("a.csv", read: 1, used: 0, rejected: 0, superseded: 0)], storedRejects: [:], reportRejects: [:]),
        ]
        #expect(Reconciliation.error(checks)?.description == "reconciliation failed: statements: nets sum to zero and transfers settle them: couple c1: x | inputs: rows read = used + rejected + superseded: a.csv: 1 rows read, but used 0 + rejected 0 + superseded 0 = 0 (see run.json)")
        #expect(Reconciliation.error([checks[1]]) == nil)
    }
}
