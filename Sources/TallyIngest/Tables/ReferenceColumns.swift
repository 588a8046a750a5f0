import TallyCore

/// A value as a keyed table stores it. Two values are equal as SQLite's
/// `IS` finds them: text byte for byte (not by Unicode equivalence), NULL
/// equal to NULL whatever the column's kind.
///
/// ```swift
/// StoredValue.text("Café") == .text("Cafe\u{301}")   // false: other bytes
/// StoredValue.integer(nil) == .text(nil)             // true: both NULL
/// ```
public enum StoredValue: Sendable, Equatable {
    case text(String?)
    case integer(Int64?)
    case real(Double?)

    /// Whether the value is NULL.
    public var isNull: Bool {
        switch self {
        case .text(let v): v == nil
        case .integer(let v): v == nil
        case .real(let v): v == nil
        }
    }

    public static func == (a: StoredValue, b: StoredValue) -> Bool {
        switch (a, b) {
        case (.text(let x?), .text(let y?)): x.utf8.elementsEqual(y.utf8)
        case (.integer(let x?), .integer(let y?)): x == y
        case (.real(let x?), .real(let y?)): x == y
        default: a.isNull && b.isNull
        }
    }
}

/// The values a reference record stores in its keyed table, in the table's
/// column order (its file and line aside): what the warehouse binds, and
/// what makes two rows of a key identical for ``TallyCore/ReferenceRowRule``
/// wherever rows are judged (the warehouse compares the stored columns, a
/// dataflow these values).
///
/// ```swift
/// ReferenceColumns.values(CoupleRecord(id: "c1", name: "Ana & Ben", currency: Currency(code: "EUR")!, createdAt: nil))
/// // [.text("c1"), .text("Ana & Ben"), .text("EUR"), .integer(nil)]
/// ```
public enum ReferenceColumns {
    public static func values(_ r: CoupleRecord) -> [StoredValue] {
        [.text(r.id), .text(r.name), .text(r.currency.code), .integer(r.createdAt?.microseconds)]
    }

    public static func values(_ r: MemberRecord) -> [StoredValue] {
        [.text(r.id), .text(r.coupleId), .text(r.displayName), .text(r.role), .integer(r.joinedAt?.microseconds)]
    }

    public static func values(_ r: CardRecord) -> [StoredValue] {
        [.text(r.id), .text(r.coupleId), .text(r.ownerId), .text(r.label), .text(r.kind)]
    }

    public static func values(_ r: FxRecord) -> [StoredValue] {
        [.text(r.rate.currency.code), .text(r.rate.base.code), .text(r.rate.date.description), .text(r.rate.rate.description)]
    }

    public static func values(_ r: Agreement) -> [StoredValue] {
        [.text(r.id), .text(r.coupleId), .text(r.description), .integer(r.amount), .text(r.currency.code), .text(r.paidBy),
         .text(r.split.type.rawValue), .text(SplitRuleParser.format(r.split)), .text(r.tag), .integer(Int64(r.dayOfMonth)),
         .text(r.startDate.description), .text(r.endDate?.description)]
    }

    public static func values(_ r: SettlementRecord) -> [StoredValue] {
        [.text(r.id), .text(r.coupleId), .text(r.fromMember), .text(r.toMember), .integer(r.amount), .text(r.currency.code),
         .text(r.date.description), .text(r.note)]
    }

    public static func values(_ c: Challenge) -> [StoredValue] {
        [.text(c.id), .text(c.groupId), .text(c.name), .text(c.startDate.description), .text(c.endDate.description)]
    }

    public static func values(_ m: GroupMembership) -> [StoredValue] {
        [.text(m.groupId), .text(m.userId), .integer(m.joinedAt.microseconds), .integer(m.leftAt?.microseconds)]
    }

    public static func values(_ r: SwipeUserRecord) -> [StoredValue] {
        [.text(r.id), .integer(r.createdAt?.microseconds), .text(r.gender), .text(r.city), .text(r.subscription)]
    }

    public static func values(_ r: ProductRecord) -> [StoredValue] {
        let e = r.entry
        return [.text(e.productId), .text(e.app), .text(e.plan), .text(e.yearly ? "yearly" : "monthly"), .integer(e.price),
                .text(e.currency.code)]
    }

    public static func values(_ r: ConnectionRecord) -> [StoredValue] {
        let c = r.connection
        return [.text(c.userId), .text(c.partnerId), .integer(c.connectedAt.microseconds), .integer(c.disconnectedAt?.microseconds)]
    }
}
