/// What a couple's expenses dated before a month add to its statement of
/// that month or any later one, so that a later statement can be built from
/// the expenses dated from that month on instead of every expense the
/// couple ever had.
///
/// It holds, for the expenses (winning versions) and the agreements' months
/// dated before ``month``:
/// - each member's net (paid − share) of them: settlements are not in it
///   (a statement reads every settlement of the couple);
/// - the spending of the months a later trend may still show;
/// - the magnitudes ``CoupleLimits`` adds up, real expenses and agreements'
///   months apart, so that a statement built from it rejects exactly what
///   one built from every row rejects (it is made only while no row reached
///   a limit);
/// - the rejects of those expenses, and the ones that failed validation
///   without a readable month (every statement lists them).
///
/// Which rows it holds is decided by the text of their date, so that a
/// store can select the other rows without reading them:
/// ``isOnOrAfter(_:month:)``. It is made by ``StatementsFamily/compute(key:)``
/// for the month after the period, from every row or from an earlier
/// opening and the rows after it, and taken by the same call when
/// ``CoupleRows/opening`` carries one (see there for what the caller
/// checks: that no row it holds changed, and the couple's reference rows
/// and fx rates before ``month`` are those it was made with).
///
/// ```swift
/// let result = family.compute(key: allRows)             // result.closing: the opening of November
/// var monthRows = rowsFromNovember; monthRows.opening = result.closing
/// family.compute(key: monthRows)                        // November's statement, as from every row
/// ```
public struct LedgerOpening: Sendable, Equatable {
    /// The first month whose rows it does not hold.
    public var month: YearMonth
    /// The couple's members, in id byte order.
    public var memberIds: [String]
    /// Per member (``memberIds`` order): paid − share of the expenses and agreements' months before ``month``.
    public var balances: [Int64]
    /// Spending (expenses and agreements' months) of the months before ``month`` a trend may show.
    public var trend: [YearMonth: Int64]
    /// The magnitudes of the valid expenses before ``month``, as ``LedgerResolver`` adds them up.
    public var expenseTotal: Int128
    /// The magnitudes of the agreements' months before ``month``, as ``StatementBuilder`` adds them up.
    public var agreementTotal: Int128
    /// The rejects of the expenses it holds: versions that failed validation, and those the ledger left out.
    public var rejects: [Reject]
    /// The expenses it holds that failed validation without a readable month (``RefusedRow/listed(in:)``: `.undated`).
    public var undated: [RefusedRow]

    public init(month: YearMonth, memberIds: [String], balances: [Int64], trend: [YearMonth: Int64] = [:],
                expenseTotal: Int128 = 0, agreementTotal: Int128 = 0, rejects: [Reject] = [], undated: [RefusedRow] = []) {
        self.month = month
        self.memberIds = memberIds
        self.balances = balances
        self.trend = trend
        self.expenseTotal = expenseTotal
        self.agreementTotal = agreementTotal
        self.rejects = rejects
        self.undated = undated
    }

    /// Whether a winning version whose date column reads `text` is one of
    /// the rows after an opening of `month` (one it does not hold): its text
    /// is at least `YYYY-MM` of `month`, compared as bytes (a store's
    /// `date >= 'YYYY-MM'`). For a readable date, whether it falls on or
    /// after the month's first day; a missing date never is.
    ///
    /// ```swift
    /// LedgerOpening.isOnOrAfter("2026-10-31", month: october)   // true
    /// LedgerOpening.isOnOrAfter("2026-09-31", month: october)   // false
    /// LedgerOpening.isOnOrAfter("31/10/2026", month: october)   // false ("3" < "2026-10" fails at the first byte)
    /// ```
    public static func isOnOrAfter(_ text: String?, month: YearMonth) -> Bool {
        guard let text else { return false }
        return !text.utf8.lexicographicallyPrecedes(month.description.utf8)
    }

    /// The month a change to a version dated `text` can reach back to, as
    /// `YYYY-MM`, or "" when its text does not start with one (a change
    /// that reaches every opening). A version whose text starts with a month
    /// at least an opening's month is a row after that opening
    /// (``isOnOrAfter(_:month:)``); one that starts with an earlier month is
    /// held by it. Stores record changes by this month (the same rule in SQL:
    /// `CASE WHEN date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]*' THEN substr(date, 1, 7) ELSE '' END`).
    public static func changeMonth(_ text: String?) -> String {
        guard let text else { return "" }
        let bytes = Array(text.utf8.prefix(7))
        guard bytes.count == 7, bytes[4] == UInt8(ascii: "-"),
              bytes.enumerated().allSatisfy({ $0.offset == 4 || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0.element) })
        else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether a change that reaches back to `changeMonth` (``changeMonth(_:)``)
    /// reaches a row an opening of `month` holds (the opening no longer holds).
    ///
    /// ```swift
    /// LedgerOpening.change(reachingBack: "2026-11", isBefore: november)   // false: a row after the opening
    /// LedgerOpening.change(reachingBack: "2026-10", isBefore: november)   // true
    /// LedgerOpening.change(reachingBack: "", isBefore: november)          // true: no readable month
    /// ```
    public static func change(reachingBack changeMonth: String, isBefore month: YearMonth) -> Bool {
        changeMonth.isEmpty || changeMonth.utf8.lexicographicallyPrecedes(month.description.utf8)
    }
}
