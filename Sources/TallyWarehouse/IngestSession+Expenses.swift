import GRDB
import TallyCore
import TallyIngest

/// Stores the rows of the `expenses/` tables.
extension IngestSession {
    // Keyed tables upsert by key (``UpsertStatement``): a row from a later
    // file replaces the stored one, which is set aside. A second row with
    // the same key in the same file is not stored, and the insert returns
    // false so the caller can reject it.

    public func insert(_ r: CoupleRecord, file: Int64, line: Int) throws -> Bool {
        let s = try upsert("couple")
        s.bind(1, r.id); s.bind(2, r.name); s.bind(3, r.currency.code); s.bind(4, r.createdAt?.microseconds)
        return try finishUpsert(s, file: file, line: line, next: 5)
    }

    public func insert(_ r: MemberRecord, file: Int64, line: Int) throws -> Bool {
        let s = try upsert("member")
        s.bind(1, r.id); s.bind(2, r.coupleId); s.bind(3, r.displayName); s.bind(4, r.role); s.bind(5, r.joinedAt?.microseconds)
        return try finishUpsert(s, file: file, line: line, next: 6)
    }

    public func insert(_ r: CardRecord, file: Int64, line: Int) throws -> Bool {
        let s = try upsert("card")
        s.bind(1, r.id); s.bind(2, r.coupleId); s.bind(3, r.ownerId); s.bind(4, r.label); s.bind(5, r.kind)
        return try finishUpsert(s, file: file, line: line, next: 6)
    }

    public func insert(_ r: FxRecord, file: Int64, line: Int) throws -> Bool {
        let s = try upsert("fx_rate")
        s.bind(1, r.rate.currency.code); s.bind(2, r.rate.base.code); s.bind(3, r.rate.date.description)
        s.bind(4, r.rate.rate.description)
        return try finishUpsert(s, file: file, line: line, next: 5)
    }

    public func insert(_ r: Agreement, file: Int64, line: Int) throws -> Bool {
        let s = try upsert("agreement")
        s.bind(1, r.id); s.bind(2, r.coupleId); s.bind(3, r.description); s.bind(4, r.amount)
        s.bind(5, r.currency.code); s.bind(6, r.paidBy); s.bind(7, r.split.type.rawValue)
        s.bind(8, SplitRuleParser.format(r.split)); s.bind(9, r.tag); s.bind(10, r.dayOfMonth)
        s.bind(11, r.startDate.description); s.bind(12, r.endDate?.description)
        return try finishUpsert(s, file: file, line: line, next: 13)
    }

    public func insert(_ r: SettlementRecord, file: Int64, line: Int) throws -> Bool {
        let s = try upsert("settlement")
        s.bind(1, r.id); s.bind(2, r.coupleId); s.bind(3, r.fromMember); s.bind(4, r.toMember); s.bind(5, r.amount)
        s.bind(6, r.currency.code); s.bind(7, r.date.description); s.bind(8, r.note)
        return try finishUpsert(s, file: file, line: line, next: 9)
    }

    /// Stores one version of an expense (every version is kept; see ``finish()``).
    public func insert(_ v: ExpenseVersion, file: Int64, line: Int) throws {
        var batch = RowBatch()
        Self.stage(v, line: line, into: &batch)
        try store(expenseVersions: batch, file: file)
    }

    /// The expense version columns a ``RowBatch`` stages, in order (see ``stage(_:line:into:)``).
    static let expenseVersionColumns = ["id", "updated_at", "deleted_at", "couple_id", "paid_by", "amount", "currency", "date",
                                        "description", "tag", "card_id", "agreement_id", "split_type", "split", "error",
                                        "error_code", "written_amount"]

    /// Stages expense version `v`, read at `line`, for ``store(expenseVersions:file:)``
    /// (pure: runs on a reading thread). A deletion leaves the body's
    /// columns NULL; a version that failed validation keeps what it wrote
    /// (``TallyIngest/ExpenseVersion/written``) in its couple, currency,
    /// date, description and `written_amount` columns.
    public static func stage(_ v: ExpenseVersion, line: Int, into batch: inout RowBatch) {
        batch.append(v.id); batch.append(v.updatedAt.microseconds); batch.append(v.deletedAt?.microseconds)
        if let b = v.body {
            batch.append(b.coupleId); batch.append(b.paidBy); batch.append(b.amount); batch.append(b.currency.code)
            batch.append(b.date.description); batch.append(b.description); batch.append(b.tag); batch.append(b.cardId)
            batch.append(b.agreementId); batch.append(b.split.type.rawValue); batch.append(SplitRuleParser.format(b.split))
        } else if let w = v.written {
            batch.append(w.coupleId); batch.append(nil as Int64?); batch.append(nil as Int64?); batch.append(w.currency)
            batch.append(w.date); batch.append(w.description)
            for _ in 0..<5 { batch.append(nil as Int64?) }
        } else {
            for _ in 0..<11 { batch.append(nil as Int64?) }
        }
        batch.append(v.error?.text); batch.append(v.error?.code.rawValue); batch.append(v.written?.amount)
        batch.endRow(line: line)
    }

    /// Appends staged expense versions (every version is kept; the winner per id is derived at the end).
    public func store(expenseVersions batch: RowBatch, file: Int64) throws {
        _ = try append(batch, to: "expense_version", columns: Self.expenseVersionColumns, file: file)
    }
}
