import TallyCore

/// The fixed order partial results write their entries in, so equal
/// partials are equal lines: each comparison says whether `a` comes first,
/// or nil when the two are the same (compare the next part of the key).
enum WireOrder {
    /// Byte order of the UTF-8 (``ByteOrder``); nil for the same bytes.
    static func precedes(_ a: String, _ b: String) -> Bool? {
        let c = ByteOrder.compare(a, b)
        return c == 0 ? nil : c < 0
    }

    /// By code, then minor units (a currency is both).
    static func precedes(_ a: Currency, _ b: Currency) -> Bool? {
        precedes(a.code, b.code) ?? (a.minorUnits == b.minorUnits ? nil : a.minorUnits < b.minorUnits)
    }

    /// Earlier months first.
    static func precedes(_ a: YearMonth, _ b: YearMonth) -> Bool? { a == b ? nil : a < b }
}
