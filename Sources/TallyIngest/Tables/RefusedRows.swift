import TallyCore

/// A couple's expense or settlement that could not be decoded at all (an
/// empty id or `updatedAt`, a settlement's amount `73,73`), as it was written,
/// for its couple's statement (``TallyCore/RefusedRow``): its couple id,
/// date, description, amount and currency as text, read by field name.
///
/// ```swift
/// RefusedRows.row(decoder, reason: error.why)   // nil for other tables, or when no couple id is written
/// ```
public enum RefusedRows {
    public static func row(_ f: FieldDecoder, reason: RejectReason) -> RefusedRow? {
        let kind: LeftOutRow.Kind
        if f.fields == TableID.expenses.fields { kind = .expense }
        else if f.fields == TableID.settlements.fields { kind = .settlement }
        else { return nil }
        func text(_ name: String) -> String? {
            f.fields.firstIndex(of: name).flatMap { f.optional($0) }.map { String($0.prefix(200)) }
        }
        guard let couple = text("coupleId") else { return nil }
        return RefusedRow(kind: kind, id: text("id") ?? "", written: WrittenRow(
            coupleId: couple, date: text("date"), description: text("description"), amount: text("amount"),
            currency: text("currency")), reason: reason.code)
    }
}
