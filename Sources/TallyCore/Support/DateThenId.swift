/// The one order tally lists dated rows in (a statement's itemised month,
/// its rows left out and refused, the rows its notes look at; a board's
/// check-ins and uncounted check-ins), as a sort key.
///
/// Rows come:
/// 1. by date (or instant), earliest first; a row without a readable date
///    after every dated one;
/// 2. then by id, compared as UTF-8 bytes (``ByteOrder``: `e10` before `e9`,
///    `Z` before `a`, whatever the platform's Unicode collation);
/// 3. then by where the row was read: its file's path (bytes), then its
///    line; a row that does not carry where it was read comes before one
///    that does (so the order stays a strict weak order).
///
/// Keys equal on all three (rows of two kinds sharing an id and a day, such
/// as an expense and a settlement both named `x1`, which carry no source)
/// are not ordered by it: a sort keeps them in the order given (Swift's sort
/// is stable), and a caller that needs a total order adds its own last step.
///
/// ```swift
/// let a = DateThenId(LocalDate(year: 2026, month: 10, day: 2)!, id: "e10")
/// let b = DateThenId(LocalDate(year: 2026, month: 10, day: 2)!, id: "e9")
/// DateThenId.precedes(a, b)                            // true: "e10" < "e9" byte by byte
/// DateThenId.sorted(expenses) { DateThenId($0.date, id: $0.id) }
/// ```
public struct DateThenId<When: Comparable & Sendable>: Sendable {
    /// The row's date (or instant); nil when it has no readable one.
    public var when: When?
    public var id: String
    /// Where the row was read, when known.
    public var source: SourceRef?

    public init(_ when: When?, id: String, source: SourceRef? = nil) {
        self.when = when
        self.id = id
        self.source = source
    }

    /// Whether `a` comes before `b` (true), after it (false), or neither
    /// (nil: equal keys), for callers that add a step of their own.
    public static func order(_ a: Self, _ b: Self) -> Bool? {
        switch (a.when, b.when) {
        case let (x?, y?) where x != y: return x < y
        case (_?, nil): return true
        case (nil, _?): return false
        default: break
        }
        if case let c = ByteOrder.compare(a.id, b.id), c != 0 { return c < 0 }
        switch (a.source, b.source) {
        case (nil, nil): return nil
        case (nil, _?): return true
        case (_?, nil): return false
        case let (p?, q?):
            if case let c = ByteOrder.compare(p.file, q.file), c != 0 { return c < 0 }
            return p.line == q.line ? nil : p.line < q.line
        }
    }

    /// Whether `a` comes strictly before `b`.
    public static func precedes(_ a: Self, _ b: Self) -> Bool { order(a, b) ?? false }

    /// `rows` in this order by `key`; rows of equal keys in the order given.
    ///
    /// Rows often come in this order already (a scan ordered by date and
    /// id): one pass over neighbours, holding two keys at a time, says so,
    /// and they are returned as given. Otherwise their positions are
    /// sorted, so each row is copied once rather than moved through the sort.
    public static func sorted<S: Sequence>(_ rows: S, by key: (S.Element) -> Self) -> [S.Element] {
        let elements = Array(rows)
        if isOrdered(elements, by: key) { return elements }
        let keys = elements.map(key)
        return keys.indices.sorted { precedes(keys[$0], keys[$1]) }.map { elements[$0] }
    }

    /// Whether no row of `elements` precedes the one before it.
    private static func isOrdered<Element>(_ elements: [Element], by key: (Element) -> Self) -> Bool {
        guard var previous = elements.first.map(key) else { return true }
        for i in elements.indices.dropFirst() {
            let next = key(elements[i])
            if precedes(next, previous) { return false }
            previous = next
        }
        return true
    }
}
