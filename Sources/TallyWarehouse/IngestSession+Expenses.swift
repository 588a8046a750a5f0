import GRDB
import TallyCore
import TallyIngest

/// Stores the rows of the `expenses/` tables.
extension IngestSession {
    // Keyed tables upsert by key: a row from a later file replaces the
    // stored one. A second row with the same key in the same file is not
    // stored, and the insert returns false so the caller can reject it.

    public func insert(_ r: CoupleRecord, file: Int64, line: Int) throws -> Bool {
        let s = try upsert("couple", ["id", "name", "currency", "created_at"], key: ["id"])
        s.bind(1, r.id); s.bind(2, r.name); s.bind(3, r.currency.code); s.bind(4, r.createdAt?.microseconds)
        return try finishUpsert(s, file: file, line: line, next: 5)
    }

    public func insert(_ r: MemberRecord, file: Int64, line: Int) throws -> Bool {
        let s = try upsert("member", ["id", "couple_id", "display_name", "role", "joined_at"], key: ["id"])
        s.bind(1, r.id); s.bind(2, r.coupleId); s.bind(3, r.displayName); s.bind(4, r.role); s.bind(5, r.joinedAt?.microseconds)
        return try finishUpsert(s, file: file, line: line, next: 6)
    }

    public func insert(_ r: CardRecord, file: Int64, line: Int) throws -> Bool {
        let s = try upsert("card", ["id", "couple_id", "owner_id", "label", "kind"], key: ["id"])
        s.bind(1, r.id); s.bind(2, r.coupleId); s.bind(3, r.ownerId); s.bind(4, r.label); s.bind(5, r.kind)
        return try finishUpsert(s, file: file, line: line, next: 6)
    }

    public func insert(_ r: FxRecord, file: Int64, line: Int) throws -> Bool {
        let s = try upsert("fx_rate", ["currency", "base", "date", "rate"], key: ["currency", "base", "date"])
        s.bind(1, r.rate.currency.code); s.bind(2, r.rate.base.code); s.bind(3, r.rate.date.description)
        s.bind(4, r.rate.rate.description)
        return try finishUpsert(s, file: file, line: line, next: 5)
    }

    public func insert(_ r: Agreement, file: Int64, line: Int) throws -> Bool {
        let s = try upsert("agreement", ["id", "couple_id", "description", "amount", "currency", "paid_by",
                                                   "split_type", "split", "tag", "day_of_month", "start_date", "end_date"],
                                     key: ["id"])
        s.bind(1, r.id); s.bind(2, r.coupleId); s.bind(3, r.description); s.bind(4, r.amount)
        s.bind(5, r.currency.code); s.bind(6, r.paidBy); s.bind(7, r.split.type.rawValue)
        s.bind(8, SplitRuleParser.format(r.split)); s.bind(9, r.tag); s.bind(10, r.dayOfMonth)
        s.bind(11, r.startDate.description); s.bind(12, r.endDate?.description)
        return try finishUpsert(s, file: file, line: line, next: 13)
    }

    public func insert(_ r: SettlementRecord, file: Int64, line: Int) throws -> Bool {
        let s = try upsert("settlement", ["id", "couple_id", "from_member", "to_member", "amount", "currency",
                                                    "date", "note"], key: ["id"])
        s.bind(1, r.id); s.bind(2, r.coupleId); s.bind(3, r.fromMember); s.bind(4, r.toMember); s.bind(5, r.amount)
        s.bind(6, r.currency.code); s.bind(7, r.date.description); s.bind(8, r.note)
        return try finishUpsert(s, file: file, line: line, next: 9)
    }

    /// Stores one version of an expense (every version is kept; see ``finish()``).
    public func insert(_ v: ExpenseVersion, file: Int64, line: Int) throws {
        let s = try statement("""
            INSERT INTO expense_version (id, updated_at, deleted_at, couple_id, paid_by, amount, currency, date,
                description, tag, card_id, agreement_id, split_type, split, error, file_id, line)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        s.bind(1, v.id); s.bind(2, v.updatedAt.microseconds); s.bind(3, v.deletedAt?.microseconds)
        if let b = v.body {
            s.bind(4, b.coupleId); s.bind(5, b.paidBy); s.bind(6, b.amount); s.bind(7, b.currency.code)
            s.bind(8, b.date.description); s.bind(9, b.description); s.bind(10, b.tag); s.bind(11, b.cardId)
            s.bind(12, b.agreementId); s.bind(13, b.split.type.rawValue); s.bind(14, SplitRuleParser.format(b.split))
        }
        s.bind(15, v.error); s.bind(16, file); s.bind(17, line)
        try s.step()
    }

}
