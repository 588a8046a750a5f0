import TallyCore

/// Decodes the rows of the `expenses/` tables: what can be checked in a row
/// alone (types, formats, required fields). Checks against other rows (is the
/// payer a member? is there an fx rate?) happen per couple in
/// ``TallyCore/LedgerResolver``.
public enum ExpenseDecoders {
    public static func couple(_ f: FieldDecoder) throws(FieldError) -> CoupleRecord {
        CoupleRecord(id: try f.required(0), name: f.optional(1) ?? "", currency: try f.currency(2),
                     createdAt: try f.optionalTimestamp(3))
    }

    public static func member(_ f: FieldDecoder) throws(FieldError) -> MemberRecord {
        let id = try f.required(0)
        let role = f.optional(3)
        if let role, role != "admin", role != "member" {
            throw FieldError(.notOneOf(field: "role", value: String(role.prefix(40)), choices: "admin, member"))
        }
        return MemberRecord(id: id, coupleId: try f.required(1), displayName: f.optional(2) ?? id, role: role,
                            joinedAt: try f.optionalTimestamp(4))
    }

    public static func card(_ f: FieldDecoder) throws(FieldError) -> CardRecord {
        let kind = f.optional(4)
        if let kind, kind != "credit", kind != "debit" {
            throw FieldError(.notOneOf(field: "kind", value: String(kind.prefix(40)), choices: "credit, debit"))
        }
        return CardRecord(id: try f.required(0), coupleId: try f.required(1), ownerId: f.optional(2),
                          label: f.optional(3), kind: kind)
    }

    public static func fx(_ f: FieldDecoder) throws(FieldError) -> FxRecord {
        let date = try f.date(0)
        let currency = try f.currency(1)
        let base = try f.currency(2)
        let rate = try f.decimal(3)
        guard rate.mantissa > 0 else { throw FieldError(.notPositive(field: "rate", value: "\(rate)")) }
        guard currency != base else { throw FieldError(.fieldsEqual("currency", "base", value: base.code)) }
        return FxRecord(rate: FxRate(date: date, currency: currency, base: base, rate: rate))
    }

    /// An agreement row as the domain's ``TallyCore/Agreement`` (its source
    /// file is filled in when it is read back from the warehouse).
    public static func agreement(_ f: FieldDecoder) throws(FieldError) -> Agreement {
        let id = try f.required(0)
        let currency = try f.currency(4)
        let amount = try f.money(3, currency: currency)
        let split = try splitRule(f, typeIndex: 6, splitIndex: 7)
        let day = try f.integer(9, in: 1...31)
        let start = try f.date(10)
        let end = try f.optionalDate(11)
        if let end, end < start { throw FieldError(.endBeforeStart(end: "endDate", "\(end)", start: "startDate", "\(start)")) }
        return Agreement(id: id, coupleId: try f.required(1), description: f.optional(2) ?? "", amount: amount,
                         currency: currency, paidBy: try f.required(5), split: split, tag: f.optional(8) ?? "",
                         dayOfMonth: Int(day), startDate: start, endDate: end, sourceLine: f.line)
    }

    /// An expense version. Throws only when the row cannot be versioned at
    /// all (no id or no valid updatedAt); other problems go into `error`.
    public static func expenseVersion(_ f: FieldDecoder) throws(FieldError) -> ExpenseVersion {
        let id = try f.required(0)
        let updatedAt = try f.timestamp(12)
        var version = ExpenseVersion(id: id, updatedAt: updatedAt, deletedAt: nil, body: nil, error: nil)
        do {
            version.deletedAt = try f.optionalTimestamp(13)
            if version.deletedAt == nil { version.body = try expenseBody(f) }
        } catch {
            version.error = error.why
            func text(_ i: Int) -> String? { f.optional(i).map { String($0.prefix(200)) } }
            version.written = WrittenRow(coupleId: text(1), date: text(5), description: text(6), amount: text(3),
                                         currency: text(4))
        }
        return version
    }

    static func expenseBody(_ f: FieldDecoder) throws(FieldError) -> ExpenseVersion.Body {
        let currency = try f.currency(4)
        return ExpenseVersion.Body(
            coupleId: try f.required(1), paidBy: try f.required(2), amount: try f.money(3, currency: currency),
            currency: currency, date: try f.date(5), description: f.optional(6) ?? "", tag: f.optional(7) ?? "",
            cardId: f.optional(8), agreementId: f.optional(9), split: try splitRule(f, typeIndex: 10, splitIndex: 11))
    }

    public static func settlement(_ f: FieldDecoder) throws(FieldError) -> SettlementRecord {
        let currency = try f.currency(5)
        let amount = try f.money(4, currency: currency)
        guard amount > 0 else { throw FieldError(.notPositive(field: "amount", value: Money.plain(amount, currency))) }
        return SettlementRecord(id: try f.required(0), coupleId: try f.required(1), fromMember: try f.required(2),
                                toMember: try f.required(3), amount: amount, currency: currency, date: try f.date(6),
                                note: f.optional(7))
    }

    static func splitRule(_ f: FieldDecoder, typeIndex: Int, splitIndex: Int) throws(FieldError) -> SplitRule {
        switch SplitRuleParser.parse(typeUTF8: f.view.bytes(typeIndex), splitUTF8: f.view.bytes(splitIndex)) {
        case .success(let rule): return rule
        case .failure(let error): throw FieldError(.split(error))
        }
    }
}
