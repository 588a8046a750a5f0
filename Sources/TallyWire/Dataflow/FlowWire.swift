import TallyCore
import TallyIngest

/// A dataflow record on the wire (`flow.v2`), the line form workers read
/// and write (see docs/scale-out.md): the record's case, then its fields in
/// the encodings this module defines for the values it carries.
///
/// A worker line is `KEY<TAB>flow.v2<TAB>case<TAB>fields…`: the routing key
/// escaped as one field, then this record (``FlowLines``).
extension FlowRecord: WireRecord {
    public static let wireKind = "flow"
    public static let wireVersion = 2
    public static let wireKeyFieldCount = 0
    /// The case of ``FlowRecord/sourceColumns(_:)`` on the wire, which an engine writes itself.
    public static let sourceColumnsCase = "source-columns"
    /// The case of ``FlowRecord/sourceRow(index:json:)`` on the wire, which an engine writes itself.
    public static let sourceRowCase = "source-row"

    /// Appends the record's fields in the binary field form (``WireWriter/binary``).
    public func appendBinaryFields(to writer: inout WireWriter) {
        precondition(writer.binary, "a line writer for binary fields")
        encode(into: &writer)
    }

    /// Reads a record from its fields in the binary field form; `number` names it in errors.
    public init(binaryFields bytes: UnsafeBufferPointer<UInt8>, number: Int) throws(WireError) {
        self = try WireFields.decodeBinary(FlowRecord.self, from: bytes, number: number)
    }

    public func encode(into w: inout WireWriter) {
        switch self {
        case .task(let file):
            w.string("task"); w.int(file)
        case .sourceColumns(let names):
            w.string(Self.sourceColumnsCase); w.count(names.count)
            for name in names { w.string(name) }
        case .sourceRow(let index, let json):
            w.string(Self.sourceRowCase); w.int(index); w.byteString(json)
        case .reference(let row):
            w.string("reference"); row.encode(into: &w)
        case .expenseVersion(let v, let origin):
            w.string("expense-version"); v.encode(into: &w); origin.encode(into: &w)
        case .checkin(let r, let origin):
            w.string("checkin"); r.encode(into: &w); origin.encode(into: &w)
        case .coupleRow(let row):
            w.string("couple-row"); row.encode(into: &w)
        case .winningExpense(let v, let origin):
            w.string("winning-expense"); v.encode(into: &w); origin.encode(into: &w)
        case .refusedRow(let r):
            w.string("refused-row"); r.encode(into: &w)
        case .groupChallenge(let c):
            w.string("group-challenge"); c.encode(into: &w)
        case .groupMembership(let m):
            w.string("group-membership"); m.encode(into: &w)
        case .countedCheckin(let c):
            w.string("counted-checkin"); c.encode(into: &w)
        case .challengeWithMembers(let c, let members):
            w.string("challenge-with-members"); c.encode(into: &w)
            w.count(members.count)
            for m in members { m.encode(into: &w) }
        case .activityRow(let day, let origin):
            w.string("activity-row"); day.encode(into: &w); origin.encode(into: &w)
        case .exportDay(let day, let file):
            w.string("export-day"); day.encode(into: &w); w.int(file)
        case .userDay(let day):
            w.string("user-day"); day.encode(into: &w)
        case .familyExpense(let family, let v, let origin):
            w.string("family-expense"); w.string(family); v.encode(into: &w); origin.encode(into: &w)
        case .familyResult(let family, let bytes):
            w.string("family-result"); w.string(family); w.byteString(bytes)
        case .fileRead(let read):
            w.string("file-read"); read.encode(into: &w)
        case .superseded(let file, let rows):
            w.string("superseded"); w.int(file); w.int(rows)
        case .reject(let reject):
            w.string("reject"); reject.encode(into: &w)
        case .statement(let result):
            w.string("statement"); result.encode(into: &w)
        case .statementsSummary(let summary):
            w.string("statements-summary"); summary.encode(into: &w)
        case .board(let result):
            w.string("board"); result.encode(into: &w)
        case .leaderboardsSummary(let summary):
            w.string("leaderboards-summary"); summary.encode(into: &w)
        case .activity(let result):
            w.string("activity"); result.encode(into: &w)
        case .kpis(let record):
            w.string("kpis"); record.encode(into: &w)
        }
    }

    public init(fields f: inout WireFields) throws(WireError) {
        let kind = try f.string("case")
        // A switch over strings compares the cases in order: the cases that
        // come by the million come first.
        switch kind {
        case "kpis": self = .kpis(try KPIRecord(fields: &f))
        case "expense-version": self = .expenseVersion(try ExpenseVersion(fields: &f), try RowOrigin(fields: &f))
        case "winning-expense": self = .winningExpense(try ExpenseVersion(fields: &f), try RowOrigin(fields: &f))
        case "checkin": self = .checkin(try CheckinRecord(fields: &f), try RowOrigin(fields: &f))
        case "counted-checkin": self = .countedCheckin(try CheckinFact(fields: &f))
        case "activity-row": self = .activityRow(try DailyActivity(fields: &f), try RowOrigin(fields: &f))
        case "task": self = .task(file: try f.int("file"))
        case Self.sourceColumnsCase:
            var names: [String] = []
            for _ in 0..<(try f.count("columnCount")) { names.append(try f.string("column")) }
            self = .sourceColumns(names)
        case Self.sourceRowCase: self = .sourceRow(index: try f.int("index"), json: try f.byteString("json"))
        case "reference": self = .reference(try ReferenceRow(fields: &f))
        case "couple-row": self = .coupleRow(try ReferenceRow(fields: &f))
        case "refused-row": self = .refusedRow(try RefusedRow(fields: &f))
        case "group-challenge": self = .groupChallenge(try Challenge(fields: &f))
        case "group-membership": self = .groupMembership(try GroupMembership(fields: &f))
        case "challenge-with-members":
            let challenge = try Challenge(fields: &f)
            var members: [GroupMembership] = []
            for _ in 0..<(try f.count("memberCount")) { members.append(try GroupMembership(fields: &f)) }
            self = .challengeWithMembers(challenge, members)
        case "export-day": self = .exportDay(try DailyActivity(fields: &f), file: try f.int("file"))
        case "user-day": self = .userDay(try DailyActivity(fields: &f))
        case "family-expense":
            self = .familyExpense(family: try f.string("family"), try ExpenseVersion(fields: &f), try RowOrigin(fields: &f))
        case "family-result": self = .familyResult(family: try f.string("family"), try f.byteString("result"))
        case "file-read": self = .fileRead(try FileRead(fields: &f))
        case "superseded": self = .superseded(file: try f.int("file"), rows: try f.int("rows"))
        case "reject": self = .reject(try Reject(fields: &f))
        case "statement": self = .statement(try PartitionResult(fields: &f))
        case "statements-summary": self = .statementsSummary(try StatementsFamily.Summary(fields: &f))
        case "board": self = .board(try PartitionResult(fields: &f))
        case "leaderboards-summary": self = .leaderboardsSummary(try LeaderboardsFamily.Summary(fields: &f))
        case "activity": self = .activity(try PartitionResult(fields: &f))
        default: throw f.error("'\(kind.prefix(40))' is not a dataflow record")
        }
    }
}

extension PartitionResult where Rows: WireRecord, Summary: WireRecord {
    /// `key  (rows fields)  (summary fields)`.
    public func encode(into w: inout WireWriter) {
        w.byteString(key.bytes)
        rows.encode(into: &w)
        summary.encode(into: &w)
    }

    public init(fields f: inout WireFields) throws(WireError) {
        self.init(key: PartitionKey(bytes: try f.byteString("key")), rows: try Rows(fields: &f), summary: try Summary(fields: &f))
    }
}

extension RowOrigin {
    /// `file  line`.
    public func encode(into w: inout WireWriter) {
        w.int(file)
        w.int(line)
    }

    public init(fields f: inout WireFields) throws(WireError) {
        self.init(file: try f.int("origin.file"), line: try f.int("origin.line"))
    }
}

extension FileRead {
    /// `file  rowsRead  bytes  sha256  unknownCount  (field)…  refusal?`.
    public func encode(into w: inout WireWriter) {
        w.int(file)
        w.int(rowsRead)
        w.int(bytes)
        w.string(sha256)
        w.count(unknownFields.count)
        for field in unknownFields { w.string(field) }
        w.string(refusal)
    }

    public init(fields f: inout WireFields) throws(WireError) {
        file = try f.int("file")
        rowsRead = try f.int("rowsRead")
        bytes = try f.int64("bytes")
        sha256 = try f.string("sha256")
        unknownFields = []
        for _ in 0..<(try f.count("unknownCount")) { unknownFields.append(try f.string("unknownField")) }
        refusal = try f.optionalString("refusal")
    }
}

extension ReferenceRow {
    /// `table  file  line  rawId  (the row's fields)`.
    public func encode(into w: inout WireWriter) {
        w.string(table.rawValue)
        origin.encode(into: &w)
        w.string(rawId)
        switch value {
        case .couple(let r):
            w.string(r.id); w.string(r.name); w.currency(r.currency); w.timestamp(r.createdAt)
        case .member(let r):
            w.string(r.id); w.string(r.coupleId); w.string(r.displayName); w.string(r.role); w.timestamp(r.joinedAt)
        case .card(let r):
            w.string(r.id); w.string(r.coupleId); w.string(r.ownerId); w.string(r.label); w.string(r.kind)
        case .fx(let r): r.rate.encode(into: &w)
        case .agreement(let r): r.encode(into: &w)
        case .settlement(let r):
            w.string(r.id); w.string(r.coupleId); w.string(r.fromMember); w.string(r.toMember); w.int(r.amount)
            w.currency(r.currency); w.date(r.date); w.string(r.note)
        case .challenge(let c): c.encode(into: &w)
        case .membership(let m): m.encode(into: &w)
        case .swipeUser(let u):
            w.string(u.id); w.timestamp(u.createdAt); w.string(u.gender); w.string(u.city); w.string(u.subscription)
        case .product(let p): p.entry.encode(into: &w)
        case .connection(let c): c.connection.encode(into: &w)
        }
    }

    public init(fields f: inout WireFields) throws(WireError) {
        let name = try f.string("table")
        guard let table = TableID(rawValue: name) else { throw f.error("'\(name.prefix(40))' is not a table") }
        self.table = table
        origin = try RowOrigin(fields: &f)
        rawId = try f.string("rawId")
        switch table {
        case .couples:
            value = .couple(CoupleRecord(id: try f.string("id"), name: try f.string("name"), currency: try f.currency("currency"),
                                         createdAt: try f.optionalTimestamp("createdAt")))
        case .members:
            value = .member(MemberRecord(id: try f.string("id"), coupleId: try f.string("coupleId"),
                                         displayName: try f.string("displayName"), role: try f.optionalString("role"),
                                         joinedAt: try f.optionalTimestamp("joinedAt")))
        case .cards:
            value = .card(CardRecord(id: try f.string("id"), coupleId: try f.string("coupleId"), ownerId: try f.optionalString("ownerId"),
                                     label: try f.optionalString("label"), kind: try f.optionalString("kind")))
        case .fx: value = .fx(FxRecord(rate: try FxRate(fields: &f)))
        case .agreements: value = .agreement(try Agreement(fields: &f))
        case .settlements:
            value = .settlement(SettlementRecord(
                id: try f.string("id"), coupleId: try f.string("coupleId"), fromMember: try f.string("fromMember"),
                toMember: try f.string("toMember"), amount: try f.int64("amount"), currency: try f.currency("currency"),
                date: try f.date("date"), note: try f.optionalString("note")))
        case .challenges: value = .challenge(try Challenge(fields: &f))
        case .groupMembers: value = .membership(try GroupMembership(fields: &f))
        case .swipeUsers:
            value = .swipeUser(SwipeUserRecord(id: try f.string("id"), createdAt: try f.optionalTimestamp("createdAt"),
                                               gender: try f.optionalString("gender"), city: try f.optionalString("city"),
                                               subscription: try f.optionalString("subscription")))
        case .products: value = .product(ProductRecord(entry: try ProductCatalog.Entry(fields: &f)))
        case .connections: value = .connection(ConnectionRecord(connection: try PartnerConnection(fields: &f)))
        default: throw f.error("\(table.qualifiedName) has no reference rows")
        }
    }
}

extension ExpenseVersion {
    /// `id  updatedAt  deletedAt?  hasError  [reason  code  coupleId?  date?  description?  amount?  currency?]
    /// hasBody  [coupleId  paidBy  amount  currency  date  description  tag  cardId?  agreementId?  split…]`
    /// (a version that failed validation: why, and what it wrote).
    public func encode(into w: inout WireWriter) {
        w.string(id); w.timestamp(updatedAt); w.timestamp(deletedAt)
        w.bool(error != nil)
        if let error {
            error.encode(into: &w)
            let written = self.written ?? WrittenRow(coupleId: nil, date: nil, description: nil, amount: nil, currency: nil)
            w.string(written.coupleId); w.string(written.date); w.string(written.description); w.string(written.amount)
            w.string(written.currency)
        }
        w.bool(body != nil)
        guard let b = body else { return }
        w.string(b.coupleId); w.string(b.paidBy); w.int(b.amount); w.currency(b.currency); w.date(b.date)
        w.string(b.description); w.string(b.tag); w.string(b.cardId); w.string(b.agreementId)
        b.split.encode(into: &w)
    }

    public init(fields f: inout WireFields) throws(WireError) {
        self.init(id: try f.string("id"), updatedAt: try f.timestamp("updatedAt"), deletedAt: try f.optionalTimestamp("deletedAt"),
                  body: nil, error: nil)
        if try f.bool("hasError") {
            error = try RejectReason(fields: &f)
            written = WrittenRow(coupleId: try f.optionalString("writtenCoupleId"), date: try f.optionalString("writtenDate"),
                                 description: try f.optionalString("writtenDescription"),
                                 amount: try f.optionalString("writtenAmount"), currency: try f.optionalString("writtenCurrency"))
        }
        guard try f.bool("hasBody") else { return }
        body = Body(coupleId: try f.string("coupleId"), paidBy: try f.string("paidBy"), amount: try f.int64("amount"),
                    currency: try f.currency("currency"), date: try f.date("date"), description: try f.string("description"),
                    tag: try f.string("tag"), cardId: try f.optionalString("cardId"), agreementId: try f.optionalString("agreementId"),
                    split: try SplitRule(fields: &f))
    }
}

extension CheckinRecord {
    /// `id  groupId  challengeId  userId  displayName  userPhotoURL?  checkInPhotoURL?  workoutEntryId?  minutes  createdAt`.
    public func encode(into w: inout WireWriter) {
        w.string(id); w.string(groupId); w.string(challengeId); w.string(userId); w.string(displayName)
        w.string(userPhotoURL); w.string(checkInPhotoURL); w.string(workoutEntryId); w.int(minutes); w.timestamp(createdAt)
    }

    public init(fields f: inout WireFields) throws(WireError) {
        self.init(id: try f.string("id"), groupId: try f.string("groupId"), challengeId: try f.string("challengeId"),
                  userId: try f.string("userId"), displayName: try f.string("displayName"),
                  userPhotoURL: try f.optionalString("userPhotoURL"), checkInPhotoURL: try f.optionalString("checkInPhotoURL"),
                  workoutEntryId: try f.optionalString("workoutEntryId"), minutes: try f.int("minutes"),
                  createdAt: try f.timestamp("createdAt"))
    }
}
