import TallyCore
import TallyIngest

/// The tables a dataflow run decodes, each with its decoder (TallyIngest's,
/// as `tally run` loads it) and the key its rows are grouped by for their
/// row rule: a reference table's key (its upsert key), an expense's id.
enum FlowTables {
    /// Whether the dataflow reads `table`'s files.
    static func decodes(_ table: TableID) -> Bool {
        switch table {
        case .couples, .members, .cards, .fx, .agreements, .settlements, .expenses: return true
        case .swipeUsers, .swipes, .products, .events, .connections: return true
        default: return false
        }
    }

    /// Decodes one row of `table`: the key that groups it for its row rule, and the record.
    static func decode(_ table: TableID, _ f: FieldDecoder, origin: RowOrigin, rawId: String) throws(FieldError) -> ([UInt8], FlowRecord) {
        func reference(_ value: ReferenceRow.Value, _ key: String...) -> ([UInt8], FlowRecord) {
            (FlowKeys.row(table, key), .reference(ReferenceRow(table: table, value: value, origin: origin, rawId: rawId)))
        }
        switch table {
        case .couples:
            let r = try ExpenseDecoders.couple(f)
            return reference(.couple(r), r.id)
        case .members:
            let r = try ExpenseDecoders.member(f)
            return reference(.member(r), r.id)
        case .cards:
            let r = try ExpenseDecoders.card(f)
            return reference(.card(r), r.id)
        case .fx:
            let r = try ExpenseDecoders.fx(f)
            return reference(.fx(r), r.rate.currency.code, r.rate.base.code, r.rate.date.description)
        case .agreements:
            let r = try ExpenseDecoders.agreement(f)
            return reference(.agreement(r), r.id)
        case .settlements:
            let r = try ExpenseDecoders.settlement(f)
            return reference(.settlement(r), r.id)
        case .expenses:
            let v = try ExpenseDecoders.expenseVersion(f)
            return (FlowKeys.row(table, [v.id]), .expenseVersion(v, origin))
        case .swipeUsers, .swipes, .products, .events, .connections:
            return try KPITables.decode(table, f, origin: origin, rawId: rawId)
        default:
            preconditionFailure("\(table.qualifiedName) is not decoded by the dataflow")
        }
    }

    /// How a repeat of `table`'s key within one file is worded ("id", "productId", …).
    static func keyDescription(_ table: TableID) -> String {
        InputLoaders.tables[table]?.keyDescription ?? "id"
    }
}

/// The keys records are routed by, as bytes (compared byte for byte, as
/// Spark sorts UTF-8): fields joined by a TAB, which no key field holds
/// once on the wire (escaped there).
enum FlowKeys {
    /// A row's key for its row rule: its table, then its key fields.
    static func row(_ table: TableID, _ fields: [String]) -> [UInt8] {
        Array(([table.rawValue] + fields).joined(separator: "\t").utf8)
    }

    /// The key of what a file contributes to the merge (its accounting, its rejects).
    static func file(_ seq: Int) -> [UInt8] { Array("file\t\(seq)".utf8) }

    /// A partition's key: the entity's id (a couple).
    static func entity(_ id: String) -> [UInt8] { Array(id.utf8) }
}
