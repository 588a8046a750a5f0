import TallyCore
import TallyIngest
import TallyWire

/// Every contract table as a dataflow run decodes it, with its decoder (TallyIngest's,
/// as `tally run` loads it) and the key its rows are grouped by for their
/// row rule: a reference table's key (its upsert key), an expense's id.
enum FlowTables {
    /// Decodes one row of `table`: the stage that judges it (``RowsStage``,
    /// or for activity rows ``DaysStage``), the key that groups it there, and the record.
    static func decode(_ table: TableID, _ f: FieldDecoder, origin: RowOrigin,
                       rawId: String) throws(FieldError) -> (FlowStageName, [UInt8], FlowRecord) {
        func reference(_ value: ReferenceRow.Value, _ key: String...) -> (FlowStageName, [UInt8], FlowRecord) {
            (.rows, FlowKeys.row(table, key), .reference(ReferenceRow(table: table, value: value, origin: origin, rawId: rawId)))
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
            return (.rows, FlowKeys.row(table, [v.id]), .expenseVersion(v, origin))
        case .challenges:
            let r = try FitnessDecoders.challenge(f)
            return reference(.challenge(r.challenge), r.challenge.id)
        case .groupMembers:
            let m = try FitnessDecoders.groupMember(f).membership
            return reference(.membership(m), m.groupId, m.userId, "\(m.joinedAt.microseconds)")
        case .checkins:
            let r = try FitnessDecoders.checkin(f)
            return (.rows, FlowKeys.row(table, [r.id]), .checkin(r, origin))
        case .activity:
            let day = try HealthDecoders.activity(f).day
            return (.days, FlowKeys.userDay(day.userId, day.date), .activityRow(day, origin))
        case .swipeUsers, .swipes, .products, .events, .connections:
            return try KPITables.decode(table, f, origin: origin, rawId: rawId)
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

    /// A user's day: the key of the rows ``ActivityDayRule`` judges together.
    static func userDay(_ user: String, _ date: LocalDate) -> [UInt8] { Array("\(user)\t\(date)".utf8) }

    /// A records family's partition: the family's name, a tab, the partition's key.
    static func family(_ name: String, _ key: PartitionKey) -> [UInt8] { Array((name + "\t").utf8) + key.bytes }

    /// The partition key of a records family's flow key (``family(_:_:)``).
    static func partition(ofFamilyKey key: [UInt8]) -> PartitionKey {
        PartitionKey(bytes: Array(key.drop { $0 != UInt8(ascii: "\t") }.dropFirst()))
    }

    /// A partition's key: the entity's id (a couple, a group, a workout, a challenge, a user).
    static func entity(_ id: String) -> [UInt8] { Array(id.utf8) }
}
