import TallyCore

extension StatementTotals: WireRecord {
    public static let wireKind = "statement-totals"
    public static let wireVersion = 1
    /// A total over partitions: not routed by a key.
    public static let wireKeyFieldCount = 0

    /// `statement-totals.v1  couples  members  expenses  transfers  greedyStatements  rejects
    /// spendingCount  (currency  tag  amount)…`, spending sorted by currency
    /// (code, then minor units) then tag (byte order), so equal totals are equal lines.
    public func encode(into writer: inout WireWriter) {
        writer.int(couples)
        writer.int(members)
        writer.int(expenses)
        writer.int(transfers)
        writer.int(greedyStatements)
        writer.int(rejects)
        let spending = spendingByTag.flatMap { currency, byTag in byTag.map { (currency: currency, tag: $0.key, amount: $0.value) } }
            .sorted { a, b in WireOrder.precedes(a.currency, b.currency) ?? WireOrder.precedes(a.tag, b.tag) ?? false }
        writer.count(spending.count)
        for entry in spending {
            writer.currency(entry.currency)
            writer.string(entry.tag)
            writer.int(entry.amount)
        }
    }

    public init(fields: inout WireFields) throws(WireError) {
        self.init()
        couples = try fields.int("couples")
        members = try fields.int("members")
        expenses = try fields.int("expenses")
        transfers = try fields.int("transfers")
        greedyStatements = try fields.int("greedyStatements")
        rejects = try fields.int("rejects")
        for _ in 0..<(try fields.count("spendingCount")) {
            let currency = try fields.currency("spending.currency")
            let tag = try fields.string("spending.tag")
            let amount = try fields.int64("spending.amount")
            guard spendingByTag[currency]?[tag] == nil else { throw fields.error("repeats tag '\(tag)' of \(currency.code)") }
            spendingByTag[currency, default: [:]][tag] = amount
        }
    }
}
