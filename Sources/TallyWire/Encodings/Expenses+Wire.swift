import TallyCore

// The wire forms of the couple partition's inputs (statements): each keyed
// by its couple, so a byte sort of the lines brings a couple's rows together.

extension Couple: WireRecord {
    public static let wireKind = "couple"
    public static let wireVersion = 1
    public static let wireKeyFieldCount = 1

    /// `couple.v1  id  name  currency`
    public func encode(into writer: inout WireWriter) {
        writer.string(id)
        writer.string(name)
        writer.currency(currency)
    }

    public init(fields: inout WireFields) throws(WireError) {
        self.init(id: try fields.string("id"), name: try fields.string("name"), currency: try fields.currency("currency"))
    }
}

extension Member: WireRecord {
    public static let wireKind = "member"
    public static let wireVersion = 1
    public static let wireKeyFieldCount = 1

    /// `member.v1  coupleId  id  displayName`
    public func encode(into writer: inout WireWriter) {
        writer.string(coupleId)
        writer.string(id)
        writer.string(displayName)
    }

    public init(fields: inout WireFields) throws(WireError) {
        let coupleId = try fields.string("coupleId")
        self.init(id: try fields.string("id"), coupleId: coupleId, displayName: try fields.string("displayName"))
    }
}

extension SplitRule {
    /// Three fields and more: the type (`shares`), the number of entries,
    /// then each entry's member id and value (`\N` for none).
    public func encode(into writer: inout WireWriter) {
        writer.enumeration(type)
        writer.count(entries.count)
        for entry in entries {
            writer.string(entry.memberId)
            writer.decimal(entry.value)
        }
    }

    public init(fields: inout WireFields) throws(WireError) {
        let type = try fields.enumeration("split.type", SplitType.self)
        let count = try fields.count("split.count")
        var entries: [SplitEntry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            entries.append(SplitEntry(memberId: try fields.string("split.memberId"), value: try fields.optionalDecimal("split.value")))
        }
        self.init(type: type, entries: entries)
    }
}

extension ExpenseFact: WireRecord {
    public static let wireKind = "expense"
    public static let wireVersion = 1
    public static let wireKeyFieldCount = 1

    /// `expense.v1  coupleId  id  paidBy  amount  currency  date  description  tag
    /// agreementId  sourceFile  sourceLine  split…`
    public func encode(into writer: inout WireWriter) {
        writer.string(coupleId)
        writer.string(id)
        writer.string(paidBy)
        writer.int(amount)
        writer.currency(currency)
        writer.date(date)
        writer.string(description)
        writer.string(tag)
        writer.string(agreementId)
        writer.string(source.file)
        writer.int(source.line)
        split.encode(into: &writer)
    }

    public init(fields: inout WireFields) throws(WireError) {
        let coupleId = try fields.string("coupleId")
        let id = try fields.string("id")
        let paidBy = try fields.string("paidBy")
        let amount = try fields.int64("amount")
        let currency = try fields.currency("currency")
        let date = try fields.date("date")
        let description = try fields.string("description")
        let tag = try fields.string("tag")
        let agreementId = try fields.optionalString("agreementId")
        let source = SourceRef(file: try fields.string("sourceFile"), line: try fields.int("sourceLine"))
        self.init(id: id, coupleId: coupleId, paidBy: paidBy, amount: amount, currency: currency, date: date,
                  description: description, tag: tag, agreementId: agreementId, split: try SplitRule(fields: &fields),
                  source: source)
    }
}

extension SettlementFact: WireRecord {
    public static let wireKind = "settlement"
    public static let wireVersion = 1
    public static let wireKeyFieldCount = 1

    /// `settlement.v1  coupleId  id  fromMember  toMember  amount  currency  date  sourceFile  sourceLine`
    public func encode(into writer: inout WireWriter) {
        writer.string(coupleId)
        writer.string(id)
        writer.string(fromMember)
        writer.string(toMember)
        writer.int(amount)
        writer.currency(currency)
        writer.date(date)
        writer.string(source.file)
        writer.int(source.line)
    }

    public init(fields: inout WireFields) throws(WireError) {
        let coupleId = try fields.string("coupleId")
        let id = try fields.string("id")
        let from = try fields.string("fromMember")
        let to = try fields.string("toMember")
        let amount = try fields.int64("amount")
        let currency = try fields.currency("currency")
        let date = try fields.date("date")
        let source = SourceRef(file: try fields.string("sourceFile"), line: try fields.int("sourceLine"))
        self.init(id: id, coupleId: coupleId, fromMember: from, toMember: to, amount: amount, currency: currency,
                  date: date, source: source)
    }
}

extension Agreement: WireRecord {
    public static let wireKind = "agreement"
    public static let wireVersion = 1
    public static let wireKeyFieldCount = 1

    /// `agreement.v1  coupleId  id  description  amount  currency  paidBy  tag  dayOfMonth
    /// startDate  endDate  sourceFile  sourceLine  split…`
    public func encode(into writer: inout WireWriter) {
        writer.string(coupleId)
        writer.string(id)
        writer.string(description)
        writer.int(amount)
        writer.currency(currency)
        writer.string(paidBy)
        writer.string(tag)
        writer.int(dayOfMonth)
        writer.date(startDate)
        writer.date(endDate)
        writer.string(sourceFile)
        writer.int(sourceLine)
        split.encode(into: &writer)
    }

    public init(fields: inout WireFields) throws(WireError) {
        let coupleId = try fields.string("coupleId")
        let id = try fields.string("id")
        let description = try fields.string("description")
        let amount = try fields.int64("amount")
        let currency = try fields.currency("currency")
        let paidBy = try fields.string("paidBy")
        let tag = try fields.string("tag")
        let dayOfMonth = try fields.int("dayOfMonth")
        let startDate = try fields.date("startDate")
        let endDate = try fields.optionalDate("endDate")
        let sourceFile = try fields.string("sourceFile")
        let sourceLine = try fields.int("sourceLine")
        self.init(id: id, coupleId: coupleId, description: description, amount: amount, currency: currency, paidBy: paidBy,
                  split: try SplitRule(fields: &fields), tag: tag, dayOfMonth: dayOfMonth, startDate: startDate,
                  endDate: endDate, sourceFile: sourceFile, sourceLine: sourceLine)
    }
}

extension FxRate: WireRecord {
    public static let wireKind = "fx-rate"
    public static let wireVersion = 1
    /// Keyed by the pair (every couple reads every rate: the rates go to every partition).
    public static let wireKeyFieldCount = 2

    /// `fx-rate.v1  currency  base  date  rate`
    public func encode(into writer: inout WireWriter) {
        writer.currency(currency)
        writer.currency(base)
        writer.date(date)
        writer.decimal(rate)
    }

    public init(fields: inout WireFields) throws(WireError) {
        let currency = try fields.currency("currency")
        let base = try fields.currency("base")
        self.init(date: try fields.date("date"), currency: currency, base: base, rate: try fields.decimal("rate"))
    }
}

extension RefusedRow {
    /// `kind  id  coupleId?  date?  description?  amount?  currency?  code`: the row as written.
    func encode(into writer: inout WireWriter) {
        writer.string(kind.rawValue)
        writer.string(id)
        writer.string(written.coupleId)
        writer.string(written.date)
        writer.string(written.description)
        writer.string(written.amount)
        writer.string(written.currency)
        writer.string(reason.rawValue)
    }

    init(fields f: inout WireFields) throws(WireError) {
        let kind = try f.string("kind")
        guard let rowKind = LeftOutRow.Kind(rawValue: kind), rowKind != .agreementMonth else {
            throw f.error("'\(kind)' is not one of expense, settlement")
        }
        self.init(kind: rowKind, id: try f.string("id"), written: WrittenRow(
            coupleId: try f.optionalString("coupleId"), date: try f.optionalString("date"),
            description: try f.optionalString("description"), amount: try f.optionalString("amount"),
            currency: try f.optionalString("currency")), reason: try f.enumeration("code", RejectCode.self))
    }
}

extension LedgerOpening: WireRecord {
    public static let wireKind = "ledger-opening"
    public static let wireVersion = 1
    public static let wireKeyFieldCount = 0

    /// `ledger-opening.v1  month  [memberId, balance]  [month, amount]  expenseTotal  agreementTotal  [reject fields]  [refused row]`.
    public func encode(into writer: inout WireWriter) {
        writer.month(month)
        writer.count(memberIds.count)
        for (id, balance) in zip(memberIds, balances) {
            writer.string(id)
            writer.int(balance)
        }
        let months = trend.keys.sorted()
        writer.count(months.count)
        for month in months {
            writer.month(month)
            writer.int(trend[month]!)
        }
        writer.string(String(expenseTotal))
        writer.string(String(agreementTotal))
        RejectList(rejects).encode(into: &writer)
        let undated = undated.sorted(by: RefusedRow.precedes)
        writer.count(undated.count)
        for row in undated { row.encode(into: &writer) }
    }

    public init(fields f: inout WireFields) throws(WireError) {
        let month = try f.month("month")
        var memberIds: [String] = []
        var balances: [Int64] = []
        for _ in 0..<(try f.count("memberCount")) {
            memberIds.append(try f.string("memberId"))
            balances.append(try f.int64("balance"))
        }
        var trend: [YearMonth: Int64] = [:]
        for _ in 0..<(try f.count("trendCount")) {
            let month = try f.month("trendMonth")
            trend[month] = try f.int64("amount")
        }
        guard let expenseTotal = Int128(try f.string("expenseTotal")), let agreementTotal = Int128(try f.string("agreementTotal"))
        else { throw f.error("a total is not an integer") }
        let rejects = try RejectList(fields: &f).sorted
        var undated: [RefusedRow] = []
        for _ in 0..<(try f.count("undatedCount")) { undated.append(try RefusedRow(fields: &f)) }
        self.init(month: month, memberIds: memberIds, balances: balances, trend: trend, expenseTotal: expenseTotal,
                  agreementTotal: agreementTotal, rejects: rejects, undated: undated)
    }
}
