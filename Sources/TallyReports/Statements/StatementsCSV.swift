import Foundation
import TallyCore

/// The statements family's CSV files: `balances.csv`, `transfers.csv`,
/// `categories.csv` and `categories_by_member.csv`, one block of rows per
/// couple, couples in id order. Money is a plain decimal in the couple's
/// currency; member names and tags are free text (neutralised against formulas).
///
/// ```swift
/// let csv = try StatementsCSV(folder: statementsFolder)
/// try csv.add(statement, period: period)   // each couple, in order
/// ```
public final class StatementsCSV {
    public static let balances = CSVLayout("balances.csv", [
        "coupleId", "period", "memberId", .text("displayName"), "currency", "opening", "paid", "share",
        "settlementsSent", "settlementsReceived", "closing"])
    public static let transfers = CSVLayout("transfers.csv", [
        "coupleId", "period", "fromMember", "toMember", "amount", "currency", "method"])
    public static let categories = CSVLayout("categories.csv", ["coupleId", "period", .text("tag"), "amount", "currency"])
    public static let categoriesByMember = CSVLayout("categories_by_member.csv", [
        "coupleId", "period", .text("tag"), "memberId", "share", "currency"])

    public let balances: CSVWriter
    public let transfers: CSVWriter
    public let categories: CSVWriter
    public let byMember: CSVWriter

    /// Every writer, in the order of the layouts above.
    public var writers: [CSVWriter] { [balances, transfers, categories, byMember] }

    public init(folder: URL) throws {
        balances = try Self.balances.writer(in: folder)
        transfers = try Self.transfers.writer(in: folder)
        categories = try Self.categories.writer(in: folder)
        byMember = try Self.categoriesByMember.writer(in: folder)
    }

    /// Writes one couple's rows.
    public func add(_ statement: CoupleStatement, period: YearMonth) throws {
        let id = statement.couple.id
        let p = period.description
        let cur = statement.couple.currency
        let code = cur.code
        for line in statement.balances {
            try balances.writeRow([id, p, line.memberId, line.displayName, code,
                                   Money.plain(line.opening, cur), Money.plain(line.paid, cur),
                                   Money.plain(line.share, cur), Money.plain(line.settlementsSent, cur),
                                   Money.plain(line.settlementsReceived, cur), Money.plain(line.closing, cur)])
        }
        for t in statement.transfers {
            try transfers.writeRow([id, p, t.from, t.to, Money.plain(t.amount, cur), code, statement.method.rawValue])
        }
        for c in statement.categories {
            try categories.writeRow([id, p, c.tag, Money.plain(c.amount, cur), code])
            for line in statement.balances {
                try byMember.writeRow([id, p, c.tag, line.memberId, Money.plain(c.shareByMember[line.memberId] ?? 0, cur), code])
            }
        }
    }
}
