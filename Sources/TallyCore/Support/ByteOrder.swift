/// The order tally sorts ids and tags in: the bytes of their UTF-8 encoding,
/// compared one by one (what `LC_ALL=C sort` does). Unlike `String.<`, it does
/// not depend on Unicode normalization, so every platform agrees on it.
public enum ByteOrder {
    /// True when `a` sorts before `b` in UTF-8 byte order: the bytes are
    /// compared in place (``compare(_:_:)``), not through the UTF-8 view's
    /// iterator, since every sort of ids comes through here.
    @inlinable
    public static func precedes(_ a: String, _ b: String) -> Bool {
        compare(a, b) < 0
    }

    /// -1, 0 or 1 as `a` sorts before, equals or sorts after `b` in UTF-8
    /// byte order: one pass over the bytes, where ``precedes(_:_:)`` after an
    /// equality test takes two.
    ///
    /// ```swift
    /// ByteOrder.compare("e10", "e9")   // -1
    /// ```
    public static func compare(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                for i in 0..<min(x.count, y.count) where x[i] != y[i] { return x[i] < y[i] ? -1 : 1 }
                return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
            }
        }
    }

    /// `strings` sorted in UTF-8 byte order.
    public static func sorted(_ strings: some Sequence<String>) -> [String] {
        strings.sorted(by: precedes)
    }

    /// The sum of the UTF-8 bytes of `text` (the rotation key of split remainders).
    public static func byteSum(_ text: String) -> Int {
        text.utf8.reduce(0) { $0 + Int($1) }
    }
}
