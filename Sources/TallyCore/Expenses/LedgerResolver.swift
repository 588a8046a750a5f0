/// Checks a couple's loaded facts against the couple itself (its members, its
/// currency and the fx rates) and builds the ``CoupleLedger`` statements use.
///
/// This is the per-couple half of validation: what can be checked row by row
/// was checked when the rows were read. Everything refused here becomes a
/// ``Reject`` with the row's file and line, and a ``LeftOutRow`` with the
/// row as entered and its ``RejectCode`` (for the couple's own statement).
public enum LedgerResolver {
    /// The ledger of valid facts and the rejects of the others.
    public struct Resolution: Sendable {
        public var ledger: CoupleLedger
        public var rejects: [Reject]
        /// The rejected rows as entered, each with its code, in the order of ``rejects``.
        public var leftOut: [LeftOutRow]
        /// Whether a row was left out for taking the couple's totals past ``CoupleLimits/maxTotal``.
        public var reachedLimit = false

        /// The rejects of the expenses dated before `day` (an opening of its month holds them, ``LedgerOpening``).
        public func expenseRejects(before day: LocalDate) -> [Reject] {
            zip(rejects, leftOut).compactMap { reject, row in row.kind == .expense && row.date < day ? reject : nil }
        }
    }

    /// Resolves one couple. `members` may come in any order; the ledger lists them by id (byte order).
    /// `openingTotal` is what the expenses an opening holds add to the couple's totals
    /// (``LedgerOpening/expenseTotal``), when `expenses` are only those after it.
    public static func resolve(couple: Couple, members: [Member], expenses: [ExpenseFact],
                               settlements: [SettlementFact], agreements: [Agreement], fx: FxTable,
                               openingTotal: Int128 = 0) -> Resolution {
        let sortedMembers = members.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        let memberIds = sortedMembers.map(\.id)
        let membership = CoupleMembership(couple: couple.id, memberIds: memberIds)
        var rejects: [Reject] = []
        var leftOut: [LeftOutRow] = []
        func reject(_ source: SourceRef, _ id: String, _ reason: RejectReason) {
            rejects.append(Reject(dataset: "expenses", file: source.file, line: source.line, id: id, reason: reason))
        }
        func leave(_ kind: LeftOutRow.Kind, _ id: String, _ date: LocalDate, _ description: String, _ amount: Int64,
                   _ currency: Currency, _ code: RejectCode) {
            leftOut.append(LeftOutRow(kind: kind, id: id, date: date, description: description, amount: amount,
                                      currency: currency, reason: code))
        }
        func leave(_ fact: ExpenseFact, _ code: RejectCode) {
            leave(.expense, fact.id, fact.date, fact.description, fact.amount, fact.currency, code)
        }
        func leave(_ fact: SettlementFact, _ code: RejectCode) {
            leave(.settlement, fact.id, fact.date, "", fact.amount, fact.currency, code)
        }
        func conversionCode(_ from: Currency, _ date: LocalDate) -> RejectCode {
            .failedConversion(fx, from: from, to: couple.currency, on: date)
        }
        func overTotal(_ amount: Int64) -> RejectReason {
            .overTotal("amount \(Money.plain(amount, couple.currency)) \(couple.currency.code)", couple: couple.id)
        }

        // The magnitudes of the valid expenses and settlements, bounded (see CoupleLimits).
        var total = openingTotal
        var reachedLimit = false
        func fits(_ amount: Int64) -> Bool {
            guard total + Int128(amount.magnitude) <= CoupleLimits.maxTotal else { reachedLimit = true; return false }
            total += Int128(amount.magnitude)
            return true
        }

        var validExpenses: [Expense] = []
        validExpenses.reserveCapacity(expenses.count)
        for fact in expenses {
            if let reason = membership.payer(fact.paidBy) {
                reject(fact.source, fact.id, reason); leave(fact, reason.code); continue
            }
            if let error = SplitCalculator.validate(fact.split, memberIds: memberIds, amount: fact.amount, currency: fact.currency) {
                reject(fact.source, fact.id, .split(error)); leave(fact, RejectCode(error)); continue
            }
            guard let (amount, conversion) = fx.converted(fact.amount, from: fact.currency, to: couple.currency, on: fact.date) else {
                reject(fact.source, fact.id, .conversion(fx, fact.amount, from: fact.currency, to: couple.currency, on: fact.date))
                leave(fact, conversionCode(fact.currency, fact.date)); continue
            }
            guard fits(amount) else {
                reject(fact.source, fact.id, overTotal(amount))
                leave(fact, .coupleTotalOverLimit); continue
            }
            validExpenses.append(Expense(id: fact.id, coupleId: fact.coupleId, paidBy: fact.paidBy, amount: amount,
                                         date: fact.date, description: fact.description, tag: fact.tag,
                                         agreementId: fact.agreementId, split: fact.split, conversion: conversion))
        }

        var validSettlements: [Settlement] = []
        for fact in settlements {
            if let reason = membership.settlementParties(from: fact.fromMember, to: fact.toMember) {
                reject(fact.source, fact.id, reason); leave(fact, reason.code); continue
            }
            guard fact.fromMember != fact.toMember else {
                reject(fact.source, fact.id, .settlementToSelf(fact.fromMember)); leave(fact, .settlementToSelf); continue
            }
            guard let (amount, conversion) = fx.converted(fact.amount, from: fact.currency, to: couple.currency, on: fact.date) else {
                reject(fact.source, fact.id, .conversion(fx, fact.amount, from: fact.currency, to: couple.currency, on: fact.date))
                leave(fact, conversionCode(fact.currency, fact.date)); continue
            }
            guard fits(amount) else {
                reject(fact.source, fact.id, overTotal(amount))
                leave(fact, .coupleTotalOverLimit); continue
            }
            validSettlements.append(Settlement(id: fact.id, coupleId: fact.coupleId, fromMember: fact.fromMember,
                                               toMember: fact.toMember, amount: amount, date: fact.date, conversion: conversion))
        }

        var validAgreements: [Agreement] = []
        for agreement in agreements {
            let source = SourceRef(file: agreement.sourceFile, line: agreement.sourceLine)
            // An agreement left out is listed on a statement as its month's expense (dated as it would have been).
            func leaveAgreement(_ code: RejectCode) {
                leave(.agreementMonth, agreement.id, agreement.startDate, agreement.description, agreement.amount,
                      agreement.currency, code)
            }
            if let reason = membership.payer(agreement.paidBy) {
                reject(source, agreement.id, reason); leaveAgreement(reason.code); continue
            }
            if let error = SplitCalculator.validate(agreement.split, memberIds: memberIds, amount: agreement.amount,
                                                    currency: agreement.currency) {
                reject(source, agreement.id, .split(error)); leaveAgreement(RejectCode(error)); continue
            }
            validAgreements.append(agreement)
        }

        let ledger = CoupleLedger(couple: couple, members: sortedMembers, expenses: validExpenses,
                                  settlements: validSettlements, agreements: validAgreements)
        return Resolution(ledger: ledger, rejects: rejects, leftOut: leftOut, reachedLimit: reachedLimit)
    }
}
