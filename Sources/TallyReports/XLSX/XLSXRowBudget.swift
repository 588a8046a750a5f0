/// How much of a list a sheet can show when the whole list would pass the
/// sheet's rows: each block of the list shows its first items up to a cap,
/// and one line adds up the rest ("Outras 1.204 categorias").
///
/// ```swift
/// // Two blocks of 3 and 1 items, each with a total and a blank row, in 7 rows:
/// XLSXRowBudget.cap(counts: [3, 1], extraRowsEach: 2, within: 7)   // 1: "a", "2 others", total, blank; "x", total, blank
/// XLSXRowBudget.cap(counts: [3, 1], extraRowsEach: 2, within: 8)   // 3: everything fits
/// ```
public enum XLSXRowBudget {
    /// The most items each block shows so that blocks of `counts` items, each taking
    /// `extraRowsEach` rows of its own and one more line when it has items past the
    /// cap, fit in `rows` rows: the largest count when everything fits, nil when not
    /// even the lines adding up every block fit.
    public static func cap(counts: [Int], extraRowsEach: Int, within rows: Int) -> Int? {
        func needed(_ cap: Int) -> Int {
            counts.reduce(0) { $0 + min($1, cap) + ($1 > cap ? 1 : 0) + extraRowsEach }
        }
        let most = counts.max() ?? 0
        if needed(most) <= rows { return most }
        guard needed(0) <= rows else { return nil }
        // needed grows with the cap: the largest cap that fits lies in 0..<most.
        var (fits, passes) = (0, most)
        while passes - fits > 1 {
            let middle = (fits + passes) / 2
            if needed(middle) <= rows { fits = middle } else { passes = middle }
        }
        return fits
    }
}
