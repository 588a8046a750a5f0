import GRDB
import TallyCore
import TallyIngest

/// Stores the rows of the `expenses/` tables.
extension IngestSession {
    // Keyed tables upsert by key (``UpsertStatement``): a changed row from a
    // later file replaces the stored one, which is set aside; an identical
    // one is set aside itself. A second row with the same key in the same
    // file is not stored, and the insert returns false so the caller can
    // reject it.

    public func insert(_ r: CoupleRecord, file: Int64, line: Int) throws -> Bool {
        try storeKeyed("couple", ReferenceColumns.values(r), file: file, line: line)
    }

    public func insert(_ r: MemberRecord, file: Int64, line: Int) throws -> Bool {
        try storeKeyed("member", ReferenceColumns.values(r), file: file, line: line)
    }

    public func insert(_ r: CardRecord, file: Int64, line: Int) throws -> Bool {
        try storeKeyed("card", ReferenceColumns.values(r), file: file, line: line)
    }

    public func insert(_ r: FxRecord, file: Int64, line: Int) throws -> Bool {
        try storeKeyed("fx_rate", ReferenceColumns.values(r), file: file, line: line)
    }

    public func insert(_ r: Agreement, file: Int64, line: Int) throws -> Bool {
        try storeKeyed("agreement", ReferenceColumns.values(r), file: file, line: line)
    }

    public func insert(_ r: SettlementRecord, file: Int64, line: Int) throws -> Bool {
        try storeKeyed("settlement", ReferenceColumns.values(r), file: file, line: line)
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
