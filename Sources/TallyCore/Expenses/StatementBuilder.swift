/// Builds one couple's monthly statement from its ledger (pure: no I/O, and
/// independent of every other couple, so couples can be built in parallel or
/// on different nodes and their results combined with ``StatementTotals``).
///
/// For member m over a span of time,
/// `net(m) = paid(m) − share(m) + sent(m) − received(m)` (positive: m is owed).
/// The statement for month M shows per member the opening balance (net of
/// everything dated before M's first day), M's paid, share, settlements sent
/// and received, and the closing balance (opening + the month), so
/// closing(M) = opening(M + 1). Shares come from ``SplitCalculator/allocate(_:rule:memberIds:expenseId:)``
/// over the couple's member ids in byte order, so every expense's shares sum
/// to its amount and a couple's nets always sum to zero.
///
/// Agreements (recurring expenses) add one expense per calendar month from
/// their startDate's month to their endDate's (nil: ongoing), up to and
/// including M, on `dayOfMonth` (the last day of shorter months), unless a
/// real expense with the agreement's id is dated in that month. That
/// synthetic expense has id `agreement:<id>:<YYYY-MM>`, the agreement's payer,
/// split, tag and description, and its amount converted to the couple's
/// currency with the latest fx rate on or before its date. A month with no
/// such rate is left out. Earlier months count in the opening balance.
///
/// Rejects: a month left out for want of an fx rate is reported only when it
/// is M itself. Earlier months were (or would have been) reported by the
/// statement of their own month; reporting them again in every later
/// statement would repeat the same reject month after month. The ledger is
/// expected to be valid for the couple; should an expense, agreement or
/// settlement name a payer (or settlement party) who is not a member, it is
/// left out, so the nets still sum to zero, and reported once as a reject,
/// in the words of ``CoupleMembership``, the one rule of who may pay.
public enum StatementBuilder {
    /// The statement of `ledger`'s couple for `period`.
    ///
    /// - Parameters:
    ///   - ledger: the couple, its members, and its valid expenses (in the
    ///     couple's currency), settlements and agreements; anything dated
    ///     after the period is ignored.
    ///   - period: the statement month.
    ///   - fx: rates to convert agreements in other currencies.
    ///   - trendMonths: how many months the spending trend covers, ending with `period`.
    ///   - exactTransferLimit: the most non-zero balances settled by exact search
    ///     (see ``SettlementPlanner``).
    ///   - itemised: also list the month line by line (``CoupleStatement/itemised``):
    ///     each expense with its shares, and the settlements. The agreements in force, the month's
    ///     conversions and its audit notes are listed either way.
    public static func build(_ ledger: CoupleLedger, period: YearMonth, fx: FxTable,
                             trendMonths: Int = 6, exactTransferLimit: Int = 20, itemised: Bool = false) -> CoupleStatement {
        build(ledger, period: period, fx: fx, trendMonths: trendMonths, exactTransferLimit: exactTransferLimit,
              itemised: itemised, from: nil).statement
    }

    /// What a statement carries to the opening of the month after its period (``LedgerOpening``).
    struct Carried {
        /// Per member: paid − share of the expenses and agreements' months up to the period's end.
        var balances: [Int64]
        var trend: [YearMonth: Int64]
        var expenseTotal: Int128
        var agreementTotal: Int128
        /// Whether an expense or agreement reached a limit of ``CoupleLimits`` (no opening is carried).
        var reachedLimit: Bool
    }

    /// The statement, built from every row of the ledger or, with `opening`,
    /// from it and the ledger's rows dated from its month on (`ledger` then
    /// holds no expense dated earlier; its settlements and agreements are
    /// all the couple's), and what it carries to the month after.
    static func build(_ ledger: CoupleLedger, period: YearMonth, fx: FxTable, trendMonths: Int, exactTransferLimit: Int,
                      itemised: Bool, from opening: LedgerOpening?) -> (statement: CoupleStatement, carried: Carried) {
        let members = ledger.members.sorted { ByteOrder.precedes($0.id, $1.id) }
        let memberIds = members.map(\.id)
        let indexById = MemberPositions(memberIds)

        let first = period.firstDay
        let last = period.lastDay
        let trendStart = period.adding(months: -(max(trendMonths, 1) - 1))
        let membership = CoupleMembership(couple: ledger.couple.id, memberIds: memberIds)

        var rejects: [Reject] = []
        let agreementMonths = agreementMonths(ledger, through: period, fx: fx, from: opening)
        rejects += agreementMonths.rejects

        let count = memberIds.count
        // The opening of expenses and agreements' months, and of settlements, apart: an opening carried
        // to the next month holds the first only.
        var ledgerOpening = opening?.balances ?? [Int64](repeating: 0, count: count)
        var settlementOpening = [Int64](repeating: 0, count: count)
        var expenseTotal = opening?.expenseTotal ?? 0
        var paid = [Int64](repeating: 0, count: count)
        var share = [Int64](repeating: 0, count: count)
        var sent = [Int64](repeating: 0, count: count)
        var received = [Int64](repeating: 0, count: count)

        var categoryAmount: [String: Int64] = [:]
        var categoryShares: [String: [Int64]] = [:]
        var trend = (opening?.trend ?? [:]).filter { $0.key >= trendStart }
        var expenseCount = 0
        var lines: [ItemisedExpense] = []
        var monthSettlements: [Settlement] = []
        // One array for every expense's shares: those before the month only
        // move the opening balances, and a line of the month keeps its own copy.
        var shares: [Int64] = []

        // The couple's expenses up to the month's end, then its agreements' months.
        func include(_ expense: Expense, fromAgreement: Bool) {
            // Synthetic expenses always have a member payer (see agreementExpenses).
            if let reason = membership.payer(expense.paidBy) {
                rejects.append(Reject(dataset: "expenses", file: "", line: 0, id: expense.id, reason: reason))
                return
            }
            let payer = indexById[expense.paidBy]!
            SplitCalculator.allocate(expense.amount, rule: expense.split, memberIds: memberIds, expenseId: expense.id, into: &shares)
            let month = expense.date.yearMonth
            if month >= trendStart { trend[month, default: 0] += expense.amount }
            if !fromAgreement { expenseTotal += Int128(expense.amount.magnitude) }
            if expense.date < first {
                ledgerOpening[payer] += expense.amount
                for i in 0..<count { ledgerOpening[i] -= shares[i] }
            } else {
                expenseCount += 1
                paid[payer] += expense.amount
                for i in 0..<count { share[i] += shares[i] }
                categoryAmount[expense.tag, default: 0] += expense.amount
                // Added in place: a copy taken out and stored back would allocate on every expense.
                add(shares, to: &categoryShares[expense.tag, default: [Int64](repeating: 0, count: count)])
                lines.append(ItemisedExpense(expense: expense, shares: shares, fromAgreement: fromAgreement))
            }
        }
        for expense in ledger.expenses where expense.date <= last { include(expense, fromAgreement: false) }
        for expense in agreementMonths.expenses { include(expense, fromAgreement: true) }

        for settlement in ledger.settlements where settlement.date <= last {
            if let reason = membership.settlementParties(from: settlement.fromMember, to: settlement.toMember) {
                rejects.append(Reject(dataset: "expenses", file: "", line: 0, id: settlement.id, reason: reason))
                continue
            }
            let (from, to) = (indexById[settlement.fromMember]!, indexById[settlement.toMember]!)
            if settlement.date < first {
                settlementOpening[from] += settlement.amount
                settlementOpening[to] -= settlement.amount
            } else {
                sent[from] += settlement.amount
                received[to] += settlement.amount
                monthSettlements.append(settlement)
            }
        }

        let openingBalances = (0..<count).map { ledgerOpening[$0] + settlementOpening[$0] }
        let balances = members.enumerated().map { i, member in
            MemberBalance(memberId: member.id, displayName: member.displayName, opening: openingBalances[i],
                          paid: paid[i], share: share[i], settlementsSent: sent[i], settlementsReceived: received[i],
                          closing: openingBalances[i] + paid[i] - share[i] + sent[i] - received[i])
        }
        let plan = SettlementPlanner.plan(balances.map { (memberId: $0.memberId, amount: $0.closing) },
                                          exactLimit: exactTransferLimit)

        let categories = categoryAmount.map { tag, amount in
            let shares = categoryShares[tag] ?? []
            var byMember: [String: Int64] = [:]
            for (i, id) in memberIds.enumerated() { byMember[id] = shares[i] }
            return CategoryTotal(tag: tag, amount: amount, shareByMember: byMember)
        }.sorted { a, b in
            a.amount != b.amount ? a.amount > b.amount : ByteOrder.precedes(a.tag, b.tag)
        }

        let trendLine: [(month: YearMonth, amount: Int64)] = trendMonths <= 0 ? [] :
            (0..<trendMonths).map { k in
                let month = trendStart.adding(months: k)
                return (month: month, amount: trend[month] ?? 0)
            }

        var statement = CoupleStatement(couple: ledger.couple, period: period, balances: balances,
                                        transfers: plan.transfers, method: plan.method, categories: categories,
                                        trend: trendLine, expenseCount: expenseCount, rejects: rejects)
        statement.leftOut = agreementMonths.leftOut
        statement.agreementsInForce = AgreementInForce.list(ledger.agreements.filter { indexById[$0.paidBy] != nil }, in: period)
        statement.conversions = CurrencyConversions.of(lines.map(\.expense))
        statement.auditNotes = StatementAudit.notes(memberIds: memberIds, opening: openingBalances, expenses: lines,
                                                    settlements: monthSettlements)
        if itemised {
            statement.itemised = ItemisedMonth(
                expenses: DateThenId.sorted(lines) { DateThenId($0.expense.date, id: $0.expense.id) },
                settlements: DateThenId.sorted(monthSettlements) { DateThenId($0.date, id: $0.id) })
        }
        let carried = Carried(balances: (0..<count).map { ledgerOpening[$0] + paid[$0] - share[$0] }, trend: trend,
                              expenseTotal: expenseTotal, agreementTotal: agreementMonths.total,
                              reachedLimit: agreementMonths.reachedLimit)
        return (statement, carried)
    }

    private static func add(_ shares: [Int64], to total: inout [Int64]) {
        for i in total.indices { total[i] += shares[i] }
    }

    /// The synthetic expenses `ledger`'s agreements add up to and including
    /// `period` (see ``StatementBuilder``), oldest month first per agreement,
    /// and the rejects of `period`'s months that had no fx rate.
    ///
    /// An agreement whose payer is not a member of the couple adds nothing
    /// and is rejected once (id `agreement:<id>`).
    public static func agreementExpenses(_ ledger: CoupleLedger, through period: YearMonth, fx: FxTable)
        -> (expenses: [Expense], rejects: [Reject])
    {
        let months = agreementMonths(ledger, through: period, fx: fx)
        return (months.expenses, months.rejects)
    }

    /// ``agreementExpenses(_:through:fx:)`` with `period`'s months left out for want of an fx rate, as the
    /// couple's statement lists them.
    ///
    /// From `opening`, only the months from its month on, its total of the earlier months carried.
    static func agreementMonths(_ ledger: CoupleLedger, through period: YearMonth, fx: FxTable, from opening: LedgerOpening? = nil)
        -> (expenses: [Expense], rejects: [Reject], leftOut: [LeftOutRow], total: Int128, reachedLimit: Bool)
    {
        var leftOut: [LeftOutRow] = []
        // An agreement's month of `period` as a row the statement leaves out for `reason`.
        func periodMonth(_ agreement: Agreement, _ reason: RejectCode) -> LeftOutRow {
            LeftOutRow(kind: .agreementMonth, id: "agreement:\(agreement.id):\(period)", date: period.clampedDay(agreement.dayOfMonth),
                       description: agreement.description, amount: agreement.amount, currency: agreement.currency, reason: reason)
        }
        let last = period.lastDay
        var covered = Set<AgreementMonth>()
        for expense in ledger.expenses where expense.date <= last {
            if let agreementId = expense.agreementId {
                covered.insert(AgreementMonth(agreementId: agreementId, month: expense.date.yearMonth))
            }
        }
        let couple = ledger.couple
        let membership = CoupleMembership(couple: couple.id, memberIds: ledger.members.map(\.id))
        var expenses: [Expense] = []
        var rejects: [Reject] = []
        // The magnitudes of the synthetic expenses, bounded (see CoupleLimits).
        var total = opening?.agreementTotal ?? 0
        var reachedLimit = false
        agreements: for agreement in ledger.agreements {
            let startMonth = agreement.startDate.yearMonth
            let endMonth = min(agreement.endDate?.yearMonth ?? period, period)
            guard startMonth <= endMonth else { continue }
            if let reason = membership.payer(agreement.paidBy) {
                rejects.append(Reject(dataset: "expenses", file: agreement.sourceFile, line: agreement.sourceLine,
                                      id: "agreement:\(agreement.id)", reason: reason))
                continue
            }
            let months = startMonth.months(until: endMonth) + 1
            guard months <= CoupleLimits.maxAgreementMonths else {
                reachedLimit = true
                rejects.append(Reject(
                    dataset: "expenses", file: agreement.sourceFile, line: agreement.sourceLine, id: "agreement:\(agreement.id)",
                    reason: .agreementTooLong(months: months, upTo: period).leaving("it is left out of the statement")))
                if endMonth == period { leftOut.append(periodMonth(agreement, .agreementTooLong)) }
                continue
            }
            var month = max(startMonth, opening?.month ?? startMonth)
            while month <= endMonth {
                defer { month = month.adding(months: 1) }
                if covered.contains(AgreementMonth(agreementId: agreement.id, month: month)) { continue }
                let date = month.clampedDay(agreement.dayOfMonth)
                let id = "agreement:\(agreement.id):\(month)"
                guard let (amount, conversion) = fx.converted(agreement.amount, from: agreement.currency, to: couple.currency, on: date) else {
                    if month == period {
                        let code = RejectCode.failedConversion(fx, from: agreement.currency, to: couple.currency, on: date)
                        let reason = RejectReason.conversion(fx, agreement.amount, from: agreement.currency,
                                                             to: couple.currency, on: date)
                        rejects.append(Reject(
                            dataset: "expenses", file: agreement.sourceFile, line: agreement.sourceLine, id: id,
                            reason: reason.leaving("agreement '\(agreement.id)' is left out of the \(month) statement")))
                        leftOut.append(LeftOutRow(kind: .agreementMonth, id: id, date: date, description: agreement.description,
                                                  amount: agreement.amount, currency: agreement.currency, reason: code))
                    }
                    continue
                }
                guard total + Int128(amount.magnitude) <= CoupleLimits.maxTotal else {
                    reachedLimit = true
                    rejects.append(Reject(
                        dataset: "expenses", file: agreement.sourceFile, line: agreement.sourceLine, id: id,
                        reason: .overTotal("agreement '\(agreement.id)'", couple: couple.id)
                            .leaving("its months from \(month) on are left out of the statement")))
                    if endMonth == period { leftOut.append(periodMonth(agreement, .coupleTotalOverLimit)) }
                    continue agreements
                }
                total += Int128(amount.magnitude)
                expenses.append(Expense(id: id, coupleId: agreement.coupleId, paidBy: agreement.paidBy, amount: amount,
                                        date: date, description: agreement.description, tag: agreement.tag,
                                        agreementId: agreement.id, split: agreement.split, conversion: conversion))
            }
        }
        return (expenses, rejects, leftOut, total, reachedLimit)
    }

    private struct AgreementMonth: Hashable {
        var agreementId: String
        var month: YearMonth
    }
}
