/// A recurring agreement in force in a statement's month, with what comes
/// next: the next date it falls on after the month and, when it has an end
/// date, how many months remain and what they add up to.
///
/// An agreement is in force in month M when M lies between its startDate's
/// month and its endDate's (ongoing without one), the months the statement
/// adds its expense for (``StatementBuilder``). Its next date is its
/// `dayOfMonth` in M + 1 (the last day of a shorter month), unless it ends in
/// M. What remains counts the months after M up to its endDate's month, each
/// at the agreement's amount in its own currency (a foreign amount is
/// converted only when its month comes, at that day's rate).
///
/// Rent of R$ 1.500,00 on day 31 from 2026-01-10 to 2026-12-31, in October 2026:
/// `nextDate` 2026-11-30, `remainingOccurrences` 2, `remainingAmount` 300000.
public struct AgreementInForce: Hashable, Sendable {
    public var agreement: Agreement
    /// The first date the agreement falls on after the month; nil when it ends in the month.
    public var nextDate: LocalDate?
    /// The months after the statement's month it still falls in; nil for an agreement without an end date.
    public var remainingOccurrences: Int?
    /// `remainingOccurrences` × the amount, in the agreement's currency minor units; nil without an end
    /// date (or, for a hostile end date centuries away, when the product does not fit).
    public var remainingAmount: Int64?

    public init(agreement: Agreement, nextDate: LocalDate?, remainingOccurrences: Int?, remainingAmount: Int64?) {
        self.agreement = agreement
        self.nextDate = nextDate
        self.remainingOccurrences = remainingOccurrences
        self.remainingAmount = remainingAmount
    }

    /// The agreements of `agreements` in force in `period`, by day of the month then id (byte order).
    /// An agreement running more months up to `period` than tally follows (``CoupleLimits/maxAgreementMonths``)
    /// adds nothing to the statement and is not listed.
    ///
    /// ```swift
    /// AgreementInForce.list([rent], in: YearMonth("2026-10")!)[0].nextDate   // 2026-11-30
    /// ```
    public static func list(_ agreements: [Agreement], in period: YearMonth) -> [AgreementInForce] {
        // The month after the period (none after 9999-12, the last month a date can have).
        let next = period.year < 9999 || period.month < 12 ? period.adding(months: 1) : nil
        return agreements.compactMap { agreement -> AgreementInForce? in
            let start = agreement.startDate.yearMonth
            guard start <= period, start.months(until: period) < CoupleLimits.maxAgreementMonths else { return nil }
            guard let end = agreement.endDate?.yearMonth else {
                return AgreementInForce(agreement: agreement, nextDate: next?.clampedDay(agreement.dayOfMonth),
                                        remainingOccurrences: nil, remainingAmount: nil)
            }
            guard end >= period else { return nil }
            let remaining = period.months(until: end)
            let (amount, overflow) = agreement.amount.multipliedReportingOverflow(by: Int64(remaining))
            return AgreementInForce(agreement: agreement,
                                    nextDate: remaining > 0 ? next?.clampedDay(agreement.dayOfMonth) : nil,
                                    remainingOccurrences: remaining, remainingAmount: overflow ? nil : amount)
        }.sorted { a, b in
            a.agreement.dayOfMonth != b.agreement.dayOfMonth ? a.agreement.dayOfMonth < b.agreement.dayOfMonth
                : ByteOrder.precedes(a.agreement.id, b.agreement.id)
        }
    }
}
