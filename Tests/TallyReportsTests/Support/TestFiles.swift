import Foundation
import TallyCore

/// A fresh temporary folder, so tests can run in parallel.
func temporaryFolder() throws -> URL {
    let name = "tally-xlsx-test-\(UUID().uuidString)"
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Excel's serial day number for a date (1900 date system, dates from 1900-03-01).
func excelSerial(_ date: LocalDate) -> Double { Double(date.daysSinceEpoch + 25_569) }

let brl = Currency(code: "BRL")!
let usd = Currency(code: "USD")!
let jpy = Currency(code: "JPY")!
let eur = Currency(code: "EUR")!
let october2026 = YearMonth(year: 2026, month: 10)!

/// Three small statements: two BRL couples and a JPY one, with transfers, an untagged category and a refund.
func sampleStatements() -> [CoupleStatement] {
    let anaBia = CoupleStatement(
        couple: Couple(id: "c1", name: "Ana & Bia", currency: brl), period: october2026,
        balances: [
            MemberBalance(memberId: "m1", displayName: "Ana", opening: 123_456, paid: 50_000, share: 30_000,
                          settlementsSent: 0, settlementsReceived: 10_000, closing: 133_456),
            MemberBalance(memberId: "m2", displayName: "Bia", opening: -123_456, paid: 10_000, share: 30_000,
                          settlementsSent: 10_000, settlementsReceived: 0, closing: -133_456),
        ],
        transfers: [Transfer(from: "m2", to: "m1", amount: 133_456)], method: .exact,
        categories: [
            CategoryTotal(tag: "mercado", amount: 40_000, shareByMember: ["m1": 20_000, "m2": 20_000]),
            CategoryTotal(tag: "", amount: 15_000, shareByMember: ["m1": 7_500, "m2": 7_500]),
            CategoryTotal(tag: "lazer", amount: 5_000, shareByMember: ["m1": 2_500, "m2": 2_500]),
        ],
        trend: [(october2026, 60_000)], expenseCount: 7, rejects: [])
    let caioDani = CoupleStatement(
        couple: Couple(id: "c2", name: "Caio e Dani", currency: brl), period: october2026,
        balances: [
            MemberBalance(memberId: "m3", displayName: "Caio", opening: 0, paid: 0, share: 0,
                          settlementsSent: 0, settlementsReceived: 0, closing: 0),
            MemberBalance(memberId: "m4", displayName: "Dani", opening: 0, paid: 0, share: 0,
                          settlementsSent: 0, settlementsReceived: 0, closing: 0),
        ],
        transfers: [], method: .exact,
        categories: [CategoryTotal(tag: "mercado", amount: 20_000, shareByMember: ["m3": 10_000, "m4": 10_000]),
                     CategoryTotal(tag: "lazer", amount: -1_000, shareByMember: ["m3": -500, "m4": -500])],
        trend: [(october2026, 19_000)], expenseCount: 3, rejects: [])
    let kenji = CoupleStatement(
        couple: Couple(id: "c3", name: "Kenji/Yumi", currency: jpy), period: october2026,
        balances: [
            MemberBalance(memberId: "m5", displayName: "Kenji", opening: 0, paid: 3_500, share: 1_750,
                          settlementsSent: 0, settlementsReceived: 0, closing: 1_750),
            MemberBalance(memberId: "m6", displayName: "Yumi", opening: 0, paid: 0, share: 1_750,
                          settlementsSent: 0, settlementsReceived: 0, closing: -1_750),
        ],
        transfers: [Transfer(from: "m6", to: "m5", amount: 1_750)], method: .greedy,
        categories: [CategoryTotal(tag: "ramen", amount: 3_500, shareByMember: ["m5": 1_750, "m6": 1_750])],
        trend: [(october2026, 3_500)], expenseCount: 1, rejects: [])
    return [anaBia, caioDani, kenji]
}
