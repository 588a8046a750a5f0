/// Spreads a fixed list of bad rows evenly through a stream of good ones, so
/// that the planted counts are exact and the bad rows are not bunched together.
struct BadRowSchedule {
    private var pending: [BadRowKind]
    private let spacing: Int
    private var sinceLast = 0

    /// `perKind` rows of each of `kinds`, in a shuffled order, over about `expectedGoodRows` good rows.
    init(kinds: [BadRowKind], perKind: Int, expectedGoodRows: Int, random: inout RandomSource) {
        var list: [BadRowKind] = []
        for kind in kinds { list += Array(repeating: kind, count: perKind) }
        random.shuffle(&list)
        pending = list.reversed()
        spacing = max(1, expectedGoodRows / (list.count + 1))
    }

    /// Call after each good row; returns the bad row due now, if any.
    mutating func tick() -> BadRowKind? {
        sinceLast += 1
        guard sinceLast >= spacing, let kind = pending.popLast() else { return nil }
        sinceLast = 0
        return kind
    }

    /// The bad rows not yet placed (when the good rows ran out early).
    mutating func drain() -> [BadRowKind] {
        defer { pending.removeAll() }
        return pending.reversed()
    }
}
