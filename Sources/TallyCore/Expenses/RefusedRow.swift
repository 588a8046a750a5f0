/// What a couple's row wrote, kept as text when the row could not be
/// read (its amount `73,73`, its date `2026-09-31`), so that its couple's
/// statement can show it: each field as written, nil when empty.
///
/// ```swift
/// WrittenRow(coupleId: "cpl-000001", date: "2026-10-12", description: "Mercado", amount: "73,73", currency: "BRL")
/// ```
public struct WrittenRow: Hashable, Sendable {
    public var coupleId: String?
    public var date: String?
    public var description: String?
    public var amount: String?
    public var currency: String?

    public init(coupleId: String?, date: String?, description: String?, amount: String?, currency: String?) {
        self.coupleId = coupleId
        self.date = date
        self.description = description
        self.amount = amount
        self.currency = currency
    }
}

/// A couple's row refused before its statement was built (it could not be
/// read: an amount written `73,73`, a date `2026-09-31`, an unknown
/// `splitType`), as written, with why: what the statement lists beside the
/// rows its own checks left out (``LeftOutRow``), so the couple sees it too.
///
/// Which statement lists it is decided here, once (``listed(in:)``): the
/// statement of the month of its date; for a date that is not on the
/// calendar but names its month (`2026-09-31`), that month's, the date shown
/// as written; a row whose month cannot be read at all (no date, `31/09/2026`)
/// is listed on the statement of whatever month is run, marked as having no
/// readable date, until it is fixed (no month is more its own than another).
///
/// ```swift
/// let row = RefusedRow(kind: .expense, id: "e9", written: written, reason: .amountNotDecimal)
/// row.listed(in: YearMonth(year: 2026, month: 10))   // .on(2026-10-12)
/// ```
public struct RefusedRow: Hashable, Sendable {
    public var kind: LeftOutRow.Kind
    public var id: String
    public var written: WrittenRow
    public var reason: RejectCode

    public init(kind: LeftOutRow.Kind, id: String, written: WrittenRow, reason: RejectCode) {
        self.kind = kind
        self.id = id
        self.written = written
        self.reason = reason
    }

    /// Where a refused row stands on a month's statement.
    public enum Listing: Hashable, Sendable {
        /// On this day of the month.
        case on(LocalDate)
        /// In this month, on a day that is not on the calendar (shown as written).
        case unreadableDay
        /// Its month cannot be read.
        case undated
    }

    /// The row's date, when its `date` field reads as one.
    public var date: LocalDate? { written.date.flatMap { LocalDate.parse($0) } }

    /// The month the `date` field names, even when its day is not on the calendar (`2026-09-31`).
    public var month: YearMonth? {
        if let date { return date.yearMonth }
        guard let text = written.date else { return nil }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].count == 2, parts[2].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return YearMonth("\(parts[0])-\(parts[1])")
    }

    /// Where `period`'s statement lists the row; nil when it belongs to another month.
    public func listed(in period: YearMonth) -> Listing? {
        if let date { return date.yearMonth == period ? .on(date) : nil }
        guard let month else { return .undated }
        return month == period ? .unreadableDay : nil
    }

    /// Id (bytes), then kind, date, amount and reason: a total order, so that a partition lists its
    /// refused rows the same whatever order they were read in.
    public static func precedes(_ a: RefusedRow, _ b: RefusedRow) -> Bool {
        func key(_ r: RefusedRow) -> [String] {
            [r.id, r.kind.rawValue, r.written.date ?? "", r.written.amount ?? "", r.written.description ?? "",
             r.written.currency ?? "", r.reason.rawValue]
        }
        let (x, y) = (key(a), key(b))
        for (p, q) in zip(x, y) { if case let c = ByteOrder.compare(p, q), c != 0 { return c < 0 } }
        return false
    }

    /// The rows of `rows` that `period`'s statement lists, in ``DateThenId``
    /// order (the rows without a readable date last), equal keys by ``precedes(_:_:)``.
    public static func listed(_ rows: [RefusedRow], in period: YearMonth) -> [RefusedRow] {
        rows.filter { $0.listed(in: period) != nil }.sorted { a, b in
            DateThenId.order(a.listingOrder, b.listingOrder) ?? precedes(a, b)
        }
    }

    /// The row's key in ``DateThenId``: its readable date (nil when none), its id.
    public var listingOrder: DateThenId<LocalDate> { DateThenId(date, id: id) }
}

/// A row a couple's statement lists as not counted: one its checks left out
/// (``LeftOutRow``) or one that could not be read (``RefusedRow``).
public enum NotCountedRow: Hashable, Sendable {
    case leftOut(LeftOutRow)
    case refused(RefusedRow)

    /// The day it is listed on; nil for a refused row without a readable date.
    public var date: LocalDate? {
        switch self {
        case .leftOut(let row): row.date
        case .refused(let row): row.date
        }
    }

    public var id: String {
        switch self {
        case .leftOut(let row): row.id
        case .refused(let row): row.id
        }
    }
}

extension CoupleStatement {
    /// The rows the statement lists as not counted, in the order it lists them: ``DateThenId``
    /// (the rows without a readable date last); a left-out and a refused row of one day and id,
    /// the left-out one first.
    public var notCountedRows: [NotCountedRow] {
        DateThenId.sorted(leftOut.map(NotCountedRow.leftOut) + refused.map(NotCountedRow.refused)) {
            DateThenId($0.date, id: $0.id)
        }
    }
}
