/// The ranking every board uses: best first, ties broken by id in byte
/// order for the listing, and standard competition ranks ("1224"): an
/// item's rank is 1 + the number of items strictly ahead of it, so items
/// that tie share a rank and the next rank skips as many places.
///
/// ```swift
/// let scores = ["b": 5, "a": 7, "c": 5, "d": 1]
/// CompetitionRanking.rank(Array(scores.keys), ahead: { scores[$0]! > scores[$1]! }, id: { $0 })
///     .map { "\($0.rank) \($0.item)" }   // ["1 a", "2 b", "2 c", "4 d"]
/// ```
public enum CompetitionRanking {
    /// `items` in ranking order, each with its rank. `ahead(a, b)` is true
    /// when `a` scores strictly better than `b` (a strict weak order); two
    /// items neither of which is ahead tie. `id` orders ties (byte order).
    public static func rank<Item>(_ items: [Item], ahead: (Item, Item) -> Bool,
                                  id: (Item) -> String) -> [(rank: Int, item: Item)] {
        let sorted = items.sorted { a, b in
            if ahead(a, b) { return true }
            if ahead(b, a) { return false }
            return ByteOrder.precedes(id(a), id(b))
        }
        var ranked: [(rank: Int, item: Item)] = []
        ranked.reserveCapacity(sorted.count)
        for (i, item) in sorted.enumerated() {
            let tiesPrevious = i > 0 && !ahead(sorted[i - 1], item)
            ranked.append((tiesPrevious ? ranked[i - 1].rank : i + 1, item))
        }
        return ranked
    }
}
